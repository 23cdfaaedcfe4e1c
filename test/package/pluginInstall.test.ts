import { ChildProcess, execFileSync, spawn } from "child_process";
import * as fs from "fs";
import { createRequire } from "module";
import * as os from "os";
import * as path from "path";
import * as readline from "readline";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { installPacked, linkFromRepository, packCheckout, run } from "./packedPackage";

/**
 * The provider plugin installed the two ways a user installs it, and started as the Pulumi engine
 * starts a plugin: its executable `pulumi-resource-vastai`, the engine's address as argument, in the
 * program's directory. Its first stdout line is the port it serves ResourceProvider on.
 *
 * - The plugin tarball (`npm run plugin-tarball`), unpacked where `pulumi plugin install resource
 *   vastai <version> --file <tarball>` unpacks it: `~/.pulumi/plugins/resource-vastai-v<version>/`.
 *   Outside this repository, so it runs on what it ships.
 * - The npm package, from its own `npm pack`: `node_modules/.bin/pulumi-resource-vastai`.
 *
 * Both answer GetSchema with the committed schema.json and GetPluginInfo with package.json's
 * version, on the Node the launcher chose: PULUMI_VASTAI_NODE when set (CI sets it to Node 22),
 * else `node` on PATH. Layout and reasons: docs/design/provider-plugin-install.md.
 */
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js");
const providerGrpc = pulumiRequire("./proto/provider_grpc_pb");
const providerPb = pulumiRequire("./proto/provider_pb");
const { Empty } = pulumiRequire("google-protobuf/google/protobuf/empty_pb");

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
const SCHEMA = path.join(REPO_ROOT, "schema.json");

/** A started plugin: its process, and a client on the port it printed. */
interface StartedPlugin {
    child: ChildProcess;
    client: any;
    /** What it printed on stderr, for a failure's message. */
    stderr: string[];
}

const started: StartedPlugin[] = [];

/** Starts `executable` as the engine does: the engine's address as its argument, `cwd` the program's directory. */
async function startPlugin(executable: string, cwd: string, home: string): Promise<StartedPlugin> {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete env.NODE_PATH; // resolution from the plugin's own files only
    const child = spawn(executable, ["127.0.0.1:0"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    const plugin: StartedPlugin = { child, client: undefined, stderr: [] };
    started.push(plugin);
    readline.createInterface({ input: child.stderr! }).on("line", (line) => plugin.stderr.push(line));
    const port = await new Promise<number>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once("line", (line) => resolve(Number(line.trim())));
        child.once("error", reject);
        child.once("exit", (code, signal) => reject(new Error(`${executable} exited (${code ?? signal}) before printing its port:\n${plugin.stderr.join("\n")}`)));
    });
    expect(port).toBeGreaterThan(0);
    plugin.client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return plugin;
}

function call<T>(client: any, method: string, request: unknown): Promise<T> {
    return new Promise((resolve, reject) => client[method](request, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))));
}

/** The Node binary the launcher should run: PULUMI_VASTAI_NODE's, else the first `node` on PATH. */
function expectedNode(): string {
    const named = process.env.PULUMI_VASTAI_NODE || execFileSync("sh", ["-c", "command -v node"], { encoding: "utf8" }).trim();
    return fs.realpathSync(named);
}

/** GetSchema is the committed schema.json, byte for byte; GetPluginInfo's version is package.json's; the process is that Node. */
async function expectServesThePackage(plugin: StartedPlugin): Promise<void> {
    const schema = await call<any>(plugin.client, "getSchema", new providerPb.GetSchemaRequest());
    expect(schema.getSchema()).toBe(fs.readFileSync(SCHEMA, "utf8"));
    const info = await call<any>(plugin.client, "getPluginInfo", new Empty());
    expect(info.getVersion()).toBe(manifest.version);
    // The launcher execs node, so the process the engine started is node itself (Linux shows which).
    if (fs.existsSync(`/proc/${plugin.child.pid}/exe`)) expect(fs.realpathSync(`/proc/${plugin.child.pid}/exe`)).toBe(expectedNode());
}

