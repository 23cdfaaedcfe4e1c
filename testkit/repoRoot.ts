import * as fs from "fs";
import * as path from "path";

/**
 * This repository's root, found from here rather than counted in `..`s, because the kit runs both
 * from its sources (jest) and from their build in dist/ (the demo, the emulator on its own).
 */
function findRepoRoot(from: string): string {
    for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
        const manifest = path.join(dir, "package.json");
        if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-vastai") return dir;
    }
    throw new Error(`no pulumi-vastai package.json above ${from}`);
}

export const REPO_ROOT = findRepoRoot(__dirname);
