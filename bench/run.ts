import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Instance, Template } from "pulumi-vastai";
import { Emulator } from "../testkit/emulator/server";
import { ROUTES } from "../testkit/emulator/routes";
import { REPO_ROOT } from "../testkit/repoRoot";
import { BareResource } from "./bareProvider";
import { PlainResource, plainStep } from "./plainClient";
import { profiled } from "./profiler";
import { BenchResource, HostSetup, Measured, Operation, countRequests, firstCall, hostOperation, medianRun, pool, programResources, stateBytes } from "./steps";
import { Flags, MachineNote, PacedRow, ResultRow, printResults } from "./table";

/**
 * `npm run bench [-- --templates 200 --instances 20 --latency 80 --reps 5 --instance-reps 31 --memory 1000 --paced 20 --parallelism 8 --time-scale 0]`
 * (0 skips a part, and a partial run is not written to bench/results.json unless `--write`);
 * `npm run bench -- --print` prints the table of bench/results.json again.
 * For a closer look at run 1: `--only template|instance` takes one resource; `--rounds` prints when
 * each call reached the emulator, ms from the operation's start (a read by id with its number of
 * ids); `--profile dir` writes a V8 CPU profile of every measured host into `dir/provider` and
 * `dir/bare`. A quick look at run 1 alone: `--memory 0 --paced 0`.
 *
 * Run 1: every operation of the provider's resources through Pulumi's own dynamic-provider host,
 * against the emulator with loopback latency added and no rate limits, at Pulumi's default
 * parallelism (4 × cores). Beside it, the same operations by a bare dynamic provider (one call per
 * step with Node's `http`, through the same host) and by a plain HTTP client (the same calls, same
 * concurrency, no host): two ratios per operation, what the provider adds and what Pulumi costs.
 * Each operation is taken `--reps` times (an Instance one `--instance-reps` times), the contenders' order turning round each time, and the
 * medians compared: single wall times on a 2-core machine move by a tenth. Then the host's peak memory after creating many templates, against the bare provider's host.
 *
 * Run 2: instances under the live service's per-endpoint intervals (the emulator's rate limiter at
 * scale 1, the provider at VASTAI_TIME_SCALE=1, the emulator's boot times), against the floor those
 * intervals and boot times set.
 */
