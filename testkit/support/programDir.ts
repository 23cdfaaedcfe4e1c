import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../repoRoot";

/**
 * A throw-away Pulumi program directory holding a copy of the built package, so a test can change
 * "the installed provider" without touching this repository's own build.
 *
 * - `installed`: a user's program with `pulumi-vastai` in its node_modules (resolved by lookup).
 * - `repository`: a copy of this repository's layout, the program in `examples/quickstart`
 *   (resolved through the package's own `exports`, as this repository's examples are).
 *
 * Dependencies are symlinks into this repository's node_modules. Returns the directory the host
 * runs in and the path of the copied runtime entry.
 */
export function makeProgramDir(mode: "installed" | "repository"): { cwd: string; runtimeEntry: string; root: string } {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `vastai-program-${mode}-`));
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    const copyPackage = (into: string) => {
        fs.mkdirSync(into, { recursive: true });
        fs.writeFileSync(path.join(into, "package.json"), JSON.stringify(manifest, null, 2));
        fs.cpSync(path.join(REPO_ROOT, "dist", "provider"), path.join(into, "dist", "provider"), { recursive: true });
    };

    if (mode === "installed") {
        fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "user-program", dependencies: { "pulumi-vastai": "*" } }));
        const modules = path.join(root, "node_modules");
        fs.mkdirSync(modules);
        for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
            if (entry === ".bin" || entry.startsWith(".")) continue;
            fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(modules, entry));
        }
        const pkg = path.join(modules, "pulumi-vastai");
        copyPackage(pkg);
        return { cwd: root, root, runtimeEntry: path.join(pkg, "dist", "provider", "runtime", "index.js") };
    }

    copyPackage(root);
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(root, "node_modules"));
    const cwd = path.join(root, "examples", "quickstart");
    fs.mkdirSync(cwd, { recursive: true });
    return { cwd, root, runtimeEntry: path.join(root, "dist", "provider", "runtime", "index.js") };
}
