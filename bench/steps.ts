import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";
import { Emulator } from "../testkit/emulator/server";
import { ProviderHost, Props } from "../testkit/host/providerHost";
import { registerAsProgram } from "../testkit/host/programMocks";
import { REPO_ROOT } from "../testkit/repoRoot";

/**
 * The engine's steps, one resource at a time at Pulumi's parallelism: what `pulumi up`, `refresh`
 * and `destroy` ask of a dynamic-provider host (create = check + create, update = check + diff +
 * update, refresh = read, delete = delete). Each operation runs in a fresh host process, as each
 * CLI command starts its own; the clock starts once the host has loaded the provider (timed apart).
 */
export type Operation = "create" | "update" | "no-change diff" | "refresh" | "delete";

export interface BenchResource {
    name: string;
    urn: string;
    /** What the program sends on the first `up`, and after the edit. */
    news: Props;
    edited: Props;
    state?: { id: string; inputs: Props; outputs: Props };
}

export interface Measured {
    seconds: number;
    /** Requests the emulator received, from the host's start to the last step's end. */
    calls: number;
    rateLimited: number;
    /** Calls by the emulator's route name (429s under `<route> 429`), to see where they went. */
    routes?: Record<string, number>;
    failures: string[];
    /** The host's first call, which loads the provider's code, ms; not part of `seconds`. */
    loadMs?: number;
    /** The host process's peak resident memory, kB (VmHWM). */
    hostPeakKb?: number;
    /** CPU time (user + system) the host process spent on the operation, ms; steadier than `seconds` on a busy machine. */
    hostCpuMs?: number;
    /** When the operation's clock started (ms since the epoch). */
    startedAt?: number;
    /**
     * When the operation's first call reached the emulator, ms after its clock started: what the
     * host and provider spend once before anything goes out (the first call's compile, a client's
     * making), apart from the rest of the operation. None for an operation that makes no call.
     */
    firstCallMs?: number;
    /** The operation's seconds from its first call reaching the emulator to its end: what every call costs. */
    afterFirstCallSeconds?: number;
    /** When the operation was repeated: every repetition's seconds, in the order they ran (`seconds` is their median). */
    repSeconds?: number[];
}

/**
 * One figure for an operation repeated: the median seconds and the median host CPU, with the calls,
 * 429s and memory of the repetition at the middle (the lower of the two middle ones when there is an even number),
 * and every repetition's failures. A 2-core machine moves single wall times by a tenth; the
 * median of a few is what a ratio between two contenders can be read from.
 */
export function medianRun(runs: Measured[]): Measured {
    if (runs.length === 0) throw new Error("no repetition to take the median of");
    const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
    const lower = sorted[(sorted.length - 1) >> 1];
    const upper = sorted[sorted.length >> 1];
    return {
        ...lower,
        seconds: (lower.seconds + upper.seconds) / 2,
        hostCpuMs: median(runs.map((r) => r.hostCpuMs)),
        firstCallMs: median(runs.map((r) => r.firstCallMs)),
        afterFirstCallSeconds: median(runs.map((r) => r.afterFirstCallSeconds)),
        repSeconds: runs.map((r) => r.seconds),
        failures: runs.flatMap((r) => r.failures),
    };
}