function flag(name: string, fallback: number): number {
    const i = process.argv.indexOf(`--${name}`);
    if (i < 0) return fallback;
    const value = Number(process.argv[i + 1]);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} takes a number, got ${process.argv[i + 1]}`);
    return value;
}

/** A flag's text (`--only instance`), or undefined when it is not given. */
function textFlag(name: string): string | undefined {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? undefined : process.argv[i + 1];
}

/**
 * `--rounds`: when each call from `from` on reached the emulator, ms from the operation's start
 * (half the added latency after it left); a list or search by id with its number of ids.
 */
function rounds(emu: Emulator, from: number, startedAt: number): string {
    const seen = emu.requests.slice(from);
    const t0 = startedAt;
    const ids = (q: Record<string, string>) => {
        const filters = q.select_filters ? JSON.parse(q.select_filters) : undefined;
        return filters?.id?.in ? `:${filters.id.in.length}` : "";
    };
    return seen.map((r) => `${r.at - t0}${ids(r.query)}`).join(" ");
}

const OPERATIONS: Operation[] = ["create", "update", "no-change diff", "refresh", "delete"];
/** The fewest calls per resource the service allows for each operation on one resource. */
const MINIMUM_CALLS: Record<Operation, number> = { create: 1, update: 1, "no-change diff": 0, refresh: 1, delete: 1 };
const PLAIN_OPS: Partial<Record<Operation, "create" | "update" | "refresh" | "delete">> = {
    create: "create", update: "update", refresh: "refresh", delete: "delete",
};

const RESULTS = path.join(REPO_ROOT, "bench", "results.json");

async function main(): Promise<void> {
    // `--print`: the table of the last run, from bench/results.json.
    if (process.argv.includes("--print")) return printResults(JSON.parse(fs.readFileSync(RESULTS, "utf8")));
    const flags: Flags = {
        templates: flag("templates", 200),
        instances: flag("instances", 20),
        latencyMs: flag("latency", 80),
        parallelism: flag("parallelism", 4 * os.cpus().length),
        // The provider's own waits (its pacing above all: 4.5 s between instance creates live) at
        // none, since run 1 has no rate limits to respect: it measures what the provider adds to
        // each call, and run 2 its pacing. Request timeouts stay at their 250 ms floor.
        timeScale: flag("time-scale", 0),
        reps: Math.max(1, flag("reps", 5)),
        instanceReps: Math.max(1, flag("instance-reps", 31)),
        memoryResources: flag("memory", 1000),
        pacedInstances: flag("paced", 20),
    };
    const machine: MachineNote = {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? "unknown",
        memoryGb: Math.round(os.totalmem() / 1024 ** 3),
        node: process.version,
        loadBefore: os.loadavg().map((l) => Math.round(l * 100) / 100),
    };
    console.log(`bench: ${JSON.stringify(flags)}`);
    const rows = await overheadRun(flags);
    const memory = flags.memoryResources > 0 ? await memoryRun(flags) : undefined;
    const paced = flags.pacedInstances > 0 ? await pacedRun(flags) : [];
    machine.loadAfter = os.loadavg().map((l) => Math.round(l * 100) / 100);

    const results = { date: new Date().toISOString(), machine, flags, overhead: rows, memory, paced };
    printResults(results);
    // A part skipped, or a closer look at one resource, is not the run the README quotes.
    const partial = textFlag("only") !== undefined || [flags.templates, flags.instances, flags.memoryResources, flags.pacedInstances].includes(0);
    if (partial && !process.argv.includes("--write")) {
        console.log(`\nnot written to ${path.relative(REPO_ROOT, RESULTS)}: a partial run (--write writes it anyway)`);
        return;
    }
    fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`\nwritten: ${path.relative(REPO_ROOT, RESULTS)}`);
}

/** The contenders of run 1: the provider and the bare dynamic provider through the host, and the plain client. */
type Contender = "provider" | "bare" | "plain";

/**
 * Run 1: the provider, the bare dynamic provider and a plain client, operation by operation, each
 * operation `reps` times with the contenders' order turning round each time (so neither always
 * goes first), the median of each kept. Each repetition of a create is followed by its delete, so
 * every create starts from nothing; updates edit back and forth.
 */
async function overheadRun(flags: Flags): Promise<ResultRow[]> {
    const emu = await Emulator.start({
        rateLimitScale: 0,
        latencyMs: flags.latencyMs,
        // Running at once, and an offer free again at once: this run measures calls, not waits.
        instanceTimings: { loadingAfterMs: 0, runningAfterMs: 0 },
        offerReturnAfterMs: 0,
        // Each run makes the same templates again after deleting them; a delete only unlinks, and
        // with the service's merging of identical content the next run would take the deleted ones
        // back (another path, which asks whose key it is) instead of making new ones.
        dedupeTemplates: false,
    });
    try {
        const profileDir = textFlag("profile");
        const hosts: Record<"provider" | "bare", HostSetup> = {
            provider: { env: { VASTAI_TIME_SCALE: String(flags.timeScale) }, config: { "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url } },
            bare: { env: {}, config: {} },
        };
        const connection = { baseUrl: emu.url, apiKey: emu.demoKey };
        const offers = () => Array.from({ length: flags.instances }, () => emu.addOffer().id);

        // Names differ per contender: the service answers a create of identical content with the existing template.
        const templateFields = (who: string, i: number, edited: boolean) => ({ name: `${who}-t${i}`, image: "busybox", tag: edited ? "1.37" : "1.36" });
        const providerOffers = offers();
        const bareOffers = offers();
        const plainOffers = offers();
        const instanceFields = (offerIds: number[], i: number, edited: boolean) => ({
            offerId: offerIds[i], image: "vastai/base-image:bench", label: edited ? `bench-i${i}-edited` : `bench-i${i}`,
        });

        const only = textFlag("only")?.toLowerCase();
        const kinds = [
            {
                resource: "Template",
                n: flags.templates,
                reps: flags.reps,
                provider: () => programResources(flags.templates, (i, e) => new Template(`t${i}`, templateFields("provider", i, e))),
                bare: () => programResources(flags.templates, (i, e) => new BareResource(`t${i}`, { kind: "template", ...connection, fields: templateFields("bare", i, e) })),
                plain: (edited: boolean, i: number) => templateFields("plain", i, edited),
            },
            {
                resource: "Instance",
                n: flags.instances,
                reps: flags.instanceReps ?? flags.reps,
                provider: () => programResources(flags.instances, (i, e) => new Instance(`i${i}`, { ...instanceFields(providerOffers, i, e), waitForRunning: false })),
                bare: () => programResources(flags.instances, (i, e) => new BareResource(`i${i}`, { kind: "instance", ...connection, fields: instanceFields(bareOffers, i, e) })),
                plain: (edited: boolean, i: number) => instanceFields(plainOffers, i, edited),
            },
        ].filter((k) => k.n > 0 && (!only || k.resource.toLowerCase() === only));

        const rows: ResultRow[] = [];
        for (const kind of kinds) {
            const resources = { provider: await kind.provider(), bare: await kind.bare() };
            const kindName = kind.resource.toLowerCase() as PlainResource["kind"];
            const plain: PlainResource[] = Array.from({ length: kind.n }, (_, i) => ({ kind: kindName, fields: kind.plain(false, i) }));
            let plainEdited = false;

            /** One operation by one contender; `measure: false` only sets the stage (not profiled, and a failure stops the run). */
            const run = async (who: Contender, op: Operation, measure = true): Promise<Measured | undefined> => {
                const from = emu.requests.length;
                let m: Measured;
                if (who === "plain") {
                    const plainOp = PLAIN_OPS[op];
                    if (!plainOp) return undefined;
                    if (op === "update") {
                        plainEdited = !plainEdited;
                        plain.forEach((r, i) => (r.fields = kind.plain(plainEdited, i)));
                    }
                    const started = Date.now();
                    const failures = await pool(plain, flags.parallelism, (r) => plainStep(emu.url, emu.demoKey, plainOp, r));
                    const seconds = (Date.now() - started) / 1000;
                    m = { seconds, startedAt: started, ...firstCall(emu, from, started, seconds), ...countRequests(emu, from), failures };
                } else {
                    const setup = measure ? profiled(hosts[who], profileDir && path.join(profileDir, who)) : hosts[who];
                    m = await hostOperation(emu, setup, op, resources[who], flags.parallelism);
                }
                if (!measure && m.failures.length > 0) throw new Error(`${kind.resource} ${op} (${who}): ${m.failures[0]}`);
                if (measure && process.argv.includes("--rounds")) console.log(`  ${op}, ${who}: ${rounds(emu, from, m.startedAt ?? 0)}`);
                return m;
            };
            const runs = () => ({ provider: [] as Measured[], bare: [] as Measured[], plain: [] as Measured[] });
            const row = (op: Operation, measured: ReturnType<typeof runs>, bytes?: ResultRow["bytes"]): ResultRow => ({
                resource: kind.resource,
                operation: op,
                n: kind.n,
                minimumCallsPerResource: MINIMUM_CALLS[op],
                provider: medianRun(measured.provider),
                bare: medianRun(measured.bare),
                plain: measured.plain.length > 0 ? medianRun(measured.plain) : undefined,
                bytes,
            });
            /** Who goes first turns round with each repetition. */
            const order = (rep: number): Contender[] => (rep % 2 === 0 ? ["provider", "bare", "plain"] : ["plain", "bare", "provider"]);
            const measureInto = async (into: ReturnType<typeof runs>, who: Contender, op: Operation) => {
                const m = await run(who, op);
                if (m) into[who].push(m);
            };

            console.log(`run 1: ${kind.resource} create and delete × ${kind.n}, ${kind.reps} times`);
            const created = runs();
            const deleted = runs();
            let bytes: ResultRow["bytes"];
            for (let rep = 0; rep < kind.reps; rep++) {
                for (const who of order(rep)) await measureInto(created, who, "create");
                bytes ??= { provider: averageBytes(resources.provider), bare: averageBytes(resources.bare) };
                for (const who of order(rep)) await measureInto(deleted, who, "delete");
            }
            for (const who of order(0)) await run(who, "create", false);
            const later = new Map<Operation, ReturnType<typeof runs>>();
            for (const op of ["update", "no-change diff", "refresh"] as Operation[]) {
                console.log(`run 1: ${kind.resource} ${op} × ${kind.n}, ${kind.reps} times`);
                const measured = runs();
                for (let rep = 0; rep < kind.reps; rep++) {
                    for (const who of order(rep)) {
                        // Each update after the first edits back: what the program sends swaps with what
                        // it sent, and after the last, `edited` is again what state holds (for the no-change diff).
                        if (op === "update" && rep > 0 && who !== "plain") for (const r of resources[who]) [r.news, r.edited] = [r.edited, r.news];
                        await measureInto(measured, who, op);
                    }
                }
                later.set(op, measured);
            }
            for (const who of order(0)) await run(who, "delete", false);
            rows.push(row("create", created, bytes));
            for (const [op, measured] of later) rows.push(row(op, measured));
            rows.push(row("delete", deleted));
        }
        return rows;
    } finally {
        await emu.stop();
    }
}

function averageBytes(resources: BenchResource[]): { providerBytes: number; stateBytes: number } {
    const all = resources.map(stateBytes).filter((b) => b.stateBytes > 0);
    const mean = (xs: number[]) => (xs.length === 0 ? 0 : Math.round(xs.reduce((a, b) => a + b, 0) / xs.length));
    return { providerBytes: mean(all.map((b) => b.providerBytes)), stateBytes: mean(all.map((b) => b.stateBytes)) };
}

/** The host's peak memory after creating many templates, the provider's host against the bare provider's. */
async function memoryRun(flags: Flags) {
    const n = flags.memoryResources;
    const emu = await Emulator.start({ rateLimitScale: 0, latencyMs: flags.latencyMs });
    try {
        const connection = { baseUrl: emu.url, apiKey: emu.demoKey };
        const fields = (who: string, i: number, edited: boolean) => ({ name: `${who}-m${i}`, image: "busybox", tag: edited ? "1.37" : "1.36" });
        const provider: HostSetup = { env: { VASTAI_TIME_SCALE: String(flags.timeScale) }, config: { "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url } };
        const bare: HostSetup = { env: {}, config: {} };
        const idle = await hostOperation(emu, bare, "create", [], flags.parallelism);
        console.log(`memory: ${n} templates through the provider's host`);
        const providerResources = await programResources(n, (i, e) => new Template(`m${i}`, fields("provider", i, e)));
        const viaProvider = await hostOperation(emu, provider, "create", providerResources, flags.parallelism);
        await hostOperation(emu, provider, "delete", providerResources, flags.parallelism);
        console.log(`memory: ${n} templates through the bare provider's host`);
        const bareResources = await programResources(n, (i, e) => new BareResource(`m${i}`, { kind: "template", ...connection, fields: fields("bare", i, e) }));
        const viaBare = await hostOperation(emu, bare, "create", bareResources, flags.parallelism);
        await hostOperation(emu, bare, "delete", bareResources, flags.parallelism);
        return {
            resources: n,
            idleHostPeakMb: mb(idle.hostPeakKb),
            providerHostPeakMb: mb(viaProvider.hostPeakKb),
            bareHostPeakMb: mb(viaBare.hostPeakKb),
            providerOverBareMb: mb((viaProvider.hostPeakKb ?? 0) - (viaBare.hostPeakKb ?? 0)),
            failures: [...viaProvider.failures, ...viaBare.failures],
        };
    } finally {
        await emu.stop();
    }
}

