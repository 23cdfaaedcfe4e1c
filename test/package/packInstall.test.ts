import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";
import { API_KEY_PROPERTIES } from "../../provider/resources/apiKey/apiKeyArgs";
import { INSTANCE_PROPERTIES } from "../../provider/resources/instance/instanceArgs";
import { SSH_KEY_PROPERTIES } from "../../provider/resources/sshKey/sshKeyArgs";
import { TEMPLATE_PROPERTIES } from "../../provider/resources/template/templateArgs";
import { typeToken } from "../../provider/dynamic/typeTokens";
import { PolicyPackHost } from "../../testkit/policy/policyPackHost";
import { REPO_ROOT } from "../../testkit/repoRoot";

/**
 * The package as a user gets it: a checkout (the files git has, no dist/) packed with `npm pack`,
 * which builds it (`prepare`, as a git install and a publish do); the tarball installed with npm
 * into a fresh Pulumi TypeScript program; every README snippet compiled there with the tsconfig
 * `pulumi new typescript` makes (CommonJS, node10 resolution, no skipLibCheck or esModuleInterop);
 * and the README's Instance program run through Pulumi's dynamic-provider host, started in the
 * program's directory, against the emulator: up, refresh, destroy.
 *
 * Offline where it can be: npm installs the package's dependencies from its cache (`npm ci` put
 * them there) and asks the registry only for what the cache lacks. `@pulumi/pulumi` and
 * `@types/node`, the program's own dependencies, are linked from this repository's install: the
 * engine that drives the program must share the program's SDK, as Pulumi's language host does.
 */
const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
const SNIPPETS = path.join(REPO_ROOT, "examples", "snippets");
const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));

/**
 * Fields of what the functions and the client return whose doc comment gives their unit or
 * meaning: an offer's `gpu_ram` is MB per card where a machine's is bytes.
 */
const DOCUMENTED_RESULT_FIELDS = { OfferRecord: ["id", "gpu_ram", "dph_total", "dph_base", "min_bid", "reliability", "disk_space", "inet_down"] };

/**
 * The properties whose hover text in an editor, in `program` with its tsconfig, has no doc
 * comment: each resource's args, and DOCUMENTED_RESULT_FIELDS, as the installed declarations give them.
 */
function undocumentedInputs(program: string): string[] {
    const args = { TemplateArgs: TEMPLATE_PROPERTIES, InstanceArgs: INSTANCE_PROPERTIES, ApiKeyArgs: API_KEY_PROPERTIES, SshKeyArgs: SSH_KEY_PROPERTIES, ...DOCUMENTED_RESULT_FIELDS };
    const file = path.join(program, "hover.ts");
    const text =
        `import * as vast from "pulumi-vastai";\n` +
        Object.entries(args).map(([type, names]) => `export const ${type}: Partial<vast.${type}> = { ${names.map((n) => `${n}: undefined`).join(", ")} };\n`).join("");
    fs.writeFileSync(file, text);
    const options = ts.convertCompilerOptionsFromJson(pulumiTsconfig([]).compilerOptions, program).options;
    const service = ts.createLanguageService({
        getScriptFileNames: () => [file],
        getScriptVersion: () => "1",
        getScriptSnapshot: (f) => (fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined),
        getCurrentDirectory: () => program,
        getCompilationSettings: () => options,
        getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
        fileExists: ts.sys.fileExists,
        readFile: ts.sys.readFile,
        readDirectory: ts.sys.readDirectory,
    });
    const undocumented: string[] = [];
    for (const [type, names] of Object.entries(args)) {
        const line = text.indexOf(`export const ${type}:`);
        for (const name of names) {
            const info = service.getQuickInfoAtPosition(file, text.indexOf(` ${name}: undefined`, line) + 1);
            if (!ts.displayPartsToString(info?.documentation).trim()) undocumented.push(`${type}.${name}`);
        }
    }
    fs.rmSync(file);
    return undocumented;
}

