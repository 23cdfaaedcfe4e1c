import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { docPages } from "./docPages";

/**
 * The user's pages hold together: every relative Markdown link in README.md, CONTRIBUTING.md and
 * the pages under docs/ points at a file that exists (and at a heading that exists, when it names
 * one), and the README links every page under docs/, so a page cannot be written and left unfound.
 */
const read = (page: string) => fs.readFileSync(path.join(REPO_ROOT, page), "utf8");

/** The text outside fenced code blocks, whose brackets are code, not links. */
function prose(text: string): string {
    return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** Relative link targets of a page: [text](target), not URLs with a scheme. */
function relativeLinks(page: string): string[] {
    const targets = [...prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** GitHub's anchor for each heading of a page: lower case, punctuation dropped, spaces as hyphens. */
function anchors(page: string): Set<string> {
    const seen = new Map<string, number>();
    const result = new Set<string>();
    for (const m of prose(read(page)).matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
        const slug = m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
        const n = seen.get(slug) ?? 0;
        seen.set(slug, n + 1);
        result.add(n === 0 ? slug : `${slug}-${n}`);
    }
    return result;
}

const PAGES = () => ["README.md", "CONTRIBUTING.md", ...docPages()];

describe("documentation links", () => {
    it("finds the pages and their links", () => {
        expect(docPages()).toEqual(expect.arrayContaining(["docs/service-contract.md", "docs/live-service.md", "docs/guides/money-safety.md"]));
        expect(relativeLinks("README.md").length).toBeGreaterThanOrEqual(10);
    });

    it("every relative link points at a file that exists, and at a heading that exists", () => {
        const broken: string[] = [];
        for (const page of PAGES()) {
            for (const link of relativeLinks(page)) {
                const [file, fragment] = link.split("#");
                const target = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
                if (!fs.existsSync(path.join(REPO_ROOT, target))) {
                    broken.push(`${page}: ${link} (no file ${target})`);
                } else if (fragment !== undefined && target.endsWith(".md") && !anchors(target).has(fragment)) {
                    broken.push(`${page}: ${link} (no heading #${fragment} in ${target})`);
                }
            }
        }
        expect(broken).toEqual([]);
    });

    it("README.md links every page under docs/", () => {
        const linked = new Set(relativeLinks("README.md").map((link) => path.posix.normalize(link.split("#")[0])));
        expect(docPages().filter((page) => !linked.has(page))).toEqual([]);
    });

    it("the heading anchors are GitHub's", () => {
        expect(anchors("docs/service-contract.md").has("47-create-an-instance-from-an-offer")).toBe(true);
        expect(anchors("docs/guides/money-safety.md").has("an-up-stopped-while-an-instance-is-created")).toBe(true);
    });
});