async function stopAll(): Promise<void> {
    for (const plugin of started.splice(0)) {
        plugin.client?.close();
        if (plugin.child.exitCode !== null || plugin.child.signalCode !== null) continue;
        const exited = new Promise((resolve) => plugin.child.once("exit", resolve));
        plugin.child.kill("SIGKILL");
        await exited;
    }
}

/** The entries of a .tar.gz as `tar -tv` lists them: type (`-` file, `d` directory, …), mode and path. */
function tarEntries(tarball: string): Array<{ type: string; mode: string; name: string }> {
    const lines = (args: string[]) => run("tar", [...args, tarball], REPO_ROOT).split("\n").filter(Boolean);
    const names = lines(["-tzf"]);
    return lines(["-tvzf"]).map((line, i) => ({ type: line[0], mode: line.slice(1, 10), name: names[i] }));
}

describe("the provider plugin, installed as users install it", () => {
    let tmp: string;
    beforeAll(() => {
        tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-plugin-install-"));
    });
    afterEach(stopAll);
    afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

    it("from the plugin tarball, unpacked as `pulumi plugin install --file` unpacks it", async () => {
        const out = path.join(tmp, "tarball");
        const printed = run(process.execPath, [path.join(REPO_ROOT, "scripts", "pluginTarball.js"), "--out", out, "--os", "linux", "--arch", "amd64"], REPO_ROOT);
        const tarball = path.join(out, `pulumi-resource-vastai-v${manifest.version}-linux-amd64.tar.gz`);
        expect(printed).toContain(tarball);

        // Pulumi's extractor takes files, directories and symlinks only; this one has no symlinks, and
        // no PulumiPlugin.yaml (which would make `plugin install` run npm install in the plugin's directory).
        const entries = tarEntries(tarball);
        expect([...new Set(entries.map((e) => e.type))].sort()).toEqual(["-", "d"]);
        expect([...new Set(entries.map((e) => e.name.split("/")[0]))].sort()).toEqual(
            ["LICENSE", "dist", "node_modules", "package.json", "pulumi-resource-vastai", "schema.json"],
        );
        expect(entries.find((e) => e.name === "pulumi-resource-vastai")!.mode).toMatch(/^rwx/);
        expect(entries.some((e) => e.name.startsWith("node_modules/@pulumi/pulumi/proto/"))).toBe(true);
        expect(entries.some((e) => /(^|\/)node_modules\/\.bin\//.test(e.name))).toBe(false);

        const home = path.join(tmp, "home");
        const pluginDir = path.join(home, ".pulumi", "plugins", `resource-vastai-v${manifest.version}`);
        fs.mkdirSync(pluginDir, { recursive: true });
        run("tar", ["-xzf", tarball, "-C", pluginDir], REPO_ROOT);
        const program = path.join(tmp, "tarball-program");
        fs.mkdirSync(program);

        await expectServesThePackage(await startPlugin(path.join(pluginDir, "pulumi-resource-vastai"), program, home));
    }, 60_000);

    it("from the npm package: node_modules/.bin/pulumi-resource-vastai", async () => {
        const packed = packCheckout(tmp);
        expect(packed.files).toEqual(expect.arrayContaining([manifest.bin["pulumi-resource-vastai"], "schema.json", "dist/provider/plugin/main.js"]));
        const program = path.join(tmp, "npm-program");
        installPacked(program, packed.tarball);
        // What a Node program installs beside the package (its peer dependency), and what the plugin's gRPC stubs come from.
        linkFromRepository(program, path.join("@pulumi", "pulumi"));
        const launcher = path.join(program, "node_modules", ".bin", "pulumi-resource-vastai");
        expect(fs.lstatSync(launcher).isSymbolicLink()).toBe(true);

        const home = path.join(tmp, "npm-home");
        fs.mkdirSync(home);
        await expectServesThePackage(await startPlugin(launcher, program, home));
    }, 120_000);
});
