import { Document, LineCounter, Node, isMap, isScalar, parseDocument } from "yaml";

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
    const syntaxProblems = doc.errors.map((e) => ({ file, ...at(e.pos[0]), reason: e.message.split("\n")[0] }));
    return {
        content: syntaxProblems.length > 0 ? undefined : doc.toJS(),
        syntaxProblems,
        position(path, keyOnly = false) {
            return at(nodeAt(doc, path, keyOnly)?.range?.[0]);
        },
    };
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