/** The tsconfig.json of pulumi/templates' TypeScript programs (aws-typescript/tsconfig.json), with its `files`. */
function pulumiTsconfig(files: string[]) {
    return {
        compilerOptions: {
            strict: true,
            outDir: "bin",
            target: "es2020",
            module: "commonjs",
            moduleResolution: "node",
            sourceMap: true,
            experimentalDecorators: true,
            pretty: true,
            noFallthroughCasesInSwitch: true,
            noImplicitReturns: true,
            forceConsistentCasingInFileNames: true,
        },
        files,
    };
}

function run(command: string, args: string[], cwd: string): string {
    try {
        return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
        const failed = e as { stdout?: string; stderr?: string; message: string };
        throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${failed.stdout ?? ""}${failed.stderr ?? ""}`);
    }
}

/** What a fresh clone holds: the files git tracks or would add, the working tree's copies. */
function checkoutInto(dir: string): void {
    const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], REPO_ROOT).split("\0").filter(Boolean);
    for (const file of files) {
        const from = path.join(REPO_ROOT, file);
        if (!fs.existsSync(from) || fs.lstatSync(from).isSymbolicLink()) continue; // deleted, or node_modules
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.copyFileSync(from, path.join(dir, file));
    }
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules")), path.join(dir, "node_modules"));
}

function linkFromRepository(program: string, name: string): void {
    const target = path.join(program, "node_modules", name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(REPO_ROOT, "node_modules", name)), target);
}

describe("the packed package in a fresh Pulumi program", () => {
    let tmp: string;
    beforeAll(() => {
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-pack-"));
    });
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it("packs a complete build, installs, compiles every README snippet, and runs through the host", async () => {
        const checkout = path.join(tmp, "checkout");
        checkoutInto(checkout);
        expect(fs.existsSync(path.join(checkout, "dist"))).toBe(false);

        // npm pack runs `prepare`, which builds provider/ into dist/.
        const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", tmp], checkout));
        const shipped: string[] = packed.files.map((f: { path: string }) => f.path);
        expect(shipped).toEqual(expect.arrayContaining([
            "LICENSE", "README.md", "package.json", "docs/service-contract.md", "docs/live-service.md",
            "dist/provider/index.js", "dist/provider/index.d.ts", "dist/provider/runtime/index.js", "dist/types-node10/index.d.ts",
            packageJson.bin["pulumi-vastai"],
        ]));
        expect(shipped.filter((f) => !/^(dist\/provider\/|dist\/types-node10\/|docs\/)/.test(f)).sort()).toEqual([
            "LICENSE", "README.md", "package.json", "policy/PulumiPolicy.yaml", "policy/package.json", "schema.json",
        ]);

        const program = path.join(tmp, "program");
        fs.mkdirSync(program);
        fs.writeFileSync(path.join(program, "package.json"), JSON.stringify({ name: "user-program", main: "index.ts" }));
        run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--legacy-peer-deps", path.join(tmp, packed.filename)], program);
        linkFromRepository(program, "@pulumi/pulumi");
        linkFromRepository(program, path.join("@types", "node"));
        // What a program that runs the policy pack installs beside the package (an optional peer dependency).
        linkFromRepository(program, path.join("@pulumi", "policy"));
        expect(require.resolve("pulumi-vastai/runtime", { paths: [program] })).toBe(path.join(fs.realpathSync(program), "node_modules", "pulumi-vastai", "dist", "provider", "runtime", "index.js"));

        // A policy pack's snippets are compiled as Pulumi runs a pack: checking the pack's own files
        // (ts-node), not the libraries' declarations: @pulumi/policy 1.21's index.d.ts re-exports
        // names its proxy.d.ts strips as internal, which only skipLibCheck lets through.
        const snippets = fs.readdirSync(SNIPPETS).filter((f) => f.endsWith(".ts"));
        for (const file of snippets) fs.copyFileSync(path.join(SNIPPETS, file), path.join(program, file));
        const [packSnippets, programSnippets] = [snippets.filter((f) => f.startsWith("policyPack")), snippets.filter((f) => !f.startsWith("policyPack"))];
        fs.writeFileSync(path.join(program, "tsconfig.json"), JSON.stringify(pulumiTsconfig(programSnippets), null, 4));
        run(process.execPath, [tsc, "-p", program], program);
        const packConfig = pulumiTsconfig(packSnippets);
        fs.writeFileSync(path.join(program, "tsconfig.pack.json"), JSON.stringify({ ...packConfig, compilerOptions: { ...packConfig.compilerOptions, skipLibCheck: true } }, null, 4));
        run(process.execPath, [tsc, "-p", path.join(program, "tsconfig.pack.json")], program);
        // Each input property's doc comment, and those of documented result fields, as an editor shows
        // them on hover (the declarations' own printing of the schemas drops them: scripts/argsDocs.js puts them back).
        expect(undocumentedInputs(program)).toEqual([]);

        // The README's Instance program reads its onstart script from the program's directory.
        fs.writeFileSync(path.join(program, "setup.sh"), "pip install -q transformers\n");
        const runner = path.join(REPO_ROOT, "dist", "test", "package", "runInstalledProgram.js");
        const result = JSON.parse(run(process.execPath, [runner, program, "bin/instance.js"], program).trim().split("\n").pop()!);
        expect(result.up.create).toEqual(["trainer", "gpu"]);
        expect(result.outputs.ssh).toMatch(/^ssh -p \d+ root@\S+$/);
        expect(result.outputs.rented).toMatch(/^\d+ × RTX (4090|3090) at \$[\d.]+\/hour$/);
        for (const text of result.providers) expect(text).toContain('createRequire(process.cwd() + "/")("pulumi-vastai/runtime")');
        expect(result.destroyed).toEqual(["gpu", "trainer"]);
        expect(result.left).toEqual({ instances: 0, templates: 0 });

        // The policy pack, started as `pulumi preview --policy-pack node_modules/pulumi-vastai/policy` starts it.
        const configFile = path.join(program, "policy-config.json");
        fs.writeFileSync(configFile, JSON.stringify({ "vastai-private-templates": { allowPublic: ["demo"] } }));
        const template = (name: string) => ({ urn: `urn:pulumi:dev::user-program::${typeToken("template")}::${name}`, type: typeToken("template"), name, props: { name, image: "busybox", private: false } });
        const pack = await PolicyPackHost.start({ packDir: path.join(program, "node_modules", "pulumi-vastai", "policy"), configFile });
        try {
            expect((await pack.analyze(template("shared"))).map((d) => [d.policyName, d.enforcementLevel])).toEqual([["vastai-private-templates", "mandatory"]]);
            expect(await pack.analyze(template("demo"))).toEqual([]);
        } finally {
            await pack.stop();
        }
        // examples/policy-pack, the pack to publish to an organisation, installed beside the package
        // and started as its own folder (its index.ts compiled by the pack runner, its defaults applied).
        const ownPack = path.join(tmp, "policy-pack");
        fs.cpSync(path.join(REPO_ROOT, "examples", "policy-pack"), ownPack, { recursive: true });
        for (const name of ["pulumi-vastai", path.join("@pulumi", "policy"), path.join("@pulumi", "pulumi")]) {
            fs.mkdirSync(path.dirname(path.join(ownPack, "node_modules", name)), { recursive: true });
            fs.symlinkSync(fs.realpathSync(path.join(program, "node_modules", name)), path.join(ownPack, "node_modules", name));
        }
        const own = await PolicyPackHost.start({ packDir: ownPack });
        try {
            expect(own.config["vastai-stack-budget"]).toEqual({ enforcementLevel: "mandatory", properties: { maxPricePerHour: 25 } });
            expect((await own.analyze(template("shared"))).map((d) => d.policyName)).toEqual(["vastai-private-templates"]);
        } finally {
            await own.stop();
        }
        expect(require.resolve("pulumi-vastai/policy", { paths: [program] })).toBe(path.join(fs.realpathSync(program), "node_modules", "pulumi-vastai", "dist", "provider", "policy", "index.js"));
    }, 180_000);
});
