import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../testkit/repoRoot";

/**
 * Every TypeScript block in README.md is a whole file of examples/snippets/, quoted as it is, so
 * what a reader copies is what the build type-checks (`npm run build`) and what the package test
 * compiles in a fresh Pulumi program against the packed package (packInstall.test.ts). A block
 * that is not such a file fails here, whatever section it is in.
 */
const SNIPPETS = path.join(REPO_ROOT, "examples", "snippets");

function tsBlocks(file: string): Array<{ line: number; text: string }> {
    const markdown = fs.readFileSync(file, "utf8");
    return [...markdown.matchAll(/^```(?:ts|typescript)\b[^\n]*\n([\s\S]*?)^```/gm)].map((m) => ({
        line: markdown.slice(0, m.index).split("\n").length,
        text: m[1],
    }));
}

const readmeBlocks = () => tsBlocks(path.join(REPO_ROOT, "README.md"));

/** The blocks of every Markdown page under docs/. */
function docsBlocks(dir = path.join(REPO_ROOT, "docs")): Array<{ line: number; text: string }> {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? docsBlocks(full) : entry.name.endsWith(".md") ? tsBlocks(full) : [];
    });
}

function snippetFiles(): Map<string, string> {
    return new Map(
        fs.readdirSync(SNIPPETS)
            .filter((f) => f.endsWith(".ts"))
            .map((f) => [f, fs.readFileSync(path.join(SNIPPETS, f), "utf8")]),
    );
}

describe("README snippets", () => {
    it("finds the blocks and the files it compares", () => {
        expect(readmeBlocks().length).toBeGreaterThanOrEqual(8);
        expect(snippetFiles().size).toBeGreaterThanOrEqual(8);
    });

    it("every ts block in README.md is a file of examples/snippets/, whole", () => {
        const files = [...snippetFiles().values()];
        const strays = readmeBlocks()
            .filter((block) => !files.includes(block.text))
            .map((block) => `README.md line ${block.line}: put this block in examples/snippets/<name>.ts and quote the file whole`);
        expect(strays).toEqual([]);
    });

    // The reference pages quote snippets too (scripts/referenceDocs.ts quotes each file whole).
    it("every file of examples/snippets/ is quoted in README.md or a page of docs/", () => {
        const quoted = [...readmeBlocks(), ...docsBlocks()].map((block) => block.text);
        const unquoted = [...snippetFiles()].filter(([, text]) => !quoted.includes(text)).map(([name]) => name);
        expect(unquoted).toEqual([]);
    });
});
