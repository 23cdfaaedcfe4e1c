/**
 * What a Python program uses of the generated SDK, read from its text: each `vastai.<Name>(...)`
 * call with its keyword arguments (a resource, an `...Args` type, the `Provider`, a function and
 * its `_output` form), the keys of the dict and list literals given to them, and the attributes read
 * from what such a call returned (`gpu.ssh_port`). A small tokenizer and a parser of argument lists,
 * not a Python parser: an expression it does not know is "other", and is not looked into.
 */
import { Entry, Segment, Use, Value } from "./schemaUses";

interface Token {
    readonly kind: "name" | "number" | "string" | "op";
    readonly text: string;
    /** A plain string literal's contents; undefined for f-strings and byte strings, whose value the reader does not know. */
    readonly value?: string;
    readonly line: number;
}

const OPERATORS = ["**=", "//=", ">>=", "<<=", "...", "**", "//", "==", "!=", "<=", ">=", "->", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ">>", "<<"];

function tokenize(source: string): Token[] {
    const tokens: Token[] = [];
    let line = 1;
    let i = 0;
    while (i < source.length) {
        const c = source[i];
        if (c === "\n") {
            line++;
            i++;
        } else if (/\s/.test(c) || c === "\\") i++;
        else if (c === "#") {
            while (i < source.length && source[i] !== "\n") i++;
        } else {
            const str = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(source.slice(i, i + 5));
            if (str && (str[1] !== "" || c === "'" || c === '"')) {
                const [prefix, quote] = [str[1], str[2]];
                const start = line;
                let j = i + prefix.length + quote.length;
                let text = "";
                while (j < source.length && !source.startsWith(quote, j)) {
                    if (source[j] === "\\" && !/[rR]/.test(prefix)) {
                        text += source[j + 1] === "n" ? "\n" : source[j + 1];
                        if (source[j + 1] === "\n") line++;
                        j += 2;
                        continue;
                    }
                    if (source[j] === "\n") line++;
                    text += source[j++];
                }
                tokens.push({ kind: "string", text: source.slice(i, j + quote.length), value: /[fFbB]/.test(prefix) ? undefined : text, line: start });
                i = j + quote.length;
            } else if (/[A-Za-z_\p{L}]/u.test(c)) {
                const name = /^[\p{L}\p{N}_]+/u.exec(source.slice(i))![0];
                tokens.push({ kind: "name", text: name, line });
                i += name.length;
            } else if (/\d/.test(c) || (c === "." && /\d/.test(source[i + 1] ?? ""))) {
                const number = /^[\d.][\w.]*/.exec(source.slice(i))![0];
                tokens.push({ kind: "number", text: number, line });
                i += number.length;
            } else {
                const op = OPERATORS.find((o) => source.startsWith(o, i)) ?? c;
                tokens.push({ kind: "op", text: op, line });
                i += op.length;
            }
        }
    }
    return tokens;
}

const OPENERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
const CLOSERS = new Set([")", "]", "}"]);

/** The index after the bracket that closes the one at `i`. */
function skipBalanced(tokens: readonly Token[], i: number): number {
    let depth = 0;
    for (; i < tokens.length; i++) {
        const t = tokens[i].text;
        if (tokens[i].kind === "op" && OPENERS[t]) depth++;
        else if (tokens[i].kind === "op" && CLOSERS.has(t) && --depth === 0) return i + 1;
    }
    return i;
}

/** The index of the next `,` or closing bracket at this depth: the end of an expression. */
function skipExpression(tokens: readonly Token[], i: number): number {
    while (i < tokens.length) {
        const t = tokens[i];
        if (t.kind === "op" && (t.text === "," || CLOSERS.has(t.text))) return i;
        i = t.kind === "op" && OPENERS[t.text] ? skipBalanced(tokens, i) : i + 1;
    }
    return i;
}

const isOp = (t: Token | undefined, text: string) => t?.kind === "op" && t.text === text;

/** One expression from `i`: a dict or list literal is read into, anything else is `other`. */
function parseValue(tokens: readonly Token[], i: number): { value: Value; end: number } {
    const t = tokens[i];
    let parsed: { value: Value; end: number } | undefined;
    if (isOp(t, "{")) parsed = parseDict(tokens, i);
    else if (isOp(t, "[")) parsed = parseList(tokens, i);
    const end = skipExpression(tokens, parsed?.end ?? i);
    // `[a] if a else []`, `{...} | more`: more than one literal is an expression the reader does not know.
    return parsed && end === parsed.end ? parsed : { value: { kind: "other" }, end };
}

/** A comprehension (`for` at the literal's own depth) is no literal. */
function isComprehension(tokens: readonly Token[], open: number): boolean {
    const close = skipBalanced(tokens, open) - 1;
    for (let i = open + 1; i < close; i = tokens[i].kind === "op" && OPENERS[tokens[i].text] ? skipBalanced(tokens, i) : i + 1) {
        if (tokens[i].kind === "name" && tokens[i].text === "for") return true;
    }
    return false;
}

