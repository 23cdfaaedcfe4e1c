import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { readTemplateFiles } from "../../provider/declarative/templateFiles";
import { main } from "../../provider/cli/main";
import { Emulator } from "../../testkit/emulator/server";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { startEmulator } from "../../testkit/support/fixtures";
import { programSetting } from "../../testkit/support/programConfig";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";

/**
 * `pulumi-vastai export-templates`, run as the package's bin (`node dist/provider/cli/main.js`,
 * built by jest's global setup) and in-process, against the emulator: only the account's own
 * templates, no secret in any written file, a changed file never overwritten without `--force`.
 */
const BIN = path.join(REPO_ROOT, "dist", "provider", "cli", "main.js");
const REGISTRY_TOKEN = "ghp_export_must_never_write_this_7";

const run = promisify(execFile);

/** The bin as a person runs it; async, so the emulator in this process keeps answering. */
async function bin(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
        const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env } });
        return { code: 0, stdout, stderr };
    } catch (e) {
        const failed = e as { code: number; stdout: string; stderr: string };
        return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
}

/** The same command in this process: faster than a spawn, for the cases the spawned runs do not need to prove. */
async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await main(args, { env, out: (l) => stdout.push(l), err: (l) => stderr.push(l) });
    return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

describe("export-templates", () => {
    let emu: Emulator;
    let env: Record<string, string>;
    const dirs: string[] = [];
    const freshDir = () => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "export-templates-"));
        dirs.push(dir);
        return path.join(dir, "templates");
    };
    const allText = (dir: string) => fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "utf8")).join("\n");

    let setting: { restore(): void };
    beforeAll(async () => {
        // The in-process runs' client waits at the emulator's pace, as the spawned ones do through their env.
        setting = programSetting({ timeScale: TEST_TIME_SCALE });
        emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        env = { VAST_API_KEY: emu.demoKey, VAST_URL: emu.url, VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) };
        const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        emu.model.addTemplate(emu.demoUser.id, { name: "Private Inference", image: "ghcr.io/acme/inference", tag: "1.8.2", private: true, ...login, docker_login_repo: "ghcr.io", docker_login_user: "acme-bot", docker_login_pass: REGISTRY_TOKEN });
        emu.model.addTemplate(emu.demoUser.id, { name: "shared notebook", image: "jupyter/base-notebook", runtype: "jupyter", private: false, ...login });
    });
    afterAll(async () => {
        setting.restore();
        dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
        await emu.stop();
    });

    it("--help prints the usage (the package's bin, as npx runs it)", async () => {
        const help = await bin(["export-templates", "--help"]);
        expect(help.code).toBe(0);
        expect(help.stdout).toMatch(/^Usage: pulumi-vastai export-templates --out <dir>/);
        expect(help.stdout).toContain("--force");
        const top = await cli(["--help"]);
        expect(top).toMatchObject({ code: 0, stdout: expect.stringContaining("export-templates") });
    });

    it("writes only the account's own templates, each read back by readTemplateFiles with its id; no secret in any file", async () => {
        const out = freshDir();
        const result = await bin(["export-templates", "--out", out], env);
        expect(result).toMatchObject({ code: 0, stderr: "" });
        expect(result.stdout).toContain("pulumi config set --secret private-inference-dockerLoginPass <registry token>");
        expect(fs.readdirSync(out).sort()).toEqual(["private-inference.yaml", "shared-notebook.yaml"]);
        // Other users' public templates are visible to the search, and not exported.
        const others = [...emu.model.templates.values()].filter((t) => t.creator_id !== emu.demoUser.id);
        expect(others.some((t) => t.fields.private === false)).toBe(true);
        const read = readTemplateFiles(out);
        const mine = [...emu.model.templates.values()].filter((t) => t.creator_id === emu.demoUser.id).map((t) => t.id);
        expect(read.map((t) => t.args.adopt).sort()).toEqual(mine.sort());
        expect(read.find((t) => t.name === "private-inference")).toMatchObject({
            args: { name: "Private Inference", image: "ghcr.io/acme/inference", tag: "1.8.2", dockerLoginRepo: "ghcr.io", dockerLoginUser: "acme-bot" },
            dockerLoginPassSecret: "private-inference-dockerLoginPass",
        });
        // The public one of our own says so; defaults (private, tag, runtype, disk) are left out.
        expect(read.find((t) => t.name === "shared-notebook")?.args).toEqual({ adopt: expect.any(Number), name: "shared notebook", image: "jupyter/base-notebook", runtype: "jupyter", private: false });
        const text = allText(out);
        expect(text).not.toContain(REGISTRY_TOKEN);
        expect(text).not.toContain(emu.demoKey);
        expect(result.stdout + result.stderr).not.toContain(emu.demoKey);
    });

    it("refuses to overwrite a file that differs (writing nothing) unless --force; an unchanged folder is written as it is", async () => {
        const out = freshDir();
        expect((await cli(["export-templates", "--out", out], env)).code).toBe(0);
        const file = path.join(out, "shared-notebook.yaml");
        const exported = fs.readFileSync(file, "utf8");
        expect((await cli(["export-templates", "--out", out], env)).code).toBe(0);
        expect(fs.readFileSync(file, "utf8")).toBe(exported);

        fs.writeFileSync(file, `${exported}desc: reviewed and changed in git\n`);
        const refused = await cli(["export-templates", "--out", out], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("these files exist with other content; nothing was written (use --force to overwrite them)");
        expect(refused.stderr).toContain(file);
        expect(fs.readFileSync(file, "utf8")).toContain("reviewed and changed in git");

        expect((await cli(["export-templates", "--out", out, "--force"], env)).code).toBe(0);
        expect(fs.readFileSync(file, "utf8")).toBe(exported);
    });

    it("a template renamed in the console keeps its file and resource name: a new name would adopt it anew and delete it as the old resource", async () => {
        const out = freshDir();
        expect((await cli(["export-templates", "--out", out], env)).code).toBe(0);
        const file = path.join(out, "shared-notebook.yaml");
        fs.writeFileSync(file, `resourceName: notebook\n${fs.readFileSync(file, "utf8")}`);
        const notebook = [...emu.model.templates.values()].find((t) => t.fields.name === "shared notebook")!;
        emu.consoleEditTemplate(notebook.id, { name: "Team Notebook" });
        try {
            expect((await cli(["export-templates", "--out", out, "--force"], env)).code).toBe(0);
            expect(fs.readdirSync(out).sort()).toEqual(["private-inference.yaml", "shared-notebook.yaml"]);
            const [read] = readTemplateFiles(out).filter((t) => t.args.adopt === notebook.id);
            expect(read).toMatchObject({ name: "notebook", args: { name: "Team Notebook" } });
        } finally {
            emu.consoleEditTemplate(notebook.id, { name: "shared notebook" });
        }
    });

    it("a template a file without adopt may hold already is not written again; the command says to add adopt if it is that one", async () => {
        const out = freshDir();
        fs.mkdirSync(out, { recursive: true });
        const made = "name: shared notebook\nimage: jupyter/base-notebook\nruntype: jupyter\n";
        fs.writeFileSync(path.join(out, "notebook.yaml"), made);
        const notebook = [...emu.model.templates.values()].find((t) => t.fields.name === "shared notebook")!;
        const result = await cli(["export-templates", "--out", out], env);
        expect(result.code).toBe(0);
        expect(fs.readdirSync(out).sort()).toEqual(["notebook.yaml", "private-inference.yaml"]);
        expect(fs.readFileSync(path.join(out, "notebook.yaml"), "utf8")).toBe(made);
        expect(result.stdout).toContain(`template ${notebook.id} ("shared notebook") not exported: notebook.yaml gives its name and has no adopt`);
        expect(result.stdout).toContain(`add \`adopt: ${notebook.id}\` to notebook.yaml`);
    });

    it("a file that does not read (a merge conflict left in) stops the export before anything is written", async () => {
        const out = freshDir();
        fs.mkdirSync(out, { recursive: true });
        const conflicted = "<<<<<<< HEAD\nadopt: 1\n=======\nadopt: 2\n>>>>>>> theirs\nname: x\nimage: y\n";
        fs.writeFileSync(path.join(out, "x.yaml"), conflicted);
        const refused = await cli(["export-templates", "--out", out], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("these files do not read, so the export cannot tell which template each holds; nothing was written");
        expect(refused.stderr).toContain(`${path.join(out, "x.yaml")}:1:1: `);
        expect(fs.readdirSync(out)).toEqual(["x.yaml"]);
    });

    // Before: written into a file every `up` then refused.
    it("a template whose file would not read back is not written, named with its field, and the command exits 1; the others are written", async () => {
        const odd = emu.model.addTemplate(emu.demoUser.id, { name: "big shm", image: "pytorch/pytorch", env: "-e A=1 --shm-size=1g", private: true });
        try {
            const out = freshDir();
            const result = await cli(["export-templates", "--out", out], env);
            expect(result.code).toBe(1);
            expect(fs.readdirSync(out).sort()).toEqual(["private-inference.yaml", "shared-notebook.yaml"]);
            expect(result.stderr).toContain(`template ${odd.id} ("big shm") not exported: its file would not give it back as it is:\n  env: unsupported env flag "--shm-size"`);
            expect(result.stderr).toContain("1 template not exported: change what is named above in the console and export again");
        } finally {
            odd.deleted = true;
        }
    });

    // Before: the template made public in the console was written again with the value its file
    // kept in a stack secret, in plain text, and the command exited 0.
    it("a template made public whose file keeps an env value in a stack secret is not written again; the command says why and what to do, and exits 1", async () => {
        const internal = emu.model.addTemplate(emu.demoUser.id, { name: "internal", image: "busybox", env: "-e INTERNAL_URL=https://10.0.0.5/internal-abcdefgh", private: true });
        try {
            const out = freshDir();
            fs.mkdirSync(out, { recursive: true });
            const kept = `adopt: ${internal.id}\nname: internal\nimage: busybox\nenv:\n  INTERNAL_URL: { secret: internal-env-INTERNAL_URL }\n`;
            fs.writeFileSync(path.join(out, "internal.yaml"), kept);
            emu.consoleEditTemplate(internal.id, { private: false });
            const result = await cli(["export-templates", "--out", out, "--force"], env);
            expect(result.code).toBe(1);
            expect(fs.readFileSync(path.join(out, "internal.yaml"), "utf8")).toBe(kept);
            expect(allText(out)).not.toContain("10.0.0.5");
            expect(result.stderr).toContain(
                `template ${internal.id} ("internal") not exported: internal.yaml keeps env INTERNAL_URL in the stack secret "internal-env-INTERNAL_URL", and the template is public now (private: false)`,
            );
            expect(result.stderr).toContain("make the template private again in the console and export again, or edit internal.yaml by hand");
        } finally {
            internal.deleted = true;
        }
    });

    // Before: `--force=false` turned force on, `--id 1e3` and `--id 0x10` were read as 1000 and 16,
    // and `--out --force` wrote into a folder named "--force".
    it("reads its options strictly; each mistake is a usage error (exit 2) that prints the usage and writes nothing", async () => {
        const out = freshDir();
        const mistakes: Array<[string[], string]> = [
            [["--out", out, "--force=false"], "--force takes no value"],
            [["--out", "--force"], "--out needs a value"],
            [["--out", out, "--id", "1e3"], `--id: expected a template's numeric id (a positive whole number), got "1e3"`],
            [["--out", out, "--id", "0x10"], `--id: expected a template's numeric id (a positive whole number), got "0x10"`],
            [["--out", out, "--id"], "--id needs a value"],
            [["--out", out, "--colour"], "unknown option --colour"],
            [["--out", out, "stray"], 'unexpected argument "stray"'],
            [["--out", out, "--out=elsewhere"], "--out is given twice"],
            [["--out", out, "--api-key-file", "a", "--api-key-file=b"], "--api-key-file is given twice"],
            [["--out", out, "--", "x"], 'unexpected argument "--"'],
            [["--out", out, "-x"], "unknown option -x"],
        ];
        for (const [args, said] of mistakes) {
            const result = await cli(["export-templates", ...args], env);
            expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 2, stderr: expect.stringContaining(`pulumi-vastai: ${said} [cli_usage]\n\nUsage: pulumi-vastai export-templates`) });
        }
        expect(fs.existsSync(out)).toBe(false);
        expect(fs.existsSync("--force")).toBe(false);
        expect((await cli(["export-templates", `--out=${out}`, "--id", String([...emu.model.templates.values()].find((t) => t.fields.name === "shared notebook")!.id)], env)).code).toBe(0);
        expect(fs.readdirSync(out)).toEqual(["shared-notebook.yaml"]);
    });

    it("no command is a usage mistake (the usage on stderr, exit 2); --out naming a file is refused before any call; no message says vastai: after the command's name", async () => {
        expect(await cli([])).toMatchObject({ code: 2, stdout: "", stderr: expect.stringMatching(/^Usage: pulumi-vastai <command>/) });
        const file = path.join(path.dirname(freshDir()), "a-file");
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, "not a folder");
        emu.clearLog();
        expect(await cli(["export-templates", "--out", file], env)).toMatchObject({ code: 1, stderr: `pulumi-vastai: --out ${file}: is a file, not a folder [export_refused]` });
        expect(await cli(["export-templates", "--out", path.join(file, "templates")], env)).toMatchObject({
            code: 1,
            stderr: `pulumi-vastai: --out ${path.join(file, "templates")}: is inside ${file}, which is a file, not a folder [export_refused]`,
        });
        expect(emu.requests).toEqual([]);
        const refused = await cli(["export-templates", "--out", freshDir()], { ...env, VAST_API_KEY: "wrong" });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/^pulumi-vastai: (?!vastai: )/);
    });

    it("takes the key from the environment or a file, never from an argument", async () => {
        const refused = await cli(["export-templates", "--out", freshDir(), "--api-key", emu.demoKey], { VAST_URL: emu.url });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toMatch(/--api-key: the API key is never taken from the command line/);
        expect(refused.stderr).not.toContain(emu.demoKey);
        const none = await cli(["export-templates", "--out", freshDir()], { VAST_URL: emu.url });
        expect(none).toMatchObject({ code: 1, stderr: expect.stringContaining("no API key: set VAST_API_KEY, or use --api-key-file") });

        const keyFile = path.join(path.dirname(freshDir()), "key");
        fs.writeFileSync(keyFile, `${emu.demoKey}\n`);
        const out = freshDir();
        expect((await cli(["export-templates", "--out", out, "--api-key-file", keyFile], { VAST_URL: emu.url })).code).toBe(0);
        expect(fs.readdirSync(out)).toHaveLength(2);
    });

    // Before: an empty key file was taken for no file, and VAST_API_KEY (another account's, here) was used instead.
    it("an empty --api-key-file is refused, not passed over for VAST_API_KEY", async () => {
        const keyFile = path.join(path.dirname(freshDir()), "empty-key");
        fs.writeFileSync(keyFile, " \n");
        const out = freshDir();
        const result = await cli(["export-templates", "--out", out, "--api-key-file", keyFile], { ...env, VAST_API_KEY: emu.otherUser.apiKey });
        expect(result).toMatchObject({ code: 1, stderr: `pulumi-vastai: the API key file ${keyFile} is empty [export_refused]` });
        expect(fs.existsSync(out)).toBe(false);
    });

    // Before: each said to set vastai:apiKey or check vastai:baseUrl, stack settings the command never reads.
    it("a refused key, a key without user_read, nothing at VAST_URL, a page that is not the API's: each says what to change in what the command reads", async () => {
        const withKey = (key: string, url = emu.url) => ({ ...env, VAST_API_KEY: key, VAST_URL: url });
        const refused = await cli(["export-templates", "--out", freshDir()], withKey("not-a-key-of-anyone"));
        expect(refused).toMatchObject({ code: 1, stderr: expect.stringMatching(/HTTP 401 unauthorized.*\(set VAST_API_KEY to a valid key, or use --api-key-file <path>\) \[key_refused\]$/) });

        const keyFile = path.join(path.dirname(freshDir()), "revoked-key");
        fs.writeFileSync(keyFile, "not-a-key-of-anyone\n");
        const fromFile = await cli(["export-templates", "--out", freshDir(), "--api-key-file", keyFile], withKey(emu.demoKey));
        expect(fromFile).toMatchObject({ code: 1, stderr: expect.stringContaining(`(put a valid key in ${keyFile}, the file --api-key-file names)`) });

        const scoped = await cli(["export-templates", "--out", freshDir()], withKey(emu.createKey({ api: { misc: {} } }).key));
        expect(scoped).toMatchObject({ code: 1, stderr: expect.stringContaining('HTTP 403 forbidden: This API key does not have permission to access this endpoint. This call needs the "user_read" permission') });

        const stopped = await startEmulator();
        await stopped.stop();
        const nothing = await cli(["export-templates", "--out", freshDir()], withKey(emu.demoKey, stopped.url));
        expect(nothing).toMatchObject({ code: 1, stderr: expect.stringContaining("nothing listens there; check the base URL (VAST_URL; https://console.vast.ai by default)") });

        emu.faults.add({ method: "GET", path: "/api/v0/users/current/", fault: { kind: "notFoundPage", shape: "html" } });
        const notTheApi = await cli(["export-templates", "--out", freshDir()], withKey(emu.demoKey));
        expect(notTheApi).toMatchObject({ code: 1, stderr: expect.stringContaining("this is not the API's own answer; check VAST_URL") });

        for (const result of [refused, fromFile, scoped, nothing, notTheApi]) expect(result.stderr).not.toMatch(/vastai:(apiKey|baseUrl)/);
    });

    it("--id exports one template; another user's public template is refused by id", async () => {
        const mine = [...emu.model.templates.values()].find((t) => t.creator_id === emu.demoUser.id && t.fields.private === false)!;
        const theirs = [...emu.model.templates.values()].find((t) => t.creator_id === emu.otherUser.id && t.fields.private === false)!;
        const out = freshDir();
        expect((await cli(["export-templates", "--out", out, "--id", String(mine.id)], env)).code).toBe(0);
        expect(fs.readdirSync(out)).toEqual(["shared-notebook.yaml"]);
        const refused = await cli(["export-templates", "--out", freshDir(), "--id", String(theirs.id)], env);
        expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining(`the account has no template ${theirs.id} of its own`) });
    });
});
