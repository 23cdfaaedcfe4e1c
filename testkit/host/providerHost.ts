import { ChildProcess, spawn } from "child_process";
import { createRequire } from "module";
import * as path from "path";
import * as readline from "readline";
import { REPO_ROOT } from "../repoRoot";

/**
 * Drives Pulumi's own dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, as
 * the Pulumi engine does during `pulumi up`: the host is a separate process started in the project
 * directory, it deserializes the `__provider` text it is sent and runs the provider's methods.
 * The Pulumi CLI cannot be installed here; this is the part of it a dynamic provider meets.
 */

// Everything comes from the copies @pulumi/pulumi itself resolves, as in a real program.
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
const grpc = pulumiRequire("@grpc/grpc-js");
const providerGrpc = pulumiRequire("./proto/provider_grpc_pb");
const providerPb = pulumiRequire("./proto/provider_pb");
const statusPb = pulumiRequire("./proto/status_pb");
const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb");
const emptyPb = pulumiRequire("google-protobuf/google/protobuf/empty_pb");
const HOST_ENTRY = pulumiRequire.resolve("./cmd/dynamic-provider");
/** The provider plugin, built: what `pulumi-resource-vastai` runs with the user's node. */
const PLUGIN_ENTRY = path.join(REPO_ROOT, "dist", "provider", "plugin", "main.js");
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

const WATCHDOG = path.join(REPO_ROOT, "testkit", "host", "watchdog.js");
/** The script the Pulumi CLI starts for dynamic providers: a shell that runs the host with node, without exec. */
const PULUMI_NODEJS_PLUGIN = pulumiRequire.resolve("./pulumi-resource-pulumi-nodejs");
/** A process standing for the engine: it runs the plugin script as the CLI does, and waits for it. */
const ENGINE_STAND_IN =
    `const plugin = require("child_process").spawn(process.argv[1], process.argv.slice(2), { stdio: "inherit", detached: true }); ` +
    `process.send(plugin.pid); plugin.on("exit", (code) => process.exit(code ?? 1));`;


/** What the engine sends for a value not known yet (during preview): the SDK's own sentinel. */
export const UNKNOWN: string = pulumiRequire("./runtime/rpc").unknownValue;

export type Props = Record<string, unknown>;

export interface CheckResult {
    inputs: Props;
    failures: Array<{ property: string; reason: string }>;
}

export interface DiffResult {
    changes: "unknown" | "none" | "some";
    replaces: string[];
    deleteBeforeReplace: boolean;
    /** Per property, `UPDATE`, `UPDATE_REPLACE`, …: only the plugin sends one (the dynamic host never does). */
    detailedDiff?: Record<string, string>;
}

export interface ReadResult {
    id: string;
    properties: Props;
    inputs?: Props;
}

/** A failed call: the host's message, and for a create or update the init-failure details if sent. */
export class HostCallError extends Error {
    constructor(
        message: string,
        readonly initFailure?: { id: string; properties: Props; reasons: string[] },
    ) {
        super(message);
        this.name = "HostCallError";
    }
}

export interface HostOptions {
    /** The directory the host runs in: the Pulumi project directory. Default: this repository. */
    cwd?: string;
    /** Extra environment; VAST_* variables of the test process are not passed on unless given here. */
    env?: Record<string, string | undefined>;
    project?: string;
    stack?: string;
    /**
     * Started as the Pulumi CLI starts it: a process standing for the engine runs Pulumi's own
     * plugin script, a shell that runs the host. `killEngine` then kills that process alone, as a
     * CLI killed outright (kill -9, out of memory) leaves its plugins' process group running.
     */
    viaEngine?: boolean;
    /**
     * The provider plugin `pulumi-resource-vastai` instead of the dynamic-provider host: started as
     * the engine starts a resource plugin, configured with the provider's inputs (`apiKey`,
     * `baseUrl`) as the engine sends a default provider's, from the same stack config.
     */
    plugin?: boolean;
}