function parseDict(tokens: readonly Token[], open: number): { value: Value; end: number } | undefined {
    if (isComprehension(tokens, open)) return undefined;
    const entries: Entry[] = [];
    let i = open + 1;
    while (i < tokens.length && !isOp(tokens[i], "}")) {
        const key = tokens[i];
        if (key.kind === "string" && key.value !== undefined && isOp(tokens[i + 1], ":")) {
            const { value, end } = parseValue(tokens, i + 2);
            entries.push({ key: key.value, line: key.line, value });
            i = end;
        } else {
            // `**spread` or a computed key: keys the reader cannot name, so the dict is not looked into.
            return undefined;
        }
        if (isOp(tokens[i], ",")) i++;
    }
    return { value: { kind: "object", naming: "pythonDict", entries }, end: i + 1 };
}

function parseList(tokens: readonly Token[], open: number): { value: Value; end: number } | undefined {
    if (isComprehension(tokens, open)) return undefined;
    const items: Value[] = [];
    let i = open + 1;
    while (i < tokens.length && !isOp(tokens[i], "]")) {
        const { value, end } = parseValue(tokens, i);
        items.push(value);
        i = isOp(tokens[end], ",") ? end + 1 : end;
    }
    return { value: { kind: "list", items }, end: i + 1 };
}

/** A call's arguments from the `(` at `open`: keyword arguments as entries, `opts` and positional ones left out. */
function parseArguments(tokens: readonly Token[], open: number): Entry[] {
    const entries: Entry[] = [];
    let i = open + 1;
    while (i < tokens.length && !isOp(tokens[i], ")")) {
        const t = tokens[i];
        if (t.kind === "name" && isOp(tokens[i + 1], "=")) {
            const { value, end } = parseValue(tokens, i + 2);
            if (t.text !== "opts") entries.push({ key: t.text, line: t.line, value });
            i = end;
        } else i = skipExpression(tokens, i);
        if (isOp(tokens[i], ",")) i++;
    }
    return entries;
}

/** The name the program imports the generated SDK as: `import pulumi_vastai as vastai`. */
function sdkAlias(tokens: readonly Token[], module: string): string | undefined {
    for (let i = 0; i + 1 < tokens.length; i++) {
        if (tokens[i].text === "import" && tokens[i + 1].text === module) return tokens[i + 2]?.text === "as" ? tokens[i + 3]?.text : module;
    }
    return undefined;
}

/** An attribute chain after `i` (`.ssh_port`, `[0].dph_total`), up to a method call. */
function pathAfter(tokens: readonly Token[], i: number): { path: Segment[]; end: number } {
    const path: Segment[] = [];
    for (;;) {
        if (isOp(tokens[i], ".") && tokens[i + 1]?.kind === "name" && !isOp(tokens[i + 2], "(")) {
            path.push({ prop: tokens[i + 1].text });
            i += 2;
        } else if (isOp(tokens[i], "[") && (tokens[i + 1]?.kind === "number" || tokens[i + 1]?.value !== undefined) && isOp(tokens[i + 2], "]")) {
            path.push({ index: tokens[i + 1].value ?? tokens[i + 1].text });
            i += 3;
        } else return { path, end: i };
    }
}

/**
 * Every use of the SDK in a Python program: `vastai.<Name>(...)` calls with their keyword arguments,
 * and attributes read from a name a call was assigned to. Throws when the program never imports
 * `pulumi_<package>`: a reader that found nothing must not pass.
 */
export function pythonUses(source: string, packageName: string): Use[] {
    const tokens = tokenize(source);
    const alias = sdkAlias(tokens, `pulumi_${packageName}`);
    if (!alias) throw new Error(`no \`import pulumi_${packageName}\``);
    const uses: Use[] = [];
    const assigned = new Map<string, string>();
    for (let i = 0; i + 3 < tokens.length; i++) {
        const [a, dot, name, open] = tokens.slice(i, i + 4);
        if (a.kind !== "name" || a.text !== alias || isOp(tokens[i - 1], ".") || !isOp(dot, ".") || name.kind !== "name") continue;
        if (!isOp(open, "(")) {
            // A value of the SDK read as it is (`vastai.Instance.get`, an enum member): checked by the call it goes to.
            continue;
        }
        uses.push({ kind: "call", target: { python: name.text }, line: name.line, args: parseArguments(tokens, i + 3) });
        // `gpu = vastai.Instance(...)`, `offers = vastai.search_offers_output(...)`: what `gpu.` and `offers.` read.
        if (isOp(tokens[i - 1], "=") && tokens[i - 2]?.kind === "name" && !isOp(tokens[i - 3], ".")) assigned.set(tokens[i - 2].text, name.text);
    }
    for (let i = 0; i < tokens.length; i++) {
        const t = tokens[i];
        const callee = t.kind === "name" && !isOp(tokens[i - 1], ".") && !isOp(tokens[i + 1], "=") ? assigned.get(t.text) : undefined;
        if (!callee) continue;
        const { path, end } = pathAfter(tokens, i + 1);
        if (path.length > 0) {
            uses.push({ kind: "path", target: { python: callee }, text: tokens.slice(i, end).map((x) => x.text).join(""), line: t.line, path });
        }
    }
    return uses;
}
