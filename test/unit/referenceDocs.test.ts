import * as fs from "fs";
import * as path from "path";
import { declarationsOf } from "../../provider/dynamic/properties";
import { apiKeyArgsSchema } from "../../provider/resources/apiKey/apiKeyArgs";
import { instanceArgsSchema } from "../../provider/resources/instance/instanceArgs";
import { sshKeyArgsSchema } from "../../provider/resources/sshKey/sshKeyArgs";
import { templateArgsSchema } from "../../provider/resources/template/templateArgs";
import { membersOf, parse } from "../../scripts/docComments";
import { PAGES, ReadFile, differences, readCommitted, referencePages, renderPage } from "../../scripts/referenceDocs";
import { REPO_ROOT } from "../../testkit/repoRoot";

/**
 * The reference pages under docs/resources/ and docs/functions/ are generated (`npm run docs`) from
 * the args schemas' `prop()` declarations and doc comments, and the templates in scripts/reference/.
 * Each page is generated again here, in memory; a page that differs from its file fails.
 */
const FIX = "Run `npm run docs` to regenerate the pages, and commit them.";
const readRepoFile: ReadFile = (repoPath) => fs.readFileSync(path.join(REPO_ROOT, repoPath), "utf8");

const RESOURCES = [
    { resource: "Template", page: "resources/template.md", schema: templateArgsSchema, file: "provider/resources/template/templateArgs.ts", declaredAs: "templateArgsSchema" },
    { resource: "Instance", page: "resources/instance.md", schema: instanceArgsSchema, file: "provider/resources/instance/instanceArgs.ts", declaredAs: "instanceArgsSchema" },
    { resource: "ApiKey", page: "resources/api-key.md", schema: apiKeyArgsSchema, file: "provider/resources/apiKey/apiKeyArgs.ts", declaredAs: "apiKeyArgsSchema" },
    { resource: "SshKey", page: "resources/ssh-key.md", schema: sshKeyArgsSchema, file: "provider/resources/sshKey/sshKeyArgs.ts", declaredAs: "sshKeyArgsSchema" },
];

