import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { docPages } from "./docPages";

/**
 * Every TypeScript block in README.md and in the pages under docs/ is a whole file of
 * examples/snippets/ (or a guide's whole example program, `EXAMPLE_PROGRAMS`), quoted as it is, so what a reader copies is what the build type-checks
 * (`npm run build`) and what the package test compiles in a fresh Pulumi program against the packed
 * package (packInstall.test.ts). A block that is not such a file fails here, whatever page it is on.
 */
const SNIPPETS = path.join(REPO_ROOT, "examples", "snippets");
/** Example projects whose program a guide quotes whole, kept once, in the project a reader copies. */
const EXAMPLE_PROGRAMS = ["examples/serverless/index.ts"];

function tsBlocks(page: string): Array<{ where: string; text: string }> {
    const text = fs.readFileSync(path.join(REPO_ROOT, page), "utf8");
    return [...text.matchAll(/^```(?:ts|typescript)\b[^\n]*\n([\s\S]*?)^```/gm)].map((m) => ({
        where: `${page} line ${text.slice(0, m.index).split("\n").length}`,
        text: m[1],
    }));
}

const readmeBlocks = () => tsBlocks("README.md");
const docsBlocks = () => docPages().flatMap(tsBlocks);

function snippetFiles(): Map<string, string> {
    return new Map(
        fs.readdirSync(SNIPPETS)
            .filter((f) => f.endsWith(".ts"))
            .map((f) => [f, fs.readFileSync(path.join(SNIPPETS, f), "utf8")]),
    );
}

describe("README and docs snippets", () => {
    it("finds the blocks and the files it compares", () => {
        expect(readmeBlocks().length).toBeGreaterThanOrEqual(2);
        expect(readmeBlocks().length + docsBlocks().length).toBeGreaterThanOrEqual(8);
        expect(snippetFiles().size).toBeGreaterThanOrEqual(8);
    });

    it("every ts block in README.md is a file of examples/snippets/, whole", () => {
        const files = [...snippetFiles().values()];
        const strays = readmeBlocks()
            .filter((block) => !files.includes(block.text))
            .map((block) => `${block.where}: put this block in examples/snippets/<name>.ts and quote the file whole`);
        expect(strays).toEqual([]);
    });

    it("every ts block in a page under docs/ is a file of examples/snippets/ or an example program, whole", () => {
        const files = [...snippetFiles().values(), ...EXAMPLE_PROGRAMS.map((f) => fs.readFileSync(path.join(REPO_ROOT, f), "utf8"))];
        const strays = docsBlocks()
            .filter((block) => !files.includes(block.text))
            .map((block) => `${block.where}: put this block in examples/snippets/<name>.ts and quote the file whole`);
        expect(strays).toEqual([]);
    });

    it("every file of examples/snippets/ is quoted in README.md or in a page under docs/", () => {
        const quoted = [...readmeBlocks(), ...docsBlocks()].map((block) => block.text);
        const unquoted = [...snippetFiles()].filter(([, text]) => !quoted.includes(text)).map(([name]) => name);
        expect(unquoted).toEqual([]);
    });
});
