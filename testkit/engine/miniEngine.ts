import * as os from "os";
import * as pulumi from "@pulumi/pulumi";
import { CheckResult, DiffResult, HostCallError, ProviderHost, Props, UNKNOWN } from "../host/providerHost";
import { noteSecretOutputs } from "../host/programMocks";
import { AnalyzedResource, PolicyDiagnostic, PolicyPackHost } from "../policy/policyPackHost";

/**
 * A small stand-in for the Pulumi engine's `up`, `refresh` and `destroy`, for tests and the demo.
 * The program runs under the SDK's mock monitor, whose `newResource` performs each step against
 * Pulumi's real dynamic-provider host (check, then create, or diff and update or replace), so
 * resources that depend on others' outputs see real values. State is kept in memory.
 *
 * After every successful `up` it plans again and fails if that plan is not empty, as
 * terraform-plugin-testing does: a provider whose next plan shows changes would make every
 * `pulumi up` of its users show them too, and no test should have to remember to look.
 */
export interface StateEntry {
    urn: string;
    type: string;
    name: string;
    id: string;
    /** Inputs after check, as the engine records them. */
    inputs: Props;
    outputs: Props;
    /** Output keys the engine stores encrypted: inputs given as secrets, and `additionalSecretOutputs`. */
    secretOutputs: string[];
    /** Created, but its create failed (an init failure): the next `up` updates it even without a diff. */
    initFailed?: boolean;
    /** The explicit provider that manages it (`urn::id`), when the program gave one. */
    provider?: string;
}

/** An explicit provider resource (`pulumi:providers:vastai`), as state keeps it: its inputs, from which the engine starts it again. */
export interface ProviderEntry {
    urn: string;
    name: string;
    inputs: Props;
}

/** What a step did, by resource name, as the CLI sums it up; `refresh` and `destroy` in `run` use it too. */
export interface UpSummary {
    create: string[];
    /** Imported (the `import` resource option): read by id into state, nothing made. */
    import: string[];
    update: string[];
    replace: Array<{ name: string; because: string[] }>;
    delete: string[];
    same: string[];
}

/** What `pulumi preview` lists for one resource. */
export interface PlannedStep {
    op: "create" | "import" | "update" | "replace" | "delete" | "same";
    name: string;
    type: string;
    /** The properties that cause it: a replacement's (the provider's `replaces`), an update's changed inputs. */
    because: string[];
}

/** One resource's step as it finished during `up` or `destroy`, for a live view of the run. */
export interface StepEvent extends PlannedStep {
    ms: number;
}

/** What a program returns: the resources whose steps the engine waits for. */
export type Program = () => pulumi.Resource | pulumi.Resource[] | Record<string, pulumi.Resource> | void;

export interface UpOptions {
    /** The plan after this `up` may show changes: skip the empty-plan check, for the rare test that wants them. */
    expectChanges?: boolean;
    /** Resources to replace whatever their diff says, as `pulumi up --replace <urn>` (by name): the engine then calls no diff. */
    replace?: string[];
    /**
     * Resources to import rather than create, by name, each with the id of what exists: the `import`
     * resource option. A program whose inputs differ from what the read found fails the import.
     */
    import?: Record<string, string>;
}

/** One step of `run`, as a CLI command: `{ up: program }` (an edit is an `up` of the edited program), `{ refresh: true }`, `{ destroy: true }`. */
export type Step = ({ up: Program } & UpOptions) | { refresh: true } | { destroy: true };

/** A failed step's message ends with at most this many of the host's lines from that step. */
const HOST_LINES = 20;

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** Whether a value holds a secret anywhere: the engine then keeps that whole property encrypted. */
function isSecret(value: unknown): boolean {
    if (Array.isArray(value)) return value.some(isSecret);
    if (!value || typeof value !== "object") return false;
    return SECRET_SIG in (value as object) || Object.values(value as object).some(isSecret);
}

/**
 * The engine sends plain values to the host (it does not accept secrets): unwrap them. A value not
 * known yet (during a preview) goes as the engine's unknown sentinel.
 */