function mb(kb: number | undefined): number | undefined {
    return kb === undefined ? undefined : Math.round(kb / 102.4) / 10;
}

/** Run 2: instances under the live intervals and boot times, against the floor they set. */
async function pacedRun(flags: Flags): Promise<PacedRow[]> {
    const n = flags.pacedInstances;
    const emu = await Emulator.start({ rateLimitScale: 1, latencyMs: flags.latencyMs });
    try {
        const setup: HostSetup = { env: { VASTAI_TIME_SCALE: "1" }, config: { "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url } };
        const offers = Array.from({ length: n }, () => emu.addOffer().id);
        const resources = await programResources(n, (i, edited) =>
            new Instance(`p${i}`, { offerId: offers[i], image: "vastai/base-image:bench", label: edited ? `paced-${i}-edited` : `paced-${i}` }),
        );
        const floors = pacedFloors(n, flags, emu.options.instanceTimings.runningAfterMs);
        const rows: PacedRow[] = [];
        for (const op of OPERATIONS) {
            console.log(`run 2 (live intervals): Instance ${op} × ${n}`);
            const measured = await hostOperation(emu, setup, op, resources, flags.parallelism);
            rows.push({ resource: "Instance", operation: op, n, measured, floor: floors[op] });
        }
        return rows;
    } finally {
        await emu.stop();
    }
}

/** The emulator's interval for a route at live speed, ms. */
function interval(route: string): number {
    const found = ROUTES.find((r) => r.name === route);
    if (!found) throw new Error(`no route ${route}`);
    return found.intervalMs;
}

/**
 * What the live intervals allow for `n` instances at parallelism `p`, each call one round trip:
 * creates one `instance-create` interval apart, the last one running after the boot time and seen
 * by one list call; label edits one `instance-label` interval apart; a refresh as the shared reads
 * make it (batchedReads.ts): the engine's first `p` reads by id in one list call, then the
 * account's pages of 25 read ahead, one after another, which answer the rest, the calls one
 * `instance-list` interval apart; destroys one `instance-destroy`
 * interval apart. A no-change diff makes no call.
 */
function pacedFloors(n: number, flags: Flags, bootMs: number): Record<Operation, PacedRow["floor"]> {
    const rtt = flags.latencyMs / 1000;
    const apart = (route: string, calls: number) => (Math.max(0, calls - 1) * interval(route)) / 1000;
    const p = Math.min(flags.parallelism, 25);
    const listCalls = n <= p ? 1 : 1 + Math.ceil(n / 25);
    return {
        create: {
            calls: 2 * n,
            seconds: apart("instance-create", n) + bootMs / 1000 + 2 * rtt,
            how: `${n} creates ${interval("instance-create") / 1000} s apart, the last running ${bootMs / 1000} s later (emulator boot), one look each`,
        },
        update: { calls: n, seconds: apart("instance-label", n) + rtt, how: `${n} label edits ${interval("instance-label") / 1000} s apart` },
        "no-change diff": { calls: 0, seconds: 0, how: "no call" },
        refresh: {
            calls: listCalls,
            seconds: apart("instance-list", listCalls) + rtt,
            how: `${p} reads by id in one list call, then the account's pages of 25 read ahead: ${listCalls} list calls ${interval("instance-list") / 1000} s apart`,
        },
        delete: { calls: n, seconds: apart("instance-destroy", n) + rtt, how: `${n} destroys ${interval("instance-destroy") / 1000} s apart` },
    };
}

main().catch((e) => {
    console.error(e instanceof Error ? e.stack ?? e.message : e);
    process.exit(1);
});
