import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import { createRequire } from "module";
import * as path from "path";
import * as readline from "readline";
import { REPO_ROOT } from "../repoRoot";
import { EnforcementLevel, PolicyConfig, PolicyInfo, parsePolicyPackConfig, reconcilePolicyPackConfig } from "./policyConfig";

/**
 * Starts a Node.js policy pack as the Pulumi CLI does for `pulumi preview --policy-pack DIR`
 * (NewPolicyAnalyzer, the `pulumi-analyzer-policy` script): `@pulumi/pulumi/cmd/run-policy-pack`,
 * resolved from the pack's directory, run with node in that directory with the engine's address
 * and `.`; the pack serves Pulumi's Analyzer over gRPC and prints its port. Then, as the CLI:
 * `GetAnalyzerInfo`, the `--policy-pack-config` file reconciled with the policies' schemas and
 * sent in `Configure`, and `Analyze` / `AnalyzeStack` with properties marshalled as the engine
 * does (secrets kept, unknowns as the SDK's sentinel, top-level `__` keys dropped).
 */
const WATCHDOG = path.join(REPO_ROOT, "testkit", "host", "watchdog.js");
const SECRET_SIG = { key: "4dabf18193072939515e22adb298388d", value: "1b47061264138c4ac30d75fd1eb44270" };

export interface PolicyDiagnostic {
    policyName: string;
    message: string;
    enforcementLevel: EnforcementLevel;
    urn: string;
}

/** A resource as the engine hands it to analyzers: `props` the checked inputs (`Analyze`) or the outputs (`AnalyzeStack`). */
export interface AnalyzedResource {
    urn: string;
    type: string;
    name: string;
    props: Record<string, unknown>;
    /** Top-level properties the engine holds as secrets. */
    secrets?: string[];
}

export interface PolicyPackOptions {
    /** The directory holding `PulumiPolicy.yaml` (and, through its `package.json`, the pack's code). */
    packDir: string;
    /** A `--policy-pack-config` file. */
    configFile?: string;
    project?: string;
    stack?: string;
    dryRun?: boolean;
}

export class PolicyPackHost {
    private constructor(
        private readonly child: ChildProcess,
        private readonly client: any,
        private readonly pb: any,
        private readonly Struct: any,
        /** The pack as the CLI names it: `vastai-guardrails@v0.1.0`. */
        readonly pack: string,
        readonly policies: PolicyInfo[],
        /** The pack's own config (`new PolicyPack`'s third argument), which a config file overrides. */
        private readonly initialConfig: Record<string, { enforcementLevel?: EnforcementLevel; properties: Record<string, unknown> }>,
        readonly output: string[],
        private readonly levels: Record<number, EnforcementLevel>,
    ) {}

    static async start(options: PolicyPackOptions): Promise<PolicyPackHost> {
        if (!fs.existsSync(path.join(options.packDir, "PulumiPolicy.yaml"))) throw new Error(`no PulumiPolicy.yaml in ${options.packDir}`);
        // What the pack resolves is what the CLI's script resolves: from the pack's directory up.
        const packRequire = createRequire(path.join(options.packDir, "PulumiPolicy.yaml"));
        const runPolicyPack = packRequire.resolve("@pulumi/pulumi/cmd/run-policy-pack");
        const pulumiRequire = createRequire(packRequire.resolve("@pulumi/pulumi"));
        const grpc = pulumiRequire("@grpc/grpc-js");
        const analyzerGrpc = pulumiRequire("./proto/analyzer_grpc_pb");
        const pb = pulumiRequire("./proto/analyzer_pb");
        const { Struct } = pulumiRequire("google-protobuf/google/protobuf/struct_pb");
        const { Empty } = pulumiRequire("google-protobuf/google/protobuf/empty_pb");

        const project = options.project ?? "vastai-test";
        const stack = options.stack ?? "test";
        const dryRun = String(options.dryRun ?? true);
        const env = { ...process.env, PULUMI_NODEJS_PROJECT: project, PULUMI_NODEJS_STACK: stack, PULUMI_NODEJS_DRY_RUN: dryRun, PULUMI_PROJECT: project, PULUMI_STACK: stack, PULUMI_DRY_RUN: dryRun };
        const child = spawn(process.execPath, ["--require", WATCHDOG, runPolicyPack, "127.0.0.1:0", "."], { cwd: options.packDir, env, stdio: ["pipe", "pipe", "pipe"] });
        const output: string[] = [];
        const port = await new Promise<number>((resolve, reject) => {
            let first = true;
            readline.createInterface({ input: child.stdout! }).on("line", (line) => {
                if (first && /^\d+$/.test(line.trim())) {
                    first = false;
                    resolve(Number(line.trim()));
                } else output.push(line);
            });
            readline.createInterface({ input: child.stderr! }).on("line", (line) => output.push(line));
            child.once("exit", (code) => reject(new Error(`policy pack exited with ${code}:\n${output.join("\n")}`)));
        });
        const client = new analyzerGrpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
        const info = await new Promise<any>((resolve, reject) => client.getAnalyzerInfo(new Empty(), (err: Error | null, resp: unknown) => (err ? reject(err) : resolve(resp))));
        const levels = Object.fromEntries(Object.entries(pb.EnforcementLevel).map(([k, v]) => [v, k.toLowerCase()])) as Record<number, EnforcementLevel>;
        const policies: PolicyInfo[] = info.getPoliciesList().map((p: any) => {
            const schema = p.getConfigschema();
            return {
                name: p.getName(),
                enforcementLevel: levels[p.getEnforcementlevel()],
                configSchema: schema ? { properties: schema.getProperties()?.toJavaScript() ?? {}, required: schema.getRequiredList() } : undefined,
            };
        });
        const initial: Record<string, { enforcementLevel?: EnforcementLevel; properties: Record<string, unknown> }> = {};
        info.getInitialconfigMap().forEach((c: any, name: string) => {
            initial[name] = { enforcementLevel: levels[c.getEnforcementlevel()], properties: c.getProperties()?.toJavaScript() ?? {} };
        });
        const host = new PolicyPackHost(child, client, pb, Struct, `${info.getName()}@v${info.getVersion()}`, policies, initial, output, levels);
        await host.configure(options.configFile);
        return host;
    }