export class ProviderHost {
    /** Every line the host printed after its port: what a user would see during `pulumi up`. */
    readonly output: string[] = [];
    /** The process group of the plugin script and the host, when started `viaEngine`. */
    private pluginGroup?: number;
    private constructor(
        private readonly child: ChildProcess,
        private readonly client: any,
        readonly project: string,
        readonly stack: string,
        /** The provider plugin, not the dynamic-provider host (see `HostOptions.plugin`). */
        readonly plugin: boolean,
    ) {}

    static async start(options: HostOptions = {}): Promise<ProviderHost> {
        const project = options.project ?? "vastai-test";
        const stack = options.stack ?? "test";
        const env: Record<string, string | undefined> = { ...process.env };
        for (const name of Object.keys(env)) if (name.startsWith("VAST_")) delete env[name];
        Object.assign(env, { PULUMI_PROJECT: project, PULUMI_NODEJS_PROJECT: project, PULUMI_NODEJS_STACK: stack }, options.env);

        // Through the engine's stand-in, the watchdog comes with NODE_OPTIONS (the script starts node
        // twice; it acts in the host only), and watches this process itself: the host's stdin closes with the stand-in.
        if (options.viaEngine) Object.assign(env, { NODE_OPTIONS: `${env.NODE_OPTIONS ?? ""} --require ${WATCHDOG}`, VASTAI_WATCHDOG_PID: String(process.pid) });
        const entry = options.plugin ? PLUGIN_ENTRY : HOST_ENTRY;
        const args = options.viaEngine ? ["-e", ENGINE_STAND_IN, PULUMI_NODEJS_PLUGIN, "127.0.0.1:0"] : ["--require", WATCHDOG, entry, "127.0.0.1:0"];
        const child = spawn(process.execPath, args, {
            cwd: options.cwd ?? REPO_ROOT,
            env: env as NodeJS.ProcessEnv,
            stdio: options.viaEngine ? ["pipe", "pipe", "pipe", "ipc"] : ["pipe", "pipe", "pipe"],
        });
        // The plugin's process group (its own, as the CLI starts plugins), for `stop` once the stand-in is gone.
        const pluginGroup = options.viaEngine ? new Promise<number>((resolve) => child.once("message", (pid) => resolve(Number(pid)))) : undefined;
        // Both streams, in the order they arrive: progress on stdout, warnings and the host's own
        // error dumps on stderr. Lines go here until the host exists, then to `host.output`.
        let output: string[] = [];
        const port = await new Promise<number>((resolve, reject) => {
            let first = true;
            readline.createInterface({ input: child.stdout! }).on("line", (line) => {
                if (first) {
                    first = false;
                    resolve(Number(line.trim()));
                } else {
                    output.push(line);
                }
            });
            readline.createInterface({ input: child.stderr! }).on("line", (line) => output.push(line));
            child.once("exit", (code) => reject(new Error(`provider host exited with ${code}: ${output.join("\n")}`)));
        });
        const client = new providerGrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
        const host = new ProviderHost(child, client, project, stack, options.plugin === true);
        host.pluginGroup = await pluginGroup;
        host.output.push(...output);
        output = host.output;
        return host;
    }

    /** The host process's id (a benchmark reads its peak memory from /proc). */
    get pid(): number | undefined {
        return this.child.pid;
    }

    /** The URN the engine would give a resource of `type` named `name`. */
    urn(type: string, name: string): string {
        return `urn:pulumi:${this.stack}::${this.project}::${type}::${name}`;
    }

    /**
     * Configure: the whole stack config, keys namespaced (`vastai:apiKey`), secrets decrypted, as
     * the engine sends it to the dynamic-provider host. The plugin gets what the engine sends a
     * default provider: its inputs from the `vastai:` keys, checked first (CheckConfig), the key as a secret.
     */
    async configure(config: Record<string, string> = {}): Promise<void> {
        if (this.plugin) return this.configurePlugin(config);
        const req = new providerPb.ConfigureRequest();
        req.setArgs(Struct.fromJavaScript(config));
        for (const [k, v] of Object.entries(config)) req.getVariablesMap().set(k, v);
        req.setAcceptsecrets(true);
        req.setAcceptresources(true);
        await this.call("configure", req);
    }

