import * as fs from "fs";
import * as path from "path";

/**
 * The provider's layers, read from its imports: client at the bottom, schemas beside it, resources
 * and functions above, the runtime (what the serialized shim loads) on top. Resources and functions
 * are handed what they need (a context) and never reach up into the runtime or the package index,
 * and no two folders import each other both ways.
 */
const PROVIDER = path.resolve(__dirname, "..", "..", "provider");

function sourceFiles(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : [];
    });
}

/** `resources` for provider/resources/..., `index` for provider/index.ts. */
function layerOf(file: string): string {
    const [first] = path.relative(PROVIDER, file).split(path.sep);
    return first.replace(/\.ts$/, "");
}

/** Every relative import of every file: `{ from: "resources", to: "runtime", file }`. */
function imports(): Array<{ from: string; to: string; file: string }> {
    return sourceFiles(PROVIDER).flatMap((file) => {
        const text = fs.readFileSync(file, "utf8");
        const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]);
        return specifiers.map((spec) => ({ from: layerOf(file), to: layerOf(path.resolve(path.dirname(file), spec)), file: path.relative(PROVIDER, file) }));
    });
}

describe("the provider's layering", () => {
    const edges = imports().filter((e) => e.from !== e.to);

    it("finds the imports it judges", () => {
        expect(edges.some((e) => e.from === "resources" && e.to === "client")).toBe(true);
        expect(edges.some((e) => e.from === "runtime" && e.to === "resources")).toBe(true);
    });

    it("resources and functions never import the runtime or the package index", () => {
        const upward = edges.filter((e) => ["resources", "functions"].includes(e.from) && ["runtime", "index"].includes(e.to));
        expect(upward.map((e) => `${e.file} imports ${e.to}`)).toEqual([]);
    });

    it("nothing imports the command line (provider/cli), which only runs as the package's bin", () => {
        expect(edges.filter((e) => e.to === "cli").map((e) => `${e.file} imports cli`)).toEqual([]);
    });

    it("no two folders import each other both ways", () => {
        const pairs = new Set(edges.map((e) => `${e.from} -> ${e.to}`));
        const both = [...pairs].filter((p) => {
            const [from, to] = p.split(" -> ");
            return from < to && pairs.has(`${to} -> ${from}`);
        });
        expect(both.map((p) => `${p} and back: ${edges.filter((e) => `${e.from} -> ${e.to}` === p || `${e.to} -> ${e.from}` === p).map((e) => e.file).join(", ")}`)).toEqual([]);
    });
});
