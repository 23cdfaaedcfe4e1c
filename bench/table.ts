import { Measured, Operation } from "./steps";

/** The benchmark's settings, from its flags. */
export interface Flags {
    templates: number;
    instances: number;
    latencyMs: number;
    parallelism: number;
    /** VASTAI_TIME_SCALE for the provider in run 1 (its own waits: pacing, backoff, timeouts). */
    timeScale: number;
    /** How many times run 1 takes each Template operation (its figures are the medians). */
    reps: number;
    /**
     * The same for each Instance operation: more, since these take 0.3 s for 20 instances, and a
     * single run's ratio to the bare provider moves by a tenth on a 2-core machine.
     */
    instanceReps?: number;
    memoryResources: number;
    pacedInstances: number;
}

export interface MachineNote {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    loadBefore: number[];
    loadAfter?: number[];
}

type Bytes = { providerBytes: number; stateBytes: number };

/** Why the provider makes a call the bare provider does not, by the emulator's route name. */
const WHY_BEYOND_BARE: Record<string, string> = {
    "current-user":
        "the key's account, asked once per host process and kept as accountId (a read with another key than the one that made it), " +
        "so that a refresh or destroy with another account's key never takes a billed instance as gone",
};

export interface ResultRow {
    resource: string;
    operation: Operation;
    n: number;
    minimumCallsPerResource: number;
    provider: Measured;
    bare: Measured;
    /** The plain HTTP client; none for a no-change diff (it makes no call). */
    plain?: Measured;
    /** After create: `__provider` and state bytes per resource. */
    bytes?: { provider: Bytes; bare: Bytes };
}

export interface PacedRow {
    resource: string;
    operation: Operation;
    n: number;
    measured: Measured;
    floor: { calls: number; seconds: number; how: string };
}

export interface Results {
    date: string;
    machine: MachineNote;
    flags: Flags;
    overhead: ResultRow[];
    memory?: {
        resources: number;
        idleHostPeakMb?: number;
        providerHostPeakMb?: number;
        bareHostPeakMb?: number;
        providerOverBareMb?: number;
        failures: string[];
    };
    paced: PacedRow[];
}

const fixed = (x: number, digits = 2) => x.toFixed(digits);
const ratio = (a: number, b: number | undefined) => (b === undefined || b === 0 ? "-" : `${fixed(a / b)}×`);

/**
 * The lowest and highest provider ÷ bare ratio of one repetition (the two contenders' runs of the
 * same round): how far a single run's ratio moves, beside the ratio of the medians.
 */
function pairedRange(row: ResultRow): string {
    const p = row.provider.repSeconds ?? [];
    const b = row.bare.repSeconds ?? [];
    const ratios = p.slice(0, b.length).filter((_, i) => b[i] > 0).map((x, i) => x / b[i]);
    return ratios.length < 2 ? "-" : `${fixed(Math.min(...ratios))}–${fixed(Math.max(...ratios))}`;
}

