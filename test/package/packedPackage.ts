import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../testkit/repoRoot";

/**
 * The package as a user gets it, for the package tests (packInstall, pluginInstall): a checkout
 * packed with `npm pack`, and that tarball installed into a fresh program.
 */

/** Runs a command to its end; a failure says where and prints what it wrote. */
export function run(command: string, args: string[], cwd: string): string {
    try {
        return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 });
    } catch (e) {
        const failed = e as { stdout?: string; stderr?: string; message: string };
        throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${failed.stdout ?? ""}${failed.stderr ?? ""}`);
    }
}

/** What a fresh clone holds: the files git tracks or would add, the working tree's copies. */
export function checkoutInto(dir: string): void {
    const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO_ROOT).split("\0").filter(Boolean);
    for (const file of files) {
        const from = path.join(REPO_ROOT, file);
        if (!fs.existsSync(from) || fs.lstatSync(from).isSymbolicLink()) continue; // deleted, or node_modules
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.copyFileSync(from, path.join(dir, file));
    }
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules")), path.join(dir, "node_modules"));
}

export interface PackedPackage {
    /** The checkout `npm pack` ran in. */
    checkout: string;
    /** The tarball's path. */
    tarball: string;
    /** The paths the tarball holds, as `npm pack --json` lists them. */
    files: string[];
}

/**
 * A fresh checkout in `<tmp>/checkout` (no dist/), packed with `npm pack` into `tmp`: npm runs
 * `prepare`, which builds provider/ into dist/, as a git install and a publish do.
 */
export function packCheckout(tmp: string): PackedPackage {
    const checkout = path.join(tmp, "checkout");
    checkoutInto(checkout);
    if (fs.existsSync(path.join(checkout, "dist"))) throw new Error(`a checkout has no dist/, but ${checkout} has`);
    const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", tmp], checkout));
    return { checkout, tarball: path.join(tmp, packed.filename), files: packed.files.map((f: { path: string }) => f.path) };
}

/**
 * A fresh program in `program` with the tarball installed by npm, which takes the package's
 * dependencies from its cache (`npm ci` put them there) and asks the registry only for what the
 * cache lacks. Peer dependencies are the program's own: link them with `linkFromRepository`.
 */
export function installPacked(program: string, tarball: string): void {
    fs.mkdirSync(program, { recursive: true });
    fs.writeFileSync(path.join(program, "package.json"), JSON.stringify({ name: "user-program", main: "index.ts" }));
    run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--legacy-peer-deps", tarball], program);
}

/** Links `name` into the program's node_modules from this repository's install. */
export function linkFromRepository(program: string, name: string): void {
    const target = path.join(program, "node_modules", name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules", name)), target);
}