/** The median of the figures given, undefined when none is. */
function median(figures: (number | undefined)[]): number | undefined {
    const sorted = figures.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
    return sorted.length > 0 ? (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2 : undefined;
}

/** Runs `work` over `items`, at most `concurrency` at once; failures are collected, not thrown. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<string[]> {
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const item = items[next++];
            await work(item).catch((e) => failures.push(e instanceof Error ? e.message.split("\n")[0] : String(e)));
        }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
    return failures;
}

/** Peak resident memory of a process, kB, from /proc (Linux); undefined elsewhere. */
export function peakMemoryKb(pid: number | undefined): number | undefined {
    if (pid === undefined) return undefined;
    try {
        const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
        const m = /VmHWM:\s+(\d+)\s+kB/.exec(status);
        return m ? Number(m[1]) : undefined;
    } catch {
        return undefined;
    }
}

/** CPU time (user + system) a process has used so far, ms, from /proc (Linux); undefined elsewhere. */
export function cpuMs(pid: number | undefined): number | undefined {
    if (pid === undefined) return undefined;
    try {
        // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th, in clock ticks (100 a second).
        const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
        return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
        return undefined;
    }
}

/** The engine's URN for a resource of the benchmark's stack. */
export function benchUrn(type: string, name: string): string {
    return `urn:pulumi:${BENCH_STACK}::${BENCH_PROJECT}::${type}::${name}`;
}

const BENCH_PROJECT = "vastai-bench";
const BENCH_STACK = "bench";

/**
 * What a program registers for `build(i)`, i < n, first as written and then as edited: each
 * resource's inputs with the SDK's own `__provider` text, ready for the engine's steps.
 */
export async function programResources(n: number, build: (i: number, edited: boolean) => pulumi.Resource): Promise<BenchResource[]> {
    const registered = async (edited: boolean) => {
        const list = await registerAsProgram(() => Array.from({ length: n }, (_, i) => build(i, edited)), { project: BENCH_PROJECT, stack: BENCH_STACK });
        return new Map(list.map((r) => [r.name, r]));
    };
    const first = await registered(false);
    const then = await registered(true);
    return [...first.values()].map((r) => ({
        name: r.name,
        urn: benchUrn(r.type, r.name),
        news: r.inputs as Props,
        edited: then.get(r.name)!.inputs as Props,
    }));
}

export interface HostSetup {
    env: Record<string, string>;
    config: Record<string, string>;
}

/** Counts what the emulator saw from `from` on. */
export function countRequests(emu: Emulator, from: number): { calls: number; rateLimited: number; routes: Record<string, number> } {
    const seen = emu.requests.slice(from);
    const routes: Record<string, number> = {};
    for (const r of seen) {
        const key = `${r.route ?? `${r.method} ${r.path}`}${r.status === 429 ? " 429" : ""}`;
        routes[key] = (routes[key] ?? 0) + 1;
    }
    return { calls: seen.length, rateLimited: seen.filter((r) => r.status === 429).length, routes };
}

/**
 * When the operation's first call (of the requests logged from `from` on) reached the emulator,
 * ms after the clock started at `startedAt`, and the seconds from then to the operation's end.
 */
export function firstCall(emu: Emulator, from: number, startedAt: number, seconds: number): Pick<Measured, "firstCallMs" | "afterFirstCallSeconds"> {
    const first = emu.requests.slice(from).find((r) => r.at >= startedAt);
    if (!first) return {};
    return { firstCallMs: first.at - startedAt, afterFirstCallSeconds: seconds - (first.at - startedAt) / 1000 };
}

/** One operation over every resource in a fresh host; the host's peak memory is read before it stops. */
export async function hostOperation(
    emu: Emulator,
    setup: HostSetup,
    op: Operation,
    resources: BenchResource[],
    concurrency: number,
): Promise<Measured> {
    const from = emu.requests.length;
    const host = await ProviderHost.start({ cwd: REPO_ROOT, project: BENCH_PROJECT, stack: BENCH_STACK, env: setup.env });
    try {
        await host.configure(setup.config);
        // The first call in a host loads the provider's code (this provider's: axios, zod and its
        // runtime; the bare one's: nothing but Node's http). Pulumi pays that once per command, not
        // once per operation: it is timed apart (`loadMs`, a check that calls nothing), and the
        // operation's clock starts after it, for both providers alike.
        let loadMs: number | undefined;
        const first = resources[0];
        if (first) {
            const loading = Date.now();
            await host.check(`${first.urn}-load`, {}, first.news);
            loadMs = Date.now() - loading;
        }
        const cpuBefore = cpuMs(host.pid);
        const started = Date.now();
        const failures = await pool(
            resources.filter((r) => (op === "create" ? !r.state : r.state)),
            concurrency,
            (r) => step(host, op, r),
        );
        const seconds = (Date.now() - started) / 1000;
        const cpuAfter = cpuMs(host.pid);
        const hostCpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
        return { seconds, startedAt: started, ...firstCall(emu, from, started, seconds), loadMs, ...countRequests(emu, from), failures, hostPeakKb: peakMemoryKb(host.pid), hostCpuMs };
    } finally {
        await host.stop();
    }
}

/** One resource's steps for `op`, as the engine takes them. */
export async function step(host: ProviderHost, op: Operation, r: BenchResource): Promise<void> {
    const state = r.state;
    if (op === "create") {
        const checked = await host.check(r.urn, {}, r.news);
        if (checked.failures.length > 0) throw new Error(`${r.name}: check failed: ${JSON.stringify(checked.failures)}`);
        const created = await host.create(r.urn, checked.inputs);
        r.state = { id: created.id, inputs: checked.inputs, outputs: created.properties };
        return;
    }
    if (!state) throw new Error(`${r.name} is not in state`);
    if (op === "update" || op === "no-change diff") {
        const checked = await host.check(r.urn, state.inputs, r.edited);
        if (checked.failures.length > 0) throw new Error(`${r.name}: check failed: ${JSON.stringify(checked.failures)}`);
        const diff = await host.diff(state.id, r.urn, state.outputs, checked.inputs);
        if (op === "no-change diff") {
            if (diff.changes !== "none") throw new Error(`${r.name}: a no-change diff shows changes (${diff.replaces.join(", ")})`);
            return;
        }
        if (diff.changes === "none") throw new Error(`${r.name}: the edit shows no change`);
        if (diff.replaces.length > 0) throw new Error(`${r.name}: the edit replaces (${diff.replaces.join(", ")})`);
        const updated = await host.update(state.id, r.urn, state.outputs, checked.inputs);
        r.state = { id: state.id, inputs: checked.inputs, outputs: updated.properties };
        return;
    }
    if (op === "refresh") {
        const read = await host.read(state.id, r.urn, state.outputs, state.inputs);
        if (!read.id) throw new Error(`${r.name} read as gone`);
        r.state = { id: read.id, inputs: read.inputs ?? state.inputs, outputs: read.properties };
        return;
    }
    await host.delete(state.id, r.urn, state.outputs);
    r.state = undefined;
}

/** Bytes of `__provider` and of one state entry (inputs and outputs, as the engine stores them). */
export function stateBytes(r: BenchResource): { providerBytes: number; stateBytes: number } {
    const state = r.state;
    if (!state) return { providerBytes: 0, stateBytes: 0 };
    const provider = state.outputs.__provider ?? state.inputs.__provider;
    return {
        providerBytes: typeof provider === "string" ? Buffer.byteLength(provider) : 0,
        stateBytes: Buffer.byteLength(JSON.stringify({ inputs: state.inputs, outputs: state.outputs })),
    };
}