/** Rows of cells as a Markdown table, so the README can quote it as printed. */
function table(header: string[], rows: string[][]): string {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
    return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

export function printResults(r: Results): void {
    const f = r.flags;
    const m = r.machine;
    console.log(`\n${r.date}, ${m.cpus} cores (${m.cpuModel}), ${m.memoryGb} GB, Node ${m.node}, load ${m.loadBefore.join(" ")} → ${m.loadAfter?.join(" ") ?? "?"}`);
    console.log(
        `\nRun 1: through Pulumi's dynamic-provider host, ${f.latencyMs} ms added per round trip, no rate limits, ` +
            `parallelism ${f.parallelism}, provider at VASTAI_TIME_SCALE=${f.timeScale}. Calls per resource (all calls, and 429s met); ` +
            `seconds for all n, the median of ${f.reps ?? 1} runs${f.instanceReps ? ` (${f.instanceReps} for instances)` : ""} (the contenders' order turning round each run); ×bare = provider ÷ bare dynamic provider (what the provider adds), ` +
            `×bare per run = the lowest and highest of that ratio within one run, bare×plain = bare ÷ plain HTTP client ` +
            `(what Pulumi's host costs), ×plain = provider ÷ plain HTTP client (both); host CPU = ms of CPU the host process spent on the operation, provider / bare (median).\n`,
    );
    const perResource = (x: Measured, n: number) => `${fixed(x.calls / n)} (${x.calls}${x.rateLimited ? `, ${x.rateLimited}× 429` : ""})`;
    console.log(
        table(
            ["resource", "operation", "n", "calls", "min", "bare calls", "provider s", "bare s", "plain s", "×bare", "×bare per run", "bare×plain", "×plain", "host CPU ms", "failures"],
            r.overhead.map((row) => [
                row.resource,
                row.operation,
                String(row.n),
                perResource(row.provider, row.n),
                String(row.minimumCallsPerResource),
                perResource(row.bare, row.n),
                fixed(row.provider.seconds),
                fixed(row.bare.seconds),
                row.plain ? fixed(row.plain.seconds) : "-",
                ratio(row.provider.seconds, row.bare.seconds),
                pairedRange(row),
                ratio(row.bare.seconds, row.plain?.seconds),
                ratio(row.provider.seconds, row.plain?.seconds),
                `${row.provider.hostCpuMs ?? "?"} / ${row.bare.hostCpuMs ?? "?"}`,
                String(row.provider.failures.length + row.bare.failures.length + (row.plain?.failures.length ?? 0)),
            ]),
        ),
    );
    const beyond = r.overhead.flatMap((row) => {
        if (row.provider.calls <= row.bare.calls) return [];
        const extra = Object.entries(row.provider.routes ?? {}).filter(([route]) => !(route in (row.bare.routes ?? {})));
        return extra.map(([route, count]) => `${row.resource} ${row.operation}: ${route} ×${count}${WHY_BEYOND_BARE[route] ? ` (${WHY_BEYOND_BARE[route]})` : ""}`);
    });
    if (beyond.length > 0) console.log(`\nCalls the bare provider does not make: ${beyond.join("; ")}.`);
    const split = r.overhead.filter((row) => row.provider.afterFirstCallSeconds !== undefined && row.bare.afterFirstCallSeconds !== undefined);
    if (split.length > 0) {
        console.log(
            "\nThe same operations split where their first call reaches the service (medians): before it, what is paid once per " +
                "host process (the first run of each contender's code, its client's making); after it, what every call costs.\n",
        );
        console.log(
            table(
                ["resource", "operation", "first call ms provider / bare / plain", "after it s provider / bare", "after it ×bare"],
                split.map((row) => [
                    row.resource,
                    row.operation,
                    [row.provider, row.bare, row.plain].map((m) => (m?.firstCallMs === undefined ? "-" : String(Math.round(m.firstCallMs)))).join(" / "),
                    `${fixed(row.provider.afterFirstCallSeconds!)} / ${fixed(row.bare.afterFirstCallSeconds!)}`,
                    ratio(row.provider.afterFirstCallSeconds!, row.bare.afterFirstCallSeconds),
                ]),
            ),
        );
    }
    const loads = r.overhead.filter((row) => row.operation === "create" && row.provider.loadMs !== undefined);
    if (loads.length > 0) {
        console.log(
            "\nFirst call in a host, loading the provider's code (once per command, not in the seconds above): " +
                loads.map((row) => `${row.resource} provider ${row.provider.loadMs} ms, bare ${row.bare.loadMs ?? "?"} ms`).join("; "),
        );
    }
    const sized = r.overhead.filter((row) => row.bytes);
    if (sized.length > 0) {
        console.log("");
        console.log(
            table(
                ["resource", "__provider bytes", "state bytes", "bare __provider bytes", "bare state bytes"],
                sized.map((row) => [row.resource, String(row.bytes!.provider.providerBytes), String(row.bytes!.provider.stateBytes), String(row.bytes!.bare.providerBytes), String(row.bytes!.bare.stateBytes)]),
            ),
        );
    }
    if (r.memory) {
        const mem = r.memory;
        console.log(
            `\nHost peak memory (VmHWM) after creating ${mem.resources} templates: provider ${mem.providerHostPeakMb} MB, ` +
                `bare dynamic provider ${mem.bareHostPeakMb} MB, difference ${mem.providerOverBareMb} MB (an idle host: ${mem.idleHostPeakMb} MB)` +
                (mem.failures.length ? `; ${mem.failures.length} failures` : ""),
        );
    }
    for (const row of [...r.overhead, ...r.paced]) {
        const failures = "measured" in row ? row.measured.failures : [...row.provider.failures, ...row.bare.failures, ...(row.plain?.failures ?? [])];
        if (failures.length > 0) console.log(`${row.resource} ${row.operation}: ${failures.length} failures, first: ${failures[0]}`);
    }
    if (r.paced.length === 0) return;
    console.log(
        `\nRun 2: ${r.paced[0].n} instances under the live per-endpoint intervals (emulator rate limiter at scale 1, ` +
            `provider at VASTAI_TIME_SCALE=1), ${f.latencyMs} ms per round trip; each floor as its last column says.\n`,
    );
    console.log(
        table(
            ["operation", "n", "calls", "floor calls", "seconds", "floor s", "×floor", "429s", "failures", "floor"],
            r.paced.map((row) => [
                row.operation,
                String(row.n),
                String(row.measured.calls),
                String(row.floor.calls),
                fixed(row.measured.seconds),
                fixed(row.floor.seconds),
                row.floor.seconds > 0 ? ratio(row.measured.seconds, row.floor.seconds) : "-",
                String(row.measured.rateLimited),
                String(row.measured.failures.length),
                row.floor.how,
            ]),
        ),
    );
}