    private async configurePlugin(config: Record<string, string>): Promise<void> {
        const inputs = Object.fromEntries(Object.entries(config).filter(([k]) => k.startsWith("vastai:")).map(([k, v]) => [k.slice("vastai:".length), v]));
        const checked = await this.checkConfig(inputs);
        if (checked.failures.length > 0) throw new HostCallError(`CheckConfig failed: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
        const req = new providerPb.ConfigureRequest();
        const args = { ...checked.inputs, ...(typeof inputs.apiKey === "string" ? { apiKey: { ...SECRET_SIG, value: inputs.apiKey } } : {}) };
        req.setArgs(Struct.fromJavaScript(args));
        for (const [k, v] of Object.entries(inputs)) req.getVariablesMap().set(`vastai:config:${k}`, v);
        req.setAcceptsecrets(true);
        req.setAcceptresources(true);
        await this.call("configure", req);
    }

    /** CheckConfig: the provider's inputs, as the engine checks a provider resource's before configuring it. */
    checkConfig(news: Props, olds: Props = {}): Promise<CheckResult> {
        return this.checkCall("checkConfig", this.urn("pulumi:providers:vastai", "default"), olds, news);
    }

    /** GetSchema: the package schema's text. */
    async getSchema(): Promise<string> {
        return (await this.call("getSchema", new providerPb.GetSchemaRequest())).getSchema();
    }

    /** GetPluginInfo: the plugin's version. */
    async getPluginInfo(): Promise<string> {
        return (await this.call("getPluginInfo", new emptyPb.Empty())).getVersion();
    }

    /** Invoke: a function by its token, as a program in any language calls one. */
    async invoke(token: string, args: Props = {}): Promise<Props> {
        const req = new providerPb.InvokeRequest();
        req.setTok(token);
        req.setArgs(Struct.fromJavaScript(args));
        const resp = await this.call("invoke", req);
        return resp.getReturn()?.toJavaScript() ?? {};
    }

    check(urn: string, olds: Props, news: Props): Promise<CheckResult> {
        return this.checkCall("check", urn, olds, news);
    }

    private async checkCall(method: "check" | "checkConfig", urn: string, olds: Props, news: Props): Promise<CheckResult> {
        const req = new providerPb.CheckRequest();
        req.setUrn(urn);
        req.setOlds(Struct.fromJavaScript(olds));
        req.setNews(Struct.fromJavaScript(news));
        const resp = await this.call(method, req);
        return {
            inputs: resp.getInputs()?.toJavaScript() ?? {},
            failures: resp.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
        };
    }

    /** Diff: state's outputs (`olds`) against the checked inputs, and state's inputs beside them, as the engine sends them. */
    async diff(id: string, urn: string, olds: Props, news: Props, oldInputs?: Props): Promise<DiffResult> {
        const req = new providerPb.DiffRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setOlds(Struct.fromJavaScript(olds));
        req.setNews(Struct.fromJavaScript(news));
        if (oldInputs) req.setOldInputs(Struct.fromJavaScript(oldInputs));
        const resp = await this.call("diff", req);
        const changes = ["unknown", "none", "some"][resp.getChanges()] as DiffResult["changes"];
        const result: DiffResult = { changes, replaces: resp.getReplacesList(), deleteBeforeReplace: resp.getDeletebeforereplace() };
        if (resp.getHasdetaileddiff()) {
            const kinds = Object.fromEntries(Object.entries(providerPb.PropertyDiff.Kind).map(([name, value]) => [value, name]));
            const detailed: Record<string, string> = {};
            resp.getDetaileddiffMap().forEach((d: any, k: string) => (detailed[k] = kinds[d.getKind()] as string));
            result.detailedDiff = detailed;
        }
        return result;
    }

    async create(urn: string, properties: Props, preview = false): Promise<{ id: string; properties: Props }> {
        const req = new providerPb.CreateRequest();
        req.setUrn(urn);
        req.setProperties(Struct.fromJavaScript(properties));
        req.setPreview(preview);
        const resp = await this.call("create", req);
        return { id: resp.getId(), properties: resp.getProperties()?.toJavaScript() ?? {} };
    }

    async read(id: string, urn: string, properties: Props, inputs?: Props): Promise<ReadResult> {
        const req = new providerPb.ReadRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setProperties(Struct.fromJavaScript(properties));
        if (inputs) req.setInputs(Struct.fromJavaScript(inputs));
        const resp = await this.call("read", req);
        return {
            id: resp.getId(),
            properties: resp.getProperties()?.toJavaScript() ?? {},
            inputs: resp.getInputs()?.toJavaScript(),
        };
    }

    async update(id: string, urn: string, olds: Props, news: Props, oldInputs?: Props): Promise<{ properties: Props }> {
        const req = new providerPb.UpdateRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setOlds(Struct.fromJavaScript(olds));
        req.setNews(Struct.fromJavaScript(news));
        if (oldInputs) req.setOldInputs(Struct.fromJavaScript(oldInputs));
        const resp = await this.call("update", req);
        return { properties: resp.getProperties()?.toJavaScript() ?? {} };
    }

    async delete(id: string, urn: string, properties: Props): Promise<void> {
        const req = new providerPb.DeleteRequest();
        req.setId(id);
        req.setUrn(urn);
        req.setProperties(Struct.fromJavaScript(properties));
        await this.call("delete", req);
    }

    /** Kills the host at once, as a second Ctrl-C or a cancelled CI job does: whatever it was doing is cut short. */
    kill(): Promise<void> {
        return this.stop("SIGKILL");
    }

    /**
     * Kills the engine's stand-in alone (a host started `viaEngine`): the host runs on, its parent
     * shell still there, as after a CLI killed outright. `stop` ends the host afterwards.
     */
    async killEngine(): Promise<void> {
        const exited = new Promise((resolve) => this.child.once("exit", resolve));
        this.child.kill("SIGKILL");
        await exited;
    }

    /** Ends the host, as the engine does at the end of a command. */
    async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
        this.client.close();
        if (this.pluginGroup !== undefined) {
            // The host and its shell, whether or not the engine's stand-in is still there; done once none of them holds the output.
            const closed = this.child.stdout!.closed ? Promise.resolve() : new Promise((resolve) => this.child.stdout!.once("close", resolve));
            try {
                process.kill(-this.pluginGroup, signal);
            } catch {
                // Already gone.
            }
            if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
            await closed;
            return;
        }
        if (this.child.exitCode !== null || this.child.signalCode !== null) return;
        const exited = new Promise((resolve) => this.child.once("exit", resolve));
        this.child.kill(signal);
        await exited;
    }

    private call(method: string, req: unknown): Promise<any> {
        return new Promise((resolve, reject) => {
            this.client[method](req, (err: any, resp: any) => {
                if (err) reject(hostError(err));
                else resolve(resp);
            });
        });
    }
}

/** Unpacks `ErrorResourceInitFailed` from the status details, as the engine does. */
function hostError(err: any): HostCallError {
    const message: string = err.details ?? err.message;
    const raw = err.metadata?.get?.("grpc-status-details-bin")?.[0];
    if (raw) {
        const status = statusPb.Status.deserializeBinary(raw);
        for (const detail of status.getDetailsList()) {
            if (detail.getTypeName() === "pulumirpc.ErrorResourceInitFailed") {
                const failed = providerPb.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
                return new HostCallError(message, {
                    id: failed.getId(),
                    properties: failed.getProperties()?.toJavaScript() ?? {},
                    reasons: failed.getReasonsList(),
                });
            }
        }
    }
    return new HostCallError(message);
}
