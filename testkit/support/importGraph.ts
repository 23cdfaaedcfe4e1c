/** The import graph of a source tree, and the two checks the layering test makes of it: circles, and imports that run back up. */
import * as fs from "fs";
import * as path from "path";

/** File → the files it imports, both relative to the tree's root (`client/errors.ts`), with `/` between folders. */
export type ImportGraph = Map<string, string[]>;

/** `from "./x"`, `import "./x"`, `import("./x")`, `require("./x")`: a relative import of any kind, `import type` and `export ... from` too. */
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return sourceFiles(full);
        return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
    });
}

/** The file an import names, as TypeScript finds it (`./x` is `x.ts`, `x.js` or `x/index.ts`); undefined outside the tree. */
function resolveImport(fromFile: string, specifier: string, files: Set<string>): string | undefined {
    const base = path.resolve(path.dirname(fromFile), specifier);
    return [base, `${base}.ts`, `${base}.js`, path.join(base, "index.ts")].find((candidate) => files.has(candidate));
}

/** Every `.ts` and `.js` file under `root` with the files under `root` it imports. */
export function importGraph(root: string): ImportGraph {
    root = path.resolve(root);
    const files = sourceFiles(root);
    const known = new Set(files);
    const name = (file: string) => path.relative(root, file).split(path.sep).join("/");
    const graph: ImportGraph = new Map();
    for (const file of files) {
        const text = fs.readFileSync(file, "utf8");
        const targets = [...text.matchAll(RELATIVE_IMPORT)].map((m) => resolveImport(file, m[1], known)).filter((f): f is string => f !== undefined);
        graph.set(name(file), [...new Set(targets.map(name))]);
    }
    return graph;
}

/** The import circles: each a set of files that reach one another through imports (a strongly connected component of two or more, or a file importing itself). */
export function importCircles(graph: ImportGraph): string[][] {
    // Tarjan's algorithm.
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const circles: string[][] = [];
    const visit = (file: string) => {
        index.set(file, index.size);
        low.set(file, index.get(file)!);
        stack.push(file);
        onStack.add(file);
        for (const next of graph.get(file) ?? []) {
            if (!index.has(next)) {
                visit(next);
                low.set(file, Math.min(low.get(file)!, low.get(next)!));
            } else if (onStack.has(next)) {
                low.set(file, Math.min(low.get(file)!, index.get(next)!));
            }
        }
        if (low.get(file) !== index.get(file)) return;
        const component: string[] = [];
        let member: string;
        do {
            member = stack.pop()!;
            onStack.delete(member);
            component.push(member);
        } while (member !== file);
        if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
    };
    for (const file of graph.keys()) if (!index.has(file)) visit(file);
    return circles;
}

/** The part of the tree a file belongs to under `within` (a folder, or `""` for the root): its first folder there, or its own name without `.ts`. */
function partOf(file: string, within: string): string | undefined {
    const prefix = within === "" ? "" : `${within}/`;
    if (!file.startsWith(prefix)) return undefined;
    return file.slice(prefix.length).split("/")[0].replace(/\.(ts|js)$/, "");
}

/** An import between two parts that breaks the layers, or a part no layer names. */
export interface LayerProblem {
    file: string;
    imports?: string;
    problem: string;
}

/**
 * Checks the parts directly under `within` against `layers`, lowest first: a part imports only
 * parts of lower layers, never one of its own layer or above (which would run back up, or tie
 * two parts of one layer together). A part that no layer names is reported too, so a new folder
 * is given its place.
 */
export function layerProblems(graph: ImportGraph, layers: readonly (readonly string[])[], within = ""): LayerProblem[] {
    const rank = new Map(layers.flatMap((parts, i) => parts.map((part) => [part, i] as const)));
    const problems: LayerProblem[] = [];
    const unplaced = new Set<string>();
    for (const [file, targets] of graph) {
        const from = partOf(file, within);
        if (from === undefined) continue;
        if (!rank.has(from)) {
            if (!unplaced.has(from)) problems.push({ file, problem: `${from} is in no layer` });
            unplaced.add(from);
            continue;
        }
        for (const target of targets) {
            const to = partOf(target, within);
            if (to === undefined || to === from || !rank.has(to)) continue;
            if (rank.get(to)! >= rank.get(from)!) {
                const where = rank.get(to) === rank.get(from) ? "its own layer" : "a higher layer";
                problems.push({ file, imports: target, problem: `${from} imports ${to}, of ${where}` });
            }
        }
    }
    return problems;
}

/** Pairs of parts under `within` that import each other both ways: `["env", "dynamic"]`. */
export function mutualParts(graph: ImportGraph, within = ""): Array<[string, string]> {
    const pairs = new Set<string>();
    for (const [file, targets] of graph) {
        const from = partOf(file, within);
        for (const target of targets) {
            const to = partOf(target, within);
            if (from !== undefined && to !== undefined && from !== to) pairs.add(`${from} ${to}`);
        }
    }
    return [...pairs].map((p) => p.split(" ") as [string, string]).filter(([a, b]) => a < b && pairs.has(`${b} ${a}`));
}
