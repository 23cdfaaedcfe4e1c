/**
 * What a Pulumi YAML program uses of the plugin's schema: each resource's `type` and `properties`
 * (nested maps and lists included), each `fn::invoke`'s `function`, `arguments` and `return`, and
 * each `${name.output}` a string reads from a resource or an invoke's result.
 */
import { LineCounter, Node, YAMLMap, isMap, isScalar, isSeq, parseDocument } from "yaml";
import { Entry, Segment, Target, Use, Value } from "./schemaUses";

/** A YAML node as a value: maps and lists are looked into; an `fn::` call, a `${...}` string and any other scalar are not. */
function valueOf(node: unknown, lineOf: (n: unknown) => number): Value {
    if (isMap(node)) {
        if (node.items.some((pair) => isScalar(pair.key) && String(pair.key.value).startsWith("fn::"))) return { kind: "other" };
        const entries: Entry[] = node.items.map((pair) => ({ key: String(isScalar(pair.key) ? pair.key.value : pair.key), line: lineOf(pair.key), value: valueOf(pair.value, lineOf) }));
        return { kind: "object", naming: "schema", entries };
    }
    if (isSeq(node)) return { kind: "list", items: node.items.map((item) => valueOf(item, lineOf)) };
    return { kind: "other" };
}

const entriesOf = (value: Value): Entry[] => (value.kind === "object" ? value.entries : []);

/** The body of every `fn::invoke` under `node`. */
function invokesIn(node: unknown, found: YAMLMap[] = []): YAMLMap[] {
    if (isMap(node)) {
        for (const pair of node.items) {
            if (isScalar(pair.key) && pair.key.value === "fn::invoke" && isMap(pair.value)) found.push(pair.value);
            invokesIn(pair.value, found);
        }
    } else if (isSeq(node)) for (const item of node.items) invokesIn(item, found);
    return found;
}

/** `gpu.sshPort`, `offers[0].dph_total`, `offers.offers[0]["gpu_name"]`: the root name and the steps after it. */
function parsePath(expression: string): { root: string; path: Segment[] } | undefined {
    const root = /^[A-Za-z_][\w-]*/.exec(expression);
    if (!root) return undefined;
    const path: Segment[] = [];
    const step = /\.([A-Za-z_]\w*)|\[(\d+)\]|\["([^"]*)"\]/y;
    let end = (step.lastIndex = root[0].length);
    for (let m = step.exec(expression); m; m = step.exec(expression)) {
        path.push(m[1] !== undefined ? { prop: m[1] } : { index: m[2] ?? m[3] });
        end = step.lastIndex;
    }
    // Only a whole chain of steps is an output path.
    return end === expression.length ? { root: root[0], path } : undefined;
}

/** Every scalar string under `node`, with its line. */
function stringsIn(node: unknown, lineOf: (n: unknown) => number, found: Array<{ text: string; line: number }> = []): Array<{ text: string; line: number }> {
    if (isMap(node)) for (const pair of node.items) stringsIn(pair.value, lineOf, found);
    else if (isSeq(node)) for (const item of node.items) stringsIn(item, lineOf, found);
    else if (isScalar(node) && typeof node.value === "string") found.push({ text: node.value, line: lineOf(node) });
    return found;
}

/** Every use of the schema in a Pulumi YAML program. Throws when it has no `resources:`: a reader that found nothing must not pass. */
export function yamlUses(source: string): Use[] {
    const lines = new LineCounter();
    const doc = parseDocument(source, { lineCounter: lines });
    if (doc.errors.length > 0) throw new Error(`not YAML: ${doc.errors[0].message}`);
    const lineOf = (n: unknown) => lines.linePos((n as Node | undefined)?.range?.[0] ?? 0).line;
    const resources = doc.get("resources");
    if (!isMap(resources)) throw new Error("no resources: map");

    const uses: Use[] = [];
    const owners = new Map<string, Target>();
    for (const pair of resources.items) {
        const name = String(isScalar(pair.key) ? pair.key.value : pair.key);
        if (!isMap(pair.value)) continue;
        const type = pair.value.get("type", true);
        if (!isScalar(type) || typeof type.value !== "string") continue;
        const target = { resource: type.value };
        owners.set(name, target);
        uses.push({ kind: "call", target, line: lineOf(type), args: entriesOf(valueOf(pair.value.get("properties", true), lineOf)) });
    }
    const variables = doc.get("variables");
    for (const node of invokesIn(doc.contents)) {
        const fn = node.get("function", true);
        if (!isScalar(fn) || typeof fn.value !== "string") continue;
        const returned = node.get("return", true);
        const target: Target = { invoke: fn.value, ...(isScalar(returned) ? { returns: String(returned.value) } : {}) };
        uses.push({ kind: "call", target, line: lineOf(fn), args: entriesOf(valueOf(node.get("arguments", true), lineOf)) });
    }
    // A variable that is an invoke: what `${variable...}` reads is its result.
    if (isMap(variables)) {
        for (const pair of variables.items) {
            const invoke = isMap(pair.value) ? pair.value.get("fn::invoke", true) : undefined;
            const fn = isMap(invoke) ? invoke.get("function", true) : undefined;
            if (!isMap(invoke) || !isScalar(fn)) continue;
            const returned = invoke.get("return", true);
            owners.set(String(isScalar(pair.key) ? pair.key.value : pair.key), { invoke: String(fn.value), ...(isScalar(returned) ? { returns: String(returned.value) } : {}) });
        }
    }
    for (const { text, line } of stringsIn(doc.contents, lineOf)) {
        // `$${` is a literal `${`, not an interpolation.
        for (const m of text.matchAll(/(?<!\$)\$\{([^}]+)\}/g)) {
            const parsed = parsePath(m[1].trim());
            const target = parsed && owners.get(parsed.root);
            if (parsed && target && parsed.path.length > 0) uses.push({ kind: "path", target, text: m[0], line, path: parsed.path });
        }
    }
    return uses;
}
