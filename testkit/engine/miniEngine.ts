import * as pulumi from "@pulumi/pulumi";
import { HostCallError, ProviderHost, Props } from "../host/providerHost";
import { noteSecretOutputs } from "../host/programMocks";

/**
 * A small stand-in for the Pulumi engine's `up`, `refresh` and `destroy`, for tests and the demo.
 * The program runs under the SDK's mock monitor, whose `newResource` performs each step against
 * Pulumi's real dynamic-provider host (check, then create, or diff and update or replace), so
 * resources that depend on others' outputs see real values. State is kept in memory.
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
}

export interface UpSummary {
    create: string[];
    update: string[];
    replace: Array<{ name: string; because: string[] }>;
    delete: string[];
    same: string[];
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** Whether a value holds a secret anywhere: the engine then keeps that whole property encrypted. */
function isSecret(value: unknown): boolean {
    if (Array.isArray(value)) return value.some(isSecret);
    if (!value || typeof value !== "object") return false;
    return SECRET_SIG in (value as object) || Object.values(value as object).some(isSecret);
}

/** The engine sends plain values to the host (it does not accept secrets): unwrap them. */
function unwrapSecrets(value: unknown): unknown {
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

export class MiniEngine {
    readonly state = new Map<string, StateEntry>();
    /** Replaced resources whose delete failed: still in state, to be deleted before anything else. */
    readonly pendingDeletes: StateEntry[] = [];
    /** Every value the program registered as secret, for leak checks. */
    readonly secretInputs = new Set<string>();
    private readonly additionalSecretOutputs = new Map<string, string[]>();

    constructor(readonly host: ProviderHost) {}

    /** Runs the program and makes the world match it, like `pulumi up`. */
    async up(program: () => pulumi.Resource | pulumi.Resource[] | Record<string, pulumi.Resource> | void): Promise<UpSummary> {
        await this.deletePending();
        const summary: UpSummary = { create: [], update: [], replace: [], delete: [], same: [] };
        const registered = new Set<string>();
        await pulumi.runtime.setMocks(
            {
                newResource: async (args: pulumi.runtime.MockResourceArgs) => {
                    const urn = this.host.urn(args.type, args.name);
                    registered.add(urn);
                    this.collectSecrets(args.inputs);
                    const secretOutputs = [
                        ...Object.keys(args.inputs).filter((k) => isSecret(args.inputs[k])),
                        ...(this.additionalSecretOutputs.get(args.name) ?? []),
                    ];
                    const entry = await this.step(urn, args.type, args.name, unwrapSecrets(args.inputs) as Props, summary, secretOutputs);
                    return { id: entry.id, state: entry.outputs };
                },
                call: (args: pulumi.runtime.MockCallArgs) => args.inputs,
            },
            this.host.project,
            this.host.stack,
            false,
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

        for (const entry of [...this.state.values()].reverse()) {
            if (registered.has(entry.urn)) continue;
            await this.host.delete(entry.id, entry.urn, entry.outputs);
            this.state.delete(entry.urn);
            summary.delete.push(entry.name);
        }
        return summary;
    }

    /** Reads every resource back, like `pulumi refresh`; a resource read as gone leaves state. */
    async refresh(): Promise<void> {
        for (const entry of this.state.values()) {
            const read = await this.host.read(entry.id, entry.urn, entry.outputs, entry.inputs);
            if (!read.id) {
                this.state.delete(entry.urn);
                continue;
            }
            entry.id = read.id;
            entry.outputs = read.properties;
            if (read.inputs) entry.inputs = read.inputs;
        }
    }

    /** Deletes everything, newest first, like `pulumi destroy`. */
    async destroy(): Promise<string[]> {
        await this.deletePending();
        const deleted: string[] = [];
        for (const entry of [...this.state.values()].reverse()) {
            await this.host.delete(entry.id, entry.urn, entry.outputs);
            this.state.delete(entry.urn);
            deleted.push(entry.name);
        }
        return deleted;
    }

    private async deletePending(): Promise<void> {
        while (this.pendingDeletes.length > 0) {
            const old = this.pendingDeletes[0];
            await this.host.delete(old.id, old.urn, old.outputs);
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

    private async step(urn: string, type: string, name: string, news: Props, summary: UpSummary, secretOutputs: string[]): Promise<StateEntry> {
        const entry = await this.apply(urn, type, name, news, summary, secretOutputs);
        entry.secretOutputs = secretOutputs;
        return entry;
    }

    private async apply(urn: string, type: string, name: string, news: Props, summary: UpSummary, secretOutputs: string[]): Promise<StateEntry> {
        const old = this.state.get(urn);
        const checked = await this.host.check(urn, old?.inputs ?? {}, news);
        if (checked.failures.length > 0) {
            throw new Error(`${name}: check failed: ${checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
        }
        if (!old) {
            const entry = await this.create(urn, type, name, checked.inputs, secretOutputs);
            summary.create.push(name);
            return entry;
        }
        const diff = await this.host.diff(old.id, urn, old.outputs, checked.inputs);
        // The engine updates a resource whose create failed, changed or not, so it can finish.
        if (diff.changes === "none" && !old.initFailed) {
            summary.same.push(name);
            return old;
        }
        if (diff.replaces.length > 0) {
            if (diff.deleteBeforeReplace) await this.host.delete(old.id, urn, old.outputs);
            this.state.delete(urn);
            let entry: StateEntry;
            try {
                entry = await this.create(urn, type, name, checked.inputs, secretOutputs);
            } catch (e) {
                // As the engine does: a failed replacement keeps the old resource in state; if the new
                // one was made all the same (created but failed), the old one waits to be deleted.
                if (this.state.has(urn)) this.pendingDeletes.push(old);
                else if (!diff.deleteBeforeReplace) this.state.set(urn, old);
                throw e;
            }
            // As the engine does, a replaced resource whose delete fails stays in state, marked
            // for deletion, and the next `up` or `destroy` deletes it first.
            if (!diff.deleteBeforeReplace) await this.host.delete(old.id, urn, old.outputs).catch((e) => {
                this.pendingDeletes.push(old);
                throw e;
            });
            summary.replace.push({ name, because: diff.replaces });
            return entry;
        }
        let updated;
        try {
            updated = await this.host.update(old.id, urn, old.outputs, checked.inputs);
        } catch (e) {
            if (e instanceof HostCallError && e.initFailure) {
                old.outputs = { ...e.initFailure.properties, __provider: checked.inputs.__provider };
                old.initFailed = true;
            }
            throw e;
        }
        const entry = { ...old, inputs: checked.inputs, outputs: updated.properties, initFailed: false };
        this.state.set(urn, entry);
        summary.update.push(name);
        return entry;
    }

    private async create(urn: string, type: string, name: string, inputs: Props, secretOutputs: string[]): Promise<StateEntry> {
        try {
            const created = await this.host.create(urn, inputs);
            const entry: StateEntry = { urn, type, name, id: created.id, inputs, outputs: created.properties, secretOutputs };
            this.state.set(urn, entry);
            return entry;
        } catch (e) {
            // Created but failed to initialise: the engine keeps it in state, so it is never leaked.
            if (e instanceof HostCallError && e.initFailure) {
                const { id, properties } = e.initFailure;
                this.state.set(urn, {
                    urn, type, name, id, inputs, outputs: { ...properties, __provider: inputs.__provider }, secretOutputs, initFailed: true,
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
