import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../testkit/repoRoot";

/** Every Markdown page under docs/, as a path from the repository root with forward slashes. */
export function docPages(): string[] {
    const pages: string[] = [];
    const walk = (dir: string): void => {
        for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
            const rel = `${dir}/${entry.name}`;
            if (entry.isDirectory()) walk(rel);
            else if (entry.name.endsWith(".md")) pages.push(rel);
        }
    };
    walk("docs");
    return pages.sort();
}
