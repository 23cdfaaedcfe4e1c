import { Document, LineCounter, Node, isMap, isScalar, parseDocument, visit } from "yaml";

/**
 * A template file as parsed, with where each property is: the `yaml` package keeps every node's
 * offset, and its line counter turns one into a line and column, so a problem can be reported
 * where an editor can open it. YAML 1.2's core schema: `yes` stays a string, and JSON is read as
 * it is.
 */

/** Keys a file may hold besides the template's properties. */
export const FILE_KEYS = ["resourceName"] as const;

/** Properties whose text may live in a file beside the template file: `onstart: { file: ./x.sh }`. */
export const SIBLING_FILE_PROPERTIES = ["onstart", "readme"] as const;

export interface TemplateFileDocument {
    content: unknown;
    syntaxProblems: Array<{ file: string; line?: number; column?: number; reason: string }>;
    /** Line and column of the value at `path` (of its key, with `keyOnly`), or of the nearest node above it. */
    position(path: readonly string[], keyOnly?: boolean): { line?: number; column?: number };
}

export function parseTemplateFile(file: string, text: string): TemplateFileDocument {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const at = (offset: number | undefined) => {
        if (offset === undefined) return {};
        const { line, col } = lines.linePos(offset);
        return { line, column: col };
    };
    const syntaxProblems = [
        ...doc.errors.map((e) => ({ file, ...at(e.pos[0]), reason: e.message.split("\n")[0] })),
        // An unknown tag (`image: !Ref foo`) is a warning to the parser, which reads the value as if untagged: not what the author meant.
        ...doc.warnings.map((w) => ({
            file,
            ...at(w.pos[0]),
            reason: w.code === "TAG_RESOLVE_FAILED" ? `${w.message.split("\n")[0]}: template files take no YAML tags; write the value itself` : w.message.split("\n")[0],
        })),
        ...mergeKeys(doc).map((key) => ({ file, ...at(key.range?.[0]), reason: "merge keys (<<) are not supported in template files: write the properties out" })),
    ];
    return {
        content: syntaxProblems.length > 0 ? undefined : doc.toJS(),
        syntaxProblems,
        position(path, keyOnly = false) {
            return at(nodeAt(doc, path, keyOnly)?.range?.[0]);
        },
    };
}

/**
 * Every `<<` key. YAML 1.2 reads one as a plain key, so a merge (`<<: *defaults`) would be reported
 * as the unknown property "<<"; the file says what it is instead.
 */
function mergeKeys(doc: Document): Node[] {
    const found: Node[] = [];
    visit(doc, {
        Pair(_, pair) {
            if (isScalar(pair.key) && pair.key.value === "<<") found.push(pair.key);
        },
    });
    return found;
}

/** The node at `path`, or the deepest one that exists on the way there. */
function nodeAt(doc: Document, path: readonly string[], keyOnly: boolean): Node | undefined {
    let node: unknown = doc.contents;
    for (const [i, key] of path.entries()) {
        if (!isMap(node)) break;
        const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === key);
        if (!pair) break;
        if (keyOnly && i === path.length - 1) return pair.key as Node;
        node = pair.value;
    }
    return (node as Node | null) ?? undefined;
}
