/**
 * What an example in another language uses of the plugin's schema (schema.json), and the check
 * that each use exists there: a resource or function token, an argument, a nested key, an output.
 * The Python and YAML readers (pythonUses.ts, yamlUses.ts) turn a file into these uses; this file
 * knows the schema and the naming rules, and nothing of either language's syntax.
 */

/** The parts of a Pulumi package schema the check reads. */
export interface TypeSpec {
    readonly type?: string;
    readonly $ref?: string;
    readonly items?: TypeSpec;
    readonly additionalProperties?: TypeSpec;
    readonly oneOf?: readonly TypeSpec[];
    readonly properties?: Readonly<Record<string, TypeSpec>>;
    readonly enum?: readonly unknown[];
}
interface ResourceSpec {
    readonly inputProperties?: Readonly<Record<string, TypeSpec>>;
    readonly properties?: Readonly<Record<string, TypeSpec>>;
}
interface FunctionSpec {
    readonly inputs?: { readonly properties?: Readonly<Record<string, TypeSpec>> };
    /** An object type (`properties`), or, in newer schemas, any type spec. */
    readonly outputs?: TypeSpec;
}
export interface PackageSchema {
    readonly name: string;
    readonly provider?: ResourceSpec;
    readonly resources?: Readonly<Record<string, ResourceSpec>>;
    readonly types?: Readonly<Record<string, TypeSpec>>;
    readonly functions?: Readonly<Record<string, FunctionSpec>>;
}

/** A value as written in an example: a literal whose keys are written out, a list literal, or anything else. */
export type Value = { kind: "object"; naming: Naming; entries: Entry[] } | { kind: "list"; items: Value[] } | { kind: "other" };
export interface Entry {
    readonly key: string;
    readonly line: number;
    readonly value: Value;
}

/**
 * How a key is spelt. `schema`: as the schema has it (YAML). `pythonKwarg`: a keyword argument,
 * which only the generated snake_case name fits. `pythonDict`: a dict key, which the Python SDK
 * translates from snake_case by the type's metadata and passes on unchanged otherwise, so either
 * spelling arrives.
 */
export type Naming = "schema" | "pythonKwarg" | "pythonDict";

/** What a use is about: a Python `vastai.<name>` call or value, a YAML resource type, a YAML invoke. */
export type Target = { python: string } | { resource: string } | { invoke: string; returns?: string };

/** A step of an output path: a property (`.sshPort`, `.ssh_port`) or an index (`[0]`, `["key"]`). */
export type Segment = { prop: string } | { index: string };

export type Use =
    | { kind: "call"; target: Target; line: number; args: Entry[] }
    | { kind: "path"; target: Target; text: string; line: number; path: Segment[] };

// ---- Names: Pulumi's Python codegen (pkg/codegen/python, PyName and EnsureKeywordSafe) ----

const PYTHON_KEYWORDS = new Set(
    "False None True and as assert async await break class continue def del elif else except exec finally for from global if import in is lambda nonlocal not or pass print raise return try while with yield".split(
        " ",
    ),
);
const isUpper = (c: string) => /\p{Lu}/u.test(c);
const isDigit = (c: string) => /\p{Nd}/u.test(c);
const legalStart = (c: string) => /[\p{L}\p{Nl}_]/u.test(c);
const legalPart = (c: string) => /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u.test(c);

/**
 * A camelCase name as the generated Python SDK spells it: `templateHashId` → `template_hash_id`,
 * an acronym kept whole (`SHA256Hash` → `sha256_hash`, `publicIPs` → `public_ips`), a keyword
 * with a trailing underscore (`in` → `in_`). The state machine of Pulumi's `PyName`, non-legacy.
 */
export function pyName(name: string): string {
    const components: string[] = [];
    let current = "";
    let state: "first" | "upper" | "acronym" | "lowerOrNumber" = "first";
    for (let char of name) {
        if (!legalPart(char)) char = "_";
        if (state === "first") {
            if (!legalStart(char)) current += "_";
            state = isUpper(char) ? "upper" : "lowerOrNumber";
            current += char.toLowerCase();
        } else if (state === "upper") {
            state = isUpper(char) ? "acronym" : "lowerOrNumber";
            current += char.toLowerCase();
        } else if (state === "acronym") {
            if (isUpper(char)) current += char.toLowerCase();
            else if (isDigit(char) || char === "s") {
                state = "lowerOrNumber";
                current += char;
            } else {
                // The acronym's last letter starts the next word: `HTTPServer` → `http`, `server`.
                const chars = [...current];
                const last = chars.pop()!;
                components.push(chars.join(""));
                current = last + char;
                state = "lowerOrNumber";
            }
        } else if (isUpper(char)) {
            components.push(current);
            current = char.toLowerCase();
            state = "upper";
        } else current += char;
    }
    if (current !== "") components.push(current);
    const joined = components.join("_");
    return PYTHON_KEYWORDS.has(joined) ? `${joined}_` : joined;
}