function unwrapSecrets(value: unknown): unknown {
    if (pulumi.isUnknown(value)) return UNKNOWN;
    if (Array.isArray(value)) return value.map(unwrapSecrets);
    if (value && typeof value === "object") {
        const obj = value as Record<string, unknown>;
        if (SECRET_SIG in obj) return unwrapSecrets(obj.value);
        return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, unwrapSecrets(v)]));
    }
    return value;
}

/**
 * A failed step fails `up` once, as the CLI reports it once. The failed resource's other outputs
 * reject too, and nothing awaits them (a real program's runtime logs them at exit); left alone they
 * would surface as unhandled rejections in whichever test runs next.
 */
function acknowledgeFailures(resource: pulumi.Resource): void {
    for (const value of Object.values(resource)) {
        if (!pulumi.Output.isInstance(value)) continue;
        const output = value as any;
        for (const settled of [output.promise(true), output.isKnown, output.isSecret, output.allResources?.()]) {
            settled?.catch?.(() => undefined);
        }
    }
}

/** Equal as JSON, whatever the order of keys: state read back need not keep the order it was written in. */
function sameJson(a: unknown, b: unknown): boolean {
    const canonical = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(canonical);
        if (value && typeof value === "object") {
            return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
        }
        return value;
    };
    return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** Pulumi's default `--parallel`: four operations per core. */
const REFRESH_PARALLELISM = 4 * os.cpus().length;

/** `work` on every item, at most `limit` at once; results in the items' order. The first failure fails the whole, once the rest have settled. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
    const results: R[] = new Array(items.length);
    let next = 0;
    const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
        while (next < items.length) {
            const i = next++;
            results[i] = await work(items[i]);
        }
    });
    const settled = await Promise.allSettled(workers);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
    return results;
}

/** Input keys whose values differ: what an update changes, as the CLI lists it. */
function changedInputs(olds: Props, news: Props): string[] {
    return [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => !sameJson(olds[k], news[k]));
}

/** What an update's plan lists: the provider's detailed diff when it sends one (the plugin), else every changed input, as the CLI shows a dynamic resource's. */
function updatedProperties(diff: { detailedDiff?: Record<string, string> }, olds: Props, news: Props): string[] {
    return diff.detailedDiff ? Object.keys(diff.detailedDiff) : changedInputs(olds, news);
}

function checkFailed(name: string, checked: CheckResult): Error {
    // A failure without a property (an unknown one, named in its reason) is shown by its reason alone.
    return new Error(`${name}: check failed: ${checked.failures.map((f) => (f.property ? `${f.property}: ${f.reason}` : f.reason)).join("; ")}`);
}

function policyViolation(what: string, mandatory: PolicyDiagnostic[]): Error {
    return new Error(`${what}: mandatory policy violations: ${mandatory.map((d) => `[${d.policyName}] ${d.message}`).join("; ")}`);
}

function emptySummary(): UpSummary {
    return { create: [], import: [], update: [], replace: [], delete: [], same: [] };
}

/** Rewrites an error's message, and the stack's copy of it, which is what a test runner prints. */
function rewriteMessage(error: Error, rewrite: (message: string) => string): void {
    const before = error.message;
    error.message = rewrite(before);
    if (error.stack) error.stack = error.stack.replace(before, error.message);
}

export class MiniEngine {
    readonly state = new Map<string, StateEntry>();
    /** Replaced resources whose delete failed: still in state, to be deleted before anything else. */
    readonly pendingDeletes: StateEntry[] = [];
    /** Every value the program registered as secret, for leak checks. */
    readonly secretInputs = new Set<string>();
    private readonly additionalSecretOutputs = new Map<string, string[]>();
    /** Called as each resource's step finishes during `up` and `destroy` (the demo prints them as they come). */
    onStep?: (event: StepEvent) => void;
    /**
     * A policy pack, as `--policy-pack`: `Analyze` with each resource's checked inputs before its
     * step, `AnalyzeStack` once every step succeeded. In an `up`, a mandatory violation fails the
     * resource before its step, or the `up` after its steps; a preview only reports.
     */
    policyPack?: PolicyPackHost;
    /** The policy pack's diagnostics from the last `preview` or `up`. */
    policyDiagnostics: PolicyDiagnostic[] = [];