/** Each property's doc comment in the object literal that declares the schema, as one line. */
function docsOf(file: string, declaredAs: string): Record<string, string> {
    const members = membersOf(parse(file, readRepoFile(file)), declaredAs);
    return Object.fromEntries([...members.values()].map((m) => [m.name, m.doc]));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
    heading
        .toLowerCase()
        .replace(/[^\w\- ]/g, "")
        .replace(/ /g, "-");

describe("reference pages", () => {
    const pages = referencePages();

    it.each(PAGES.map((p) => ({ page: p.page })))("docs/$page is what its declarations and template generate", ({ page }) => {
        const generated = pages.find((p) => p.page === page)!;
        const found = differences([generated], readCommitted).filter((d) => d.startsWith(`docs/${page} `));
        if (found.length > 0) throw new Error(`${found.join("\n")}\n\n${FIX}`);
    });

    it("docs/resources/ and docs/functions/ hold only generated pages", () => {
        const stray = differences(pages, readCommitted).filter((d) => d.includes("is no generated page"));
        if (stray.length > 0) throw new Error(`${stray.join("\n")}\n\n${FIX}`);
    });

    it("reads the doc comments of the schema", () => {
        const docs = docsOf(RESOURCES[0].file, "templateArgsSchema");
        expect(docs.image).toBe("Container image path, without the tag.");
        expect(docs.name).toBe("The name shown in the console; also what a lost create is looked for by.");
        expect(Object.keys(docs)).toEqual(declarationsOf(templateArgsSchema).map((d) => d.name));
    });

    // What the README's property tables showed for each property (its service field, what a change
    // does, whether it is secret, its doc comment), now on its resource's page.
    it.each(RESOURCES)("$resource: its page shows each property's service field, change, secrecy and doc comment", ({ page, schema, file, declaredAs }) => {
        const text = pages.find((p) => p.page === page)!.text;
        const docs = docsOf(file, declaredAs);
        for (const d of declarationsOf(schema)) {
            const line = text.split("\n").find((l) => l.startsWith(`- \`${d.name}\` (`));
            expect({ property: d.name, line }).toEqual({ property: d.name, line: expect.any(String) });
            const facts = /^- `\w+` \((.*?)\)(?: |$)/.exec(line!)![1];
            expect({ property: d.name, wire: facts.includes(d.wire === undefined ? "no service field" : `service field \`${d.wire}\``) }).toEqual({ property: d.name, wire: true });
            expect({ property: d.name, onChange: facts.includes(d.onChange === "replace" ? "forces replacement" : "updates in place") }).toEqual({ property: d.name, onChange: true });
            expect({ property: d.name, secret: /; secret;/.test(facts) }).toEqual({ property: d.name, secret: d.secret === true });
            expect(docs[d.name]).not.toBe("");
            expect(line).toContain(docs[d.name].replace(/ \(docs\/service-contract\.md §[\d.]+\)/g, "").slice(0, 40));
        }
    });

    it("a changed doc comment is a difference, named with its page and line (the check bites)", () => {
        const file = "provider/resources/template/templateArgs.ts";
        const altered: ReadFile = (repoPath) =>
            repoPath === file
                ? readRepoFile(repoPath).replace("/** Container image path, without the tag. */", "/** The image, without its tag. */")
                : readRepoFile(repoPath);
        expect(altered(file)).not.toBe(readRepoFile(file));
        const found = differences(referencePages(altered), readCommitted);
        expect(found).toHaveLength(1);
        expect(found[0]).toMatch(/^docs\/resources\/template\.md differs from its declarations, first at line \d+:/);
        expect(found[0]).toContain("generated: - `image` (string, not empty; updates in place; service field `image`) The image, without its tag.");
    });

    it("a page edited by hand, or missing, is a difference", () => {
        const edited = differences(pages, (page) => (page === "functions/get-machines.md" ? `${readCommitted(page)}\nA line by hand.\n` : readCommitted(page)));
        expect(edited).toEqual([expect.stringMatching(/^docs\/functions\/get-machines\.md differs/)]);
        const missing = differences(pages, (page) => (page === "resources/ssh-key.md" ? undefined : readCommitted(page)));
        expect(missing).toEqual(["docs/resources/ssh-key.md is missing"]);
    });

    it("a doc comment that cites the contract by section reaches no page; a property without a doc comment fails the generator", () => {
        for (const { text } of pages) expect(text).not.toContain("§");
        const file = "provider/resources/sshKey/sshKeyArgs.ts";
        const undocumented: ReadFile = (repoPath) =>
            repoPath === file ? readRepoFile(repoPath).replace("/** The public key, as in `~/.ssh/id_ed25519.pub`. Not secret. */", "") : readRepoFile(repoPath);
        const sshKey = PAGES.find((p) => p.page === "resources/ssh-key.md")!;
        expect(() => renderPage(sshKey, undocumented)).toThrow("provider/resources/sshKey/sshKeyArgs.ts: publicKey has no doc comment");
    });

    it("every relative link on a page leads to a file, and to a heading there when it names one", () => {
        const broken: string[] = [];
        for (const { page, text } of pages) {
            for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
                if (/^https?:/.test(target)) continue;
                const [file, anchor] = target.split("#");
                const resolved = file === "" ? path.join(REPO_ROOT, "docs", page) : path.resolve(path.dirname(path.join(REPO_ROOT, "docs", page)), file);
                if (!fs.existsSync(resolved)) {
                    broken.push(`${page}: ${target} (no such file)`);
                    continue;
                }
                if (anchor === undefined || !resolved.endsWith(".md")) continue;
                const headings = [...fs.readFileSync(resolved, "utf8").matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1]));
                if (!headings.includes(anchor)) broken.push(`${page}: ${target} (no such heading)`);
            }
        }
        expect(broken).toEqual([]);
    });
});