/** The last part of a token: `vastai:index:searchOffers` → `searchOffers`. */
const memberOf = (token: string) => token.split(":").pop()!;

// ---- What a target offers ----

interface Resolved {
    /** How failures name it: `vastai:index:Instance`, `vastai.Instance`. */
    readonly what: string;
    readonly inputs?: Readonly<Record<string, TypeSpec>>;
    readonly outputs?: TypeSpec;
}

/** Every resource has these beside its declared outputs. */
const RESOURCE_BUILTINS: Record<string, TypeSpec> = { id: { type: "string" }, urn: { type: "string" } };

function resourceOutputs(resource: ResourceSpec): TypeSpec {
    return { type: "object", properties: { ...RESOURCE_BUILTINS, ...resource.inputProperties, ...resource.properties } };
}

/** A function's result: an object of named outputs, or a type of its own. */
function functionOutputs(fn: FunctionSpec): TypeSpec | undefined {
    return fn.outputs;
}

function resolveTarget(schema: PackageSchema, target: Target): Resolved | string {
    const pkg = schema.name;
    if ("python" in target) {
        const name = target.python;
        const what = `${pkg}.${name}`;
        const resource = schema.resources?.[`${pkg}:index:${name}`];
        if (resource) return { what, inputs: resource.inputProperties ?? {}, outputs: resourceOutputs(resource) };
        if (name === "Provider") return { what, inputs: schema.provider?.inputProperties ?? {} };
        const args = /^(\w+)Args$/.exec(name);
        if (args) {
            const type = schema.types?.[`${pkg}:index:${args[1]}`];
            if (type?.properties) return { what, inputs: type.properties };
            const argsOf = schema.resources?.[`${pkg}:index:${args[1]}`];
            if (argsOf) return { what, inputs: argsOf.inputProperties ?? {} };
        }
        for (const [token, fn] of Object.entries(schema.functions ?? {})) {
            const py = pyName(memberOf(token));
            if (name === py || name === `${py}_output`) return { what: `${what} (${token})`, inputs: fn.inputs?.properties ?? {}, outputs: functionOutputs(fn) };
        }
        return `${what}: the schema has no resource, type, function or provider that the Python SDK names so`;
    }
    if ("resource" in target) {
        if (target.resource === `pulumi:providers:${pkg}`) return { what: target.resource, inputs: schema.provider?.inputProperties ?? {} };
        const resource = schema.resources?.[target.resource];
        if (!resource) return `type ${target.resource}: the schema has no such resource (it has ${Object.keys(schema.resources ?? {}).join(", ")})`;
        return { what: target.resource, inputs: resource.inputProperties ?? {}, outputs: resourceOutputs(resource) };
    }
    const fn = schema.functions?.[target.invoke];
    if (!fn) return `fn::invoke ${target.invoke}: the schema has no such function (it has ${Object.keys(schema.functions ?? {}).join(", ")})`;
    const outputs = functionOutputs(fn);
    if (target.returns === undefined) return { what: target.invoke, inputs: fn.inputs?.properties ?? {}, outputs };
    const returned = objectOf(schema, outputs);
    const spec = returned.kind === "object" ? returned.properties[target.returns] : undefined;
    if (returned.kind === "object" && !spec) return `fn::invoke ${target.invoke}: return: ${target.returns}: no such output (it has ${Object.keys(returned.properties).join(", ")})`;
    return { what: `${target.invoke} (return ${target.returns})`, inputs: fn.inputs?.properties ?? {}, outputs: spec };
}

// ---- Types, as far as keys go ----

type Shape =
    | { kind: "object"; properties: Readonly<Record<string, TypeSpec>> }
    | { kind: "map"; values?: TypeSpec }
    | { kind: "list"; items?: TypeSpec }
    /** A value the schema does not look into: a primitive, an enum, Any, a resource reference, a union of shapes. */
    | { kind: "opaque" };