    /** Explicit provider resources by reference (`urn::id`); each is run by a plugin process of its own, as the engine does. */
    readonly providers = new Map<string, ProviderEntry>();
    private readonly providerHosts = new Map<string, Promise<ProviderHost>>();

    /** `startProvider`: starts a plugin host for an explicit provider (unconfigured); without it, a program cannot declare one. */
    constructor(
        public host: ProviderHost,
        private readonly startProvider?: () => Promise<ProviderHost>,
    ) {}

    /** The host that manages resources of `provider`: the default one, or an explicit provider's own process, started and configured on first use. */
    private hostOf(provider: string | undefined): Promise<ProviderHost> {
        if (!provider) return Promise.resolve(this.host);
        let started = this.providerHosts.get(provider);
        if (!started) {
            const entry = this.providers.get(provider);
            if (!entry || !this.startProvider) return Promise.reject(new Error(`no explicit provider ${provider} (this engine starts none)`));
            const start = this.startProvider;
            started = (async () => {
                const host = await start();
                const checked = await host.checkConfig(entry.inputs);
                if (checked.failures.length > 0) throw new Error(`${entry.name}: check failed: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
                await host.configure(Object.fromEntries(Object.entries(entry.inputs).map(([k, v]) => [`vastai:${k}`, String(v)])));
                return host;
            })();
            this.providerHosts.set(provider, started);
        }
        return started;
    }

    /** Ends the explicit providers' processes, as the engine does at the end of a command. */
    async stopProviders(): Promise<void> {
        const hosts = [...this.providerHosts.values()];
        this.providerHosts.clear();
        await Promise.all(hosts.map((h) => h.then((host) => host.stop(), () => undefined)));
    }

    /** An explicit provider the program declares: kept with its inputs; its process is started when a resource needs it. */
    private registerProvider(args: pulumi.runtime.MockResourceArgs, urn: string): { id: string; state: Props } {
        const id = `${args.name}-provider`;
        this.providers.set(`${urn}::${id}`, { urn, name: args.name, inputs: unwrapSecrets(args.inputs) as Props });
        return { id, state: {} };
    }

    /**
     * Runs the next commands in `host`, as Pulumi starts a host process per command: what a
     * provider keeps per process (the listing a create looks through, the account it asked for, who holds a
     * template) starts afresh, and only state carries over.
     */
    useHost(host: ProviderHost): void {
        this.host = host;
    }

    /**
     * What `up` would do, like `pulumi preview`: each resource checked and diffed against state,
     * nothing created or changed. Outputs of resources to be created, updated or replaced are not
     * known yet, as in a real preview, so the resources that use them show what follows from that.
     */
    preview(program: Program): Promise<PlannedStep[]> {
        return this.reportingHost(async () => {
            const plan: PlannedStep[] = this.pendingDeletes.map((old) => ({ op: "delete", name: old.name, type: old.type, because: [] }));
            this.policyDiagnostics = [];
            const planned = new Map<string, AnalyzedResource>();
            const registered = await this.runProgram(program, true, async (args, urn, news) => {
                const old = this.state.get(urn);
                const host = await this.hostOf(args.provider);
                const checked = await host.check(urn, old?.inputs ?? {}, news);
                if (checked.failures.length > 0) throw checkFailed(args.name, checked);
                const secrets = Object.keys(args.inputs).filter((k) => isSecret(args.inputs[k]));
                await this.analyze({ urn, type: args.type, name: args.name, props: checked.inputs, secrets }, true);
                const step = (op: PlannedStep["op"], outputs: Props, because: string[] = []) => {
                    plan.push({ op, name: args.name, type: args.type, because });
                    planned.set(urn, { urn, type: args.type, name: args.name, props: outputs, secrets: op === "same" ? old?.secretOutputs : secrets });
                };
                if (!old) {
                    step("create", checked.inputs);
                    return { id: "", state: checked.inputs };
                }
                const diff = await host.diff(old.id, urn, old.outputs, checked.inputs, old.inputs);
                if (diff.changes === "none" && !old.initFailed) {
                    step("same", old.outputs);
                    return { id: old.id, state: old.outputs };
                }
                if (diff.replaces.length > 0) {
                    step("replace", checked.inputs, diff.replaces);
                    return { id: "", state: checked.inputs };
                }
                step("update", checked.inputs, updatedProperties(diff, old.inputs, checked.inputs));
                return { id: old.id, state: checked.inputs };
            });
            // As the engine in a preview: a dynamic resource to be made or changed shows its checked inputs as its outputs.
            await this.analyzeStack([...planned.values()], true);
            for (const entry of [...this.state.values()].reverse()) {
                if (!registered.has(entry.urn)) plan.push({ op: "delete", name: entry.name, type: entry.type, because: [] });
            }
            return plan;
        });
    }

    /**
     * Runs the program and makes the world match it, like `pulumi up`; then plans again and fails,
     * naming them, if any resource would change (unless `expectChanges`).
     */
    up(program: Program, options: UpOptions = {}): Promise<UpSummary> {
        return this.reportingHost(async () => {
            this.policyDiagnostics = [];
            const { summary, stepped } = await this.applyProgram(program, options.replace ?? [], options.import ?? {});
            await this.analyzeStack(
                [...this.state.values()].map((e) => ({ urn: e.urn, type: e.type, name: e.name, props: e.outputs, secrets: e.secretOutputs })),
                false,
            );
            if (!options.expectChanges) await this.expectEmptyPlan(stepped);
            return summary;
        });
    }

    /** Runs `steps` in order, each as its CLI command would, and returns each step's summary. */
    async run(steps: Step[]): Promise<UpSummary[]> {
        const summaries: UpSummary[] = [];
        for (const [i, step] of steps.entries()) {
            const kind = "up" in step ? "up" : "refresh" in step ? "refresh" : "destroy";
            try {
                if ("up" in step) summaries.push(await this.up(step.up, step));
                else if ("refresh" in step) summaries.push(await this.refresh());
                else summaries.push({ ...emptySummary(), delete: await this.destroy() });
            } catch (e) {
                if (e instanceof Error) rewriteMessage(e, (m) => `step ${i + 1} (${kind}): ${m}`);
                throw e;
            }
        }
        return summaries;
    }

    /** The `up` proper: every step the program calls for, then deletes of what it no longer has. */
    private async applyProgram(program: Program, replace: string[], imports: Record<string, string>): Promise<{ summary: UpSummary; stepped: Map<string, Props> }> {
        await this.deletePending();
        const summary = emptySummary();
        // The inputs each created, updated or replaced resource was sent, for the plan that follows.
        const stepped = new Map<string, Props>();
        const registered = await this.runProgram(program, false, async (args, urn, news) => {
            this.collectSecrets(args.inputs);
            const secretOutputs = [
                ...Object.keys(args.inputs).filter((k) => isSecret(args.inputs[k])),
                ...(this.additionalSecretOutputs.get(args.name) ?? []),
            ];
            const before = this.state.get(urn);
            const entry = before || imports[args.name] === undefined
                ? await this.step(urn, args.type, args.name, news, summary, secretOutputs, replace.includes(args.name), args.provider)
                : await this.importStep(urn, args.type, args.name, imports[args.name], news, summary, secretOutputs);
            if (entry !== before) stepped.set(urn, news);
            return { id: entry.id, state: entry.outputs };
        });

        for (const entry of [...this.state.values()].reverse()) {
            if (registered.has(entry.urn)) continue;
            const started = Date.now();
            await (await this.hostOf(entry.provider)).delete(entry.id, entry.urn, entry.outputs);
            this.state.delete(entry.urn);
            summary.delete.push(entry.name);
            this.finished("delete", entry.name, entry.type, started);
        }
        return { summary, stepped };
    }

    /**
     * Runs the program under the SDK's mock monitor (a preview when `dryRun`), `onResource` standing
     * in for the engine's work on each registration; returns the URNs it registered.
     */
    private async runProgram(
        program: Program,
        dryRun: boolean,
        onResource: (args: pulumi.runtime.MockResourceArgs, urn: string, news: Props) => Promise<{ id: string; state: Props }>,
    ): Promise<Set<string>> {
        const registered = new Set<string>();
        await pulumi.runtime.setMocks(
            {
                newResource: async (args: pulumi.runtime.MockResourceArgs) => {
                    const urn = this.host.urn(args.type, args.name);
                    if (args.type.startsWith("pulumi:providers:")) return this.registerProvider(args, urn);
                    registered.add(urn);
                    return onResource(args, urn, unwrapSecrets(args.inputs) as Props);
                },
                call: (args: pulumi.runtime.MockCallArgs) => args.inputs,
            },
            this.host.project,
            this.host.stack,
            dryRun,
        );
        noteSecretOutputs((name, list) => this.additionalSecretOutputs.set(name, list));
        const built = program();
        const resources =
            built === undefined ? [] : Array.isArray(built) ? built : built instanceof pulumi.Resource ? [built] : Object.values(built);
        resources.forEach(acknowledgeFailures);
        // A failed step rejects the resource's URN; the first failure fails the whole `up`, once
        // every other step has finished, as the engine waits for steps in flight.
        const settled = await Promise.allSettled(resources.map((r) => (r.urn as unknown as { promise(): Promise<string> }).promise()));
        const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
        if (failed) throw failed.reason;
        return registered;
    }

    /**
     * The plan right after an `up`: check and diff each resource the `up` changed, with the inputs
     * the program sent, against the state the `up` left. The program need not run again: the outputs
     * it saw were already those in state, so it would send the same inputs. A resource the `up` left
     * alone was just planned with these very inputs against this very state, and found unchanged.
     */
    private async expectEmptyPlan(stepped: Map<string, Props>): Promise<void> {
        const changes = await Promise.all(
            [...stepped].map(async ([urn, news]) => {
                const entry = this.state.get(urn);
                if (!entry) return `${urn} is not in state`;
                const host = await this.hostOf(entry.provider);
                const checked = await host.check(urn, entry.inputs, news);
                if (checked.failures.length > 0) {
                    return `${entry.name} fails check: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`;
                }
                const diff = await host.diff(entry.id, urn, entry.outputs, checked.inputs, entry.inputs);
                if (diff.changes === "none") return undefined;
                const inputs = changedInputs(entry.inputs, checked.inputs);
                const what = diff.replaces.length > 0 ? `be replaced (${diff.replaces.join(", ")})` : `change (${diff.changes})`;
                return `${entry.name} would ${what}; inputs that differ from state: ${inputs.join(", ") || "none"}`;
            }),
        );
        const found = changes.filter((c): c is string => c !== undefined);
        if (found.length > 0) throw new Error(`the plan after this up is not empty: ${found.join("; ")}`);
    }

    /**
     * Reads every resource back, like `pulumi refresh`: a resource read as gone leaves state and is
     * summarised as deleted, one read differently as updated, as the CLI shows them; one read
     * loses its failed mark (the next `up` updates it only if its diff says so).
     */
    refresh(): Promise<UpSummary> {
        return this.reportingHost(async () => {
            const summary = emptySummary();
            // The engine reads in parallel (up to --parallel at once); the summary keeps state order.
            const entries = [...this.state.values()];
            const reads = await inParallel(entries, REFRESH_PARALLELISM, async (e) => (await this.hostOf(e.provider)).read(e.id, e.urn, e.outputs, e.inputs));
            for (const [i, entry] of entries.entries()) {
                const read = reads[i];
                if (!read.id) {
                    this.state.delete(entry.urn);
                    summary.delete.push(entry.name);
                    continue;
                }
                const changed = read.id !== entry.id || !sameJson(read.properties, entry.outputs) || (read.inputs && !sameJson(read.inputs, entry.inputs));
                (changed ? summary.update : summary.same).push(entry.name);
                entry.id = read.id;
                entry.outputs = read.properties;
                if (read.inputs) entry.inputs = read.inputs;
                // A read that succeeds clears a failed create's or update's mark, as Pulumi's refresh
                // step does (it keeps init errors only from a read that reports them).
                entry.initFailed = false;
            }
            return summary;
        });
    }

    /**
     * `pulumi import <type> <name> <id>`: the resource read by its id alone into state, with the
     * inputs the read returned, as the engine's import deployment records them (it checks those
     * inputs as a program's; failures are only warned of, and returned here). No program runs.
     */
    importById(type: string, name: string, id: string): Promise<{ inputs: Props; failures: CheckResult["failures"] }> {
        return this.reportingHost(async () => {
            const urn = this.host.urn(type, name);
            if (this.state.has(urn)) throw new Error(`resource '${urn}' already exists`);
            const read = await this.readToImport(urn, id);
            const checked = await this.host.check(urn, read.inputs, read.inputs);
            this.state.set(urn, { urn, type, name, id: read.id, inputs: read.inputs, outputs: read.properties, secretOutputs: [] });
            return { inputs: read.inputs, failures: checked.failures };
        });
    }

    /**
     * The engine's import step (the `import` resource option): the resource read by its id alone,
     * the program's inputs checked against the inputs the read returned, then diffed against what it
     * read; any difference fails the import, as the engine's does. State then holds the read's
     * outputs and the checked inputs.
     */
    private async importStep(urn: string, type: string, name: string, id: string, news: Props, summary: UpSummary, secretOutputs: string[]): Promise<StateEntry> {
        const started = Date.now();
        const read = await this.readToImport(urn, id);
        const checked = await this.host.check(urn, read.inputs, news);
        if (checked.failures.length > 0) throw checkFailed(name, checked);
        await this.analyze({ urn, type, name, props: checked.inputs, secrets: secretOutputs }, false);
        const diff = await this.host.diff(read.id, urn, read.properties, checked.inputs, read.inputs);
        if (diff.changes !== "none") {
            throw new Error(`${name}: inputs to import do not match the existing resource: [${Object.keys(diff.detailedDiff ?? {}).join(" ") || diff.replaces.join(" ")}]`);
        }
        const entry: StateEntry = { urn, type, name, id: read.id, inputs: checked.inputs, outputs: read.properties, secretOutputs };
        this.state.set(urn, entry);
        summary.import.push(name);
        this.finished("import", name, type, started);
        return entry;
    }

    /** The engine's import read: the id alone, no state and no inputs; nothing found, or no inputs returned, fails the import. */
    private async readToImport(urn: string, id: string): Promise<{ id: string; properties: Props; inputs: Props }> {
        const read = await this.host.read(id, urn, {});
        if (!read.id) throw new Error(`resource '${id}' does not exist`);
        if (!read.inputs) throw new Error("provider does not support importing resources");
        return { id: read.id, properties: read.properties, inputs: read.inputs };
    }

    /** Deletes everything, newest first, like `pulumi destroy`. */
    destroy(): Promise<string[]> {
        return this.reportingHost(async () => {
            await this.deletePending();
            const deleted: string[] = [];
            for (const entry of [...this.state.values()].reverse()) {
                const started = Date.now();
                await (await this.hostOf(entry.provider)).delete(entry.id, entry.urn, entry.outputs);
                this.state.delete(entry.urn);
                deleted.push(entry.name);
                this.finished("delete", entry.name, entry.type, started);
            }
            return deleted;
        });
    }

    /**
     * Runs one step; if it fails, its message ends with the host's last lines from that step, where
     * the provider's progress and warnings say how far it got.
     */
    private async reportingHost<T>(work: () => Promise<T>): Promise<T> {
        const from = this.host.output.length;
        try {
            return await work();
        } catch (e) {
            // The host's last lines travel on another pipe than its response: give them a turn to arrive.
            await new Promise((resolve) => setImmediate(resolve));
            const lines = this.host.output.slice(from).slice(-HOST_LINES);
            if (e instanceof Error && lines.length > 0) {
                rewriteMessage(e, (m) => `${m}\nprovider host, last lines of this step:\n${lines.map((l) => `    | ${l}`).join("\n")}`);
            }
            throw e;
        }
    }

    private async deletePending(): Promise<void> {
        while (this.pendingDeletes.length > 0) {
            const old = this.pendingDeletes[0];
            await (await this.hostOf(old.provider)).delete(old.id, old.urn, old.outputs);
            this.pendingDeletes.shift();
        }
    }

    /** The state entry of the resource named `name`. */
    get(name: string): StateEntry {
        const entry = [...this.state.values()].find((e) => e.name === name);
        if (!entry) throw new Error(`no resource named ${name} in state`);
        return entry;
    }

    /**
     * Secret values (as the program gave them) that state holds in plain text: under an output key
     * the engine would not encrypt. Empty when nothing leaked.
     */
    secretLeaks(): Array<{ resource: string; output: string }> {
        const secrets = [...this.secretInputs].filter((s) => s.length >= 4);
        const leaks: Array<{ resource: string; output: string }> = [];
        for (const entry of this.state.values()) {
            for (const [key, value] of Object.entries(entry.outputs)) {
                if (entry.secretOutputs.includes(key) || key === "__provider") continue;
                const text = JSON.stringify(value) ?? "";
                if (secrets.some((s) => text.includes(s))) leaks.push({ resource: entry.name, output: key });
            }
        }
        return leaks;
    }

    /** `Analyze` one resource; in an `up`, a mandatory violation stops it before its step, as the engine does. */
    private async analyze(resource: AnalyzedResource, dryRun: boolean): Promise<void> {
        if (!this.policyPack) return;
        const found = await this.policyPack.analyze(resource);
        this.policyDiagnostics.push(...found);
        const mandatory = found.filter((d) => d.enforcementLevel === "mandatory");
        if (!dryRun && mandatory.length > 0) throw policyViolation(resource.name, mandatory);
    }

    /** `AnalyzeStack` over the stack's resources; in an `up`, a mandatory violation fails it (its steps are done). */
    private async analyzeStack(resources: AnalyzedResource[], dryRun: boolean): Promise<void> {
        if (!this.policyPack) return;
        const found = await this.policyPack.analyzeStack(resources);
        this.policyDiagnostics.push(...found);
        const mandatory = found.filter((d) => d.enforcementLevel === "mandatory");
        if (!dryRun && mandatory.length > 0) throw policyViolation("the stack", mandatory);
    }

    /** Tells `onStep` a resource's step finished. */
    private finished(op: PlannedStep["op"], name: string, type: string, started: number, because: string[] = []): void {
        this.onStep?.({ op, name, type, because, ms: Date.now() - started });
    }

    private async step(urn: string, type: string, name: string, news: Props, summary: UpSummary, secretOutputs: string[], replace: boolean, provider?: string): Promise<StateEntry> {
        const before = this.state.get(urn);
        const entry = await this.apply(urn, type, name, news, summary, secretOutputs, replace, provider);
        // A resource left the same keeps its outputs as stored, secrets still encrypted (Pulumi's
        // SameStep), even one whose input the program no longer gives.
        entry.secretOutputs = entry === before ? [...new Set([...before.secretOutputs, ...secretOutputs])] : secretOutputs;
        return entry;
    }

    private async apply(urn: string, type: string, name: string, news: Props, summary: UpSummary, secretOutputs: string[], replace: boolean, provider?: string): Promise<StateEntry> {
        const started = Date.now();
        const old = this.state.get(urn);
        const host = await this.hostOf(provider);
        const checked = await host.check(urn, old?.inputs ?? {}, news);
        if (checked.failures.length > 0) {
            throw checkFailed(name, checked);
        }
        await this.analyze({ urn, type, name, props: checked.inputs, secrets: secretOutputs }, false);
        if (!old) {
            const entry = await this.create(host, urn, type, name, checked.inputs, secretOutputs, provider);
            summary.create.push(name);
            this.finished("create", name, type, started);
            return entry;
        }
        // A replacement asked for by `--replace` is not diffed: the engine blames the id.
        const diff: DiffResult = replace ? { changes: "some", replaces: ["id"], deleteBeforeReplace: false } : await host.diff(old.id, urn, old.outputs, checked.inputs, old.inputs);
        // The engine updates a resource whose create failed, changed or not, so it can finish.
        if (diff.changes === "none" && !old.initFailed) {
            summary.same.push(name);
            this.finished("same", name, type, started);
            old.inputs = checked.inputs; // as the engine's same step, which writes the checked inputs to state
            return old;
        }
        if (diff.replaces.length > 0) {
            if (diff.deleteBeforeReplace) await (await this.hostOf(old.provider)).delete(old.id, urn, old.outputs);
            this.state.delete(urn);
            let entry: StateEntry;
            try {
                entry = await this.create(host, urn, type, name, checked.inputs, secretOutputs, provider);
            } catch (e) {
                // As the engine does: a failed replacement keeps the old resource in state; if the new
                // one was made all the same (created but failed), the old one waits to be deleted.
                if (this.state.has(urn)) this.pendingDeletes.push(old);
                else if (!diff.deleteBeforeReplace) this.state.set(urn, old);
                throw e;
            }
            // As the engine does, a replaced resource whose delete fails stays in state, marked
            // for deletion, and the next `up` or `destroy` deletes it first.
            if (!diff.deleteBeforeReplace) await (await this.hostOf(old.provider)).delete(old.id, urn, old.outputs).catch((e) => {
                this.pendingDeletes.push(old);
                throw e;
            });
            summary.replace.push({ name, because: diff.replaces });
            this.finished("replace", name, type, started, diff.replaces);
            return entry;
        }
        let updated;
        try {
            updated = await host.update(old.id, urn, old.outputs, checked.inputs, old.inputs);
        } catch (e) {
            if (e instanceof HostCallError && e.initFailure) {
                old.outputs = withProviderOf(e.initFailure.properties, checked.inputs);
                old.initFailed = true;
            }
            throw e;
        }
        const entry = { ...old, inputs: checked.inputs, outputs: updated.properties, initFailed: false, provider };
        this.state.set(urn, entry);
        summary.update.push(name);
        this.finished("update", name, type, started, updatedProperties(diff, old.inputs, checked.inputs));
        return entry;
    }

    private async create(host: ProviderHost, urn: string, type: string, name: string, inputs: Props, secretOutputs: string[], provider?: string): Promise<StateEntry> {
        try {
            const created = await host.create(urn, inputs);
            const entry: StateEntry = { urn, type, name, id: created.id, inputs, outputs: created.properties, secretOutputs, provider };
            this.state.set(urn, entry);
            return entry;
        } catch (e) {
            // Created but failed to initialise: the engine keeps it in state, so it is never leaked.
            if (e instanceof HostCallError && e.initFailure) {
                const { id, properties } = e.initFailure;
                this.state.set(urn, {
                    urn, type, name, id, inputs, outputs: withProviderOf(properties, inputs), secretOutputs, initFailed: true, provider,
                });
            }
            throw e;
        }
    }

    /** Notes every string under a secret (the SDK may lift a nested secret to its whole property). */
    private collectSecrets(value: unknown, underSecret = false): void {
        if (typeof value === "string") {
            if (underSecret) this.secretInputs.add(value);
        } else if (Array.isArray(value)) {
            value.forEach((v) => this.collectSecrets(v, underSecret));
        } else if (value && typeof value === "object") {
            const obj = value as Record<string, unknown>;
            if (SECRET_SIG in obj) this.collectSecrets(obj.value, true);
            else Object.values(obj).forEach((v) => this.collectSecrets(v, underSecret));
        }
    }
}

/**
 * An init failure's properties as the engine keeps them, with the `__provider` text of `inputs`
 * when they carry one: the plugin path's do not, and an undefined property cannot be sent again.
 */
function withProviderOf(properties: Props, inputs: Props): Props {
    return inputs.__provider === undefined ? { ...properties } : { ...properties, __provider: inputs.__provider };
}
