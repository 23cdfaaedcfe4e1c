#!/usr/bin/env node
// `npm run plugin-tarball [-- --out <dir>] [--os <os>] [--arch <arch>]`: the provider plugin as
// `pulumi plugin install resource vastai <version> --file <tarball>` installs it, written to
// <out>/pulumi-resource-vastai-v<version>-<os>-<arch>.tar.gz (default out: dist/plugin/, default
// os and arch: this machine's, in Pulumi's names). Prints the tarball's path and size.
//
// Its root: the launcher `pulumi-resource-vastai` (the executable the engine runs), package.json
// (the version the plugin reports), schema.json, LICENSE, the built dist/provider/, and in
// node_modules/ the production dependencies with @pulumi/pulumi and its own. Those are copied from
// this checkout's node_modules (what `npm ci` installed from package-lock.json), so it needs no
// network; their TypeScript, source maps and docs are left out. Every dependency is plain
// JavaScript, so only the launcher differs between platforms.
// No PulumiPlugin.yaml: docs/design/provider-plugin-install.md says why.
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
const PULUMI_OS = { linux: "linux", darwin: "darwin", win32: "windows" };
const PULUMI_ARCH = { x64: "amd64", arm64: "arm64" };
const ENTRY = path.join("dist", "provider", "plugin", "main.js");

function parseArgs(argv) {
    const options = { out: path.join(ROOT, "dist", "plugin"), os: PULUMI_OS[process.platform], arch: PULUMI_ARCH[process.arch] };
    for (let i = 0; i < argv.length; i += 2) {
        const [flag, value] = [argv[i], argv[i + 1]];
        if (!["--out", "--os", "--arch"].includes(flag) || value === undefined) throw new Error(`usage: pluginTarball.js [--out <dir>] [--os linux|darwin|windows] [--arch amd64|arm64]; got ${argv.join(" ")}`);
        options[flag.slice(2)] = value;
    }
    if (!Object.values(PULUMI_OS).includes(options.os)) throw new Error(`--os: one of ${Object.values(PULUMI_OS).join(", ")}, not ${options.os}`);
    if (!Object.values(PULUMI_ARCH).includes(options.arch)) throw new Error(`--arch: one of ${Object.values(PULUMI_ARCH).join(", ")}, not ${options.arch}`);
    options.out = path.resolve(options.out);
    return options;
}

/** The directory of package `name` as Node finds it from `fromDir`: the nearest node_modules/<name> above it. */
function findPackage(name, fromDir, modulesRoot) {
    // Never above this checkout: a package found there would not be what package-lock.json says.
    const last = [ROOT, path.dirname(modulesRoot)];
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
        const candidate = path.join(dir, "node_modules", name);
        if (fs.existsSync(path.join(candidate, "package.json"))) return fs.realpathSync(candidate);
        if (last.includes(dir) || dir === path.dirname(dir)) return undefined;
    }
}

/**
 * Every package the plugin can load, as directories under this checkout's node_modules: `roots`
 * and, recursively, their dependencies and optional dependencies (an optional one not installed is
 * skipped) and the peer dependencies not marked optional.
 */
function dependencyClosure(roots) {
    const modulesRoot = fs.realpathSync(path.join(ROOT, "node_modules"));
    const found = new Set();
    const visit = (name, fromDir, optional) => {
        const dir = findPackage(name, fromDir, modulesRoot);
        if (!dir) {
            if (optional) return;
            throw new Error(`${name}, needed from ${path.relative(ROOT, fromDir) || "the package"}, is not installed: run npm ci`);
        }
        if (found.has(dir)) return;
        found.add(dir);
        const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
        for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false);
        for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true);
        for (const dep of Object.keys(manifest.peerDependencies ?? {})) if (!manifest.peerDependenciesMeta?.[dep]?.optional) visit(dep, dir, true);
    };
    for (const name of roots) visit(name, ROOT, false);
    return [...found].map((dir) => path.relative(modulesRoot, dir)).sort();
}

/**
 * Files Node never loads from a dependency: TypeScript (sources and declarations), source maps and
 * docs. Leaving them out halves the files a user unpacks (about 14,000 to 6,000). License texts stay.
 */
const NOT_LOADED = /\.([cm]?ts|map|md|markdown)$/i;
const LICENSE = /^(licen[cs]e|notice|copying)/i;

/** A package's own files, as Node loads them: not its nested node_modules (packages of the closure themselves). */
function copyPackage(from, to) {
    fs.cpSync(from, to, {
        recursive: true,
        dereference: true,
        filter: (source) => {
            if (path.relative(from, source).split(path.sep)[0] === "node_modules") return false;
            const name = path.basename(source);
            return !NOT_LOADED.test(name) || LICENSE.test(name) || fs.statSync(source).isDirectory();
        },
    });
}

function stage(dir, platformOs) {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    for (const file of ["package.json", "schema.json", "LICENSE", ENTRY]) {
        if (!fs.existsSync(path.join(ROOT, file))) throw new Error(`${file} is missing${file === ENTRY ? ": build first (npm run prepare)" : ""}`);
    }
    fs.copyFileSync(path.join(ROOT, "bin", "pulumi-resource-vastai"), path.join(dir, "pulumi-resource-vastai"));
    fs.chmodSync(path.join(dir, "pulumi-resource-vastai"), 0o755);
    // Pulumi on Windows runs pulumi-resource-<name>.exe or .cmd, never a shell script.
    if (platformOs === "windows") fs.copyFileSync(path.join(ROOT, "bin", "pulumi-resource-vastai.cmd"), path.join(dir, "pulumi-resource-vastai.cmd"));
    for (const file of ["package.json", "schema.json", "LICENSE"]) fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
    fs.cpSync(path.join(ROOT, "dist", "provider"), path.join(dir, "dist", "provider"), { recursive: true, dereference: true });

    // @pulumi/pulumi is the program's own for the npm package (a peer dependency); the plugin has no program, so it ships one.
    const modulesRoot = fs.realpathSync(path.join(ROOT, "node_modules"));
    const packages = dependencyClosure([...Object.keys(manifest.dependencies ?? {}), "@pulumi/pulumi"]);
    for (const relative of packages) copyPackage(path.join(modulesRoot, relative), path.join(dir, "node_modules", relative));
    return packages.length;
}

function main() {
    const options = parseArgs(process.argv.slice(2));
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-plugin-"));
    try {
        const packages = stage(staging, options.os);
        fs.mkdirSync(options.out, { recursive: true });
        const tarball = path.join(options.out, `pulumi-resource-vastai-v${version}-${options.os}-${options.arch}.tar.gz`);
        // Entries named without "./", files and directories only (Pulumi's extractor refuses hard
        // links); COPYFILE_DISABLE keeps macOS tar from adding ._ resource-fork files.
        const entries = fs.readdirSync(staging).sort();
        execFileSync("tar", ["-czf", tarball, "-C", staging, ...entries], { stdio: "inherit", env: { ...process.env, COPYFILE_DISABLE: "1" } });
        const megabytes = (fs.statSync(tarball).size / 1e6).toFixed(1);
        console.log(`${tarball} (${megabytes} MB, ${packages} packages in node_modules)`);
    } finally {
        fs.rmSync(staging, { recursive: true, force: true });
    }
}

try {
    main();
} catch (e) {
    console.error(`plugin-tarball: ${e.message}`);
    process.exit(1);
}