function objectOf(schema: PackageSchema, spec: TypeSpec | undefined): Shape {
    if (!spec) return { kind: "opaque" };
    if (spec.$ref) {
        const local = /^#\/types\/(.+)$/.exec(spec.$ref);
        return local ? objectOf(schema, schema.types?.[decodeURIComponent(local[1])]) : { kind: "opaque" };
    }
    if (spec.oneOf) {
        // A union is looked into only when one of its members has keys to check.
        const shapes = spec.oneOf.map((s) => objectOf(schema, s)).filter((s) => s.kind !== "opaque");
        return shapes.length === 1 ? shapes[0] : { kind: "opaque" };
    }
    if (spec.enum) return { kind: "opaque" };
    if (spec.properties) return { kind: "object", properties: spec.properties };
    if (spec.type === "object") return { kind: "map", values: spec.additionalProperties };
    if (spec.type === "array") return { kind: "list", items: spec.items };
    return { kind: "opaque" };
}

function findProperty(properties: Readonly<Record<string, TypeSpec>>, key: string, naming: Naming): [string, TypeSpec] | undefined {
    return Object.entries(properties).find(([name]) => (naming === "schema" ? name === key : pyName(name) === key || (naming === "pythonDict" && name === key)));
}

function spelt(properties: Readonly<Record<string, TypeSpec>>, naming: Naming): string {
    return Object.keys(properties)
        .map((name) => (naming === "schema" ? name : pyName(name)))
        .join(", ");
}

/** Failures of `entries` against `properties`, and of every nested literal against its property's type. */
function checkEntries(schema: PackageSchema, where: string, what: string, entries: readonly Entry[], properties: Readonly<Record<string, TypeSpec>>, naming: Naming): string[] {
    return entries.flatMap((entry) => {
        const found = findProperty(properties, entry.key, naming);
        if (!found) return [`${where}:${entry.line}: ${what}: no property "${entry.key}" (it has ${spelt(properties, naming)})`];
        return checkValue(schema, where, `${what}.${entry.key}`, entry.value, found[1]);
    });
}

function checkValue(schema: PackageSchema, where: string, what: string, value: Value, spec: TypeSpec | undefined): string[] {
    const shape = objectOf(schema, spec);
    if (value.kind === "list") return shape.kind === "list" ? value.items.flatMap((item, i) => checkValue(schema, where, `${what}[${i}]`, item, shape.items)) : [];
    if (value.kind !== "object") return [];
    if (shape.kind === "object") return checkEntries(schema, where, what, value.entries, shape.properties, value.naming);
    if (shape.kind === "map") return value.entries.flatMap((entry) => checkValue(schema, where, `${what}["${entry.key}"]`, entry.value, shape.values));
    return [];
}

function checkPath(schema: PackageSchema, where: string, use: Extract<Use, { kind: "path" }>, resolved: Resolved): string[] {
    const naming: Naming = "python" in use.target ? "pythonKwarg" : "schema";
    let spec = resolved.outputs;
    for (const segment of use.path) {
        const shape = objectOf(schema, spec);
        if ("index" in segment) {
            if (shape.kind === "list") spec = shape.items;
            else if (shape.kind === "map") spec = shape.values;
            else return [];
        } else {
            if (shape.kind !== "object") return [];
            const found = findProperty(shape.properties, segment.prop, naming);
            if (!found) return [`${where}:${use.line}: ${use.text}: ${resolved.what} has no output "${segment.prop}" (it has ${spelt(shape.properties, naming)})`];
            spec = found[1];
        }
    }
    return [];
}

/** Every use of `file` the schema lacks, one line each as `file:line: what`; empty when all exist. */
export function checkUses(schema: PackageSchema, file: string, uses: readonly Use[]): string[] {
    return uses.flatMap((use) => {
        const resolved = resolveTarget(schema, use.target);
        if (typeof resolved === "string") return [`${file}:${use.line}: ${resolved}`];
        if (use.kind === "path") return checkPath(schema, file, use, resolved);
        const naming: Naming = "python" in use.target ? "pythonKwarg" : "schema";
        return checkEntries(schema, file, resolved.what, use.args, resolved.inputs ?? {}, naming);
    });
}