    /**
     * What the CLI does with `--policy-pack-config FILE` (none: the schemas' defaults): reconciles it
     * with the policies' schemas and sends the result in `Configure`, which replaces all config.
     */
    async configure(configFile?: string): Promise<void> {
        const file = configFile ? parsePolicyPackConfig(fs.readFileSync(configFile, "utf8")) : {};
        this.config = reconcilePolicyPackConfig(this.policies, this.initialConfig, file);
        const req = new this.pb.ConfigureAnalyzerRequest();
        for (const [name, c] of Object.entries(this.config)) {
            const pc = new this.pb.PolicyConfig();
            pc.setEnforcementlevel(this.pb.EnforcementLevel[c.enforcementLevel.toUpperCase()]);
            pc.setProperties(this.Struct.fromJavaScript(c.properties));
            req.getPolicyconfigMap().set(name, pc);
        }
        await this.call("configure", req);
    }

    /** The configuration last sent. */
    config: PolicyConfig = {};

    /** `Analyze`: one resource, before its step. */
    async analyze(r: AnalyzedResource): Promise<PolicyDiagnostic[]> {
        const req = new this.pb.AnalyzeRequest();
        req.setUrn(r.urn);
        req.setType(r.type);
        req.setName(r.name);
        req.setProperties(this.marshal(r));
        req.setOptions(this.options());
        // The engine files a resource policy's diagnostics under the resource analyzed.
        return this.diagnostics(await this.call("analyze", req)).map((d) => ({ ...d, urn: d.urn || r.urn }));
    }

    /** `AnalyzeStack`: every resource of the stack, after a preview or an update. */
    async analyzeStack(resources: AnalyzedResource[]): Promise<PolicyDiagnostic[]> {
        const req = new this.pb.AnalyzeStackRequest();
        req.setResourcesList(
            resources.map((r) => {
                const resource = new this.pb.AnalyzerResource();
                resource.setUrn(r.urn);
                resource.setType(r.type);
                resource.setName(r.name);
                resource.setProperties(this.marshal(r));
                resource.setOptions(this.options());
                return resource;
            }),
        );
        return this.diagnostics(await this.call("analyzeStack", req));
    }

    /** Ends the pack's process, as the CLI does when the command ends. */
    async stop(): Promise<void> {
        if (this.child.exitCode !== null) return;
        await new Promise<void>((resolve) => {
            this.child.once("exit", () => resolve());
            this.child.kill();
        });
    }

    /** The resource options the engine always sends (marshalResourceOptions): a program of this kind sets none. */
    private options(): unknown {
        const options = new this.pb.AnalyzerResourceOptions();
        const timeouts = new this.pb.AnalyzerResourceOptions.CustomTimeouts();
        options.setCustomtimeouts(timeouts);
        return options;
    }

    private marshal(r: AnalyzedResource): unknown {
        const props: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(r.props)) {
            if (k.startsWith("__") || v === undefined) continue;
            props[k] = r.secrets?.includes(k) ? { [SECRET_SIG.key]: SECRET_SIG.value, value: v } : v;
        }
        return this.Struct.fromJavaScript(props);
    }

    private diagnostics(resp: any): PolicyDiagnostic[] {
        return resp.getDiagnosticsList().map((d: any) => ({
            policyName: d.getPolicyname(),
            message: d.getMessage(),
            enforcementLevel: this.levels[d.getEnforcementlevel()],
            urn: d.getUrn(),
        }));
    }

    private call(method: string, req: unknown): Promise<any> {
        return new Promise((resolve, reject) => this.client[method](req, (err: Error | null, resp: unknown) => (err ? reject(err) : resolve(resp))));
    }
}
