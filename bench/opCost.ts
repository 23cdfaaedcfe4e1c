import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Instance, Template } from "pulumi-vastai";
import { Emulator } from "../testkit/emulator/server";
import { BareResource } from "./bareProvider";
import { HostSetup, Operation, hostOperation, programResources } from "./steps";

/**
 * `npm run build && node dist/bench/opCost.js [--templates 200 --instances 20 --latency 80 --reps 5
 * --parallelism 8 --time-scale 0 --only template|instance --rounds --profile dir]`
 *
 * A quick look at the operations of run 1 of `npm run bench` (bench/run.ts), without the whole
 * run: template and instance creates, deletes, updates and refreshes, the provider against the
 * bare provider, each `reps` times (which goes first alternates), with the median
 * time of each, their ratio, and the median CPU time each host spent (steadier than the time on a
 * busy machine). `--rounds` prints when each call reached the emulator (a batched read with its
 * number of ids); `--profile dir` writes a V8 CPU profile of every measured host into
 * `dir/provider` and `dir/bare` (open one in Chrome's DevTools).
 */
function flag(name: string, fallback: number): number {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? fallback : Number(process.argv[i + 1]);
}

function textFlag(name: string): string | undefined {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? undefined : process.argv[i + 1];
}

/**
 * Preloaded into a profiled host: profiles it from its start with the inspector and writes the
 * profile when the host is stopped (SIGTERM); `--cpu-prof` is not allowed in NODE_OPTIONS.
 */
const PROFILER = path.join(os.tmpdir(), "vastai-bench-profiler.js");
const PROFILER_TEXT = `
const inspector = require("inspector");
const session = new inspector.Session();
session.connect();
session.post("Profiler.enable", () => session.post("Profiler.start"));
process.on("SIGTERM", () => session.post("Profiler.stop", (err, { profile }) => {
    require("fs").writeFileSync(require("path").join(process.env.VASTAI_BENCH_PROFILE_DIR, "host-" + process.pid + ".cpuprofile"), JSON.stringify(profile));
    process.exit(0);
}));
`;

async function main(): Promise<void> {
    const templates = flag("templates", 200);
    const instances = flag("instances", 20);
    const reps = flag("reps", 5);
    const parallelism = flag("parallelism", 8);
    const profileDir = textFlag("profile");
    const only = textFlag("only");
    const emu = await Emulator.start({
        rateLimitScale: 0,
        latencyMs: flag("latency", 80),
        instanceTimings: { loadingAfterMs: 0, runningAfterMs: 0 },
        offerReturnAfterMs: 0,
    });
    try {
        // As run 1: none of the provider's own waits (`--time-scale`); no rate limits in the emulator.
        const providerSetup: HostSetup = { env: { VASTAI_TIME_SCALE: String(flag("time-scale", 0)) }, config: { "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url } };
        const bareSetup: HostSetup = { env: {}, config: {} };
        /** The setup of a measured host: profiled into `dir/<who>` when asked. */
        const measured = (who: "provider" | "bare"): HostSetup => {
            const setup = who === "provider" ? providerSetup : bareSetup;
            if (!profileDir) return setup;
            const dir = path.resolve(profileDir, who);
            fs.mkdirSync(dir, { recursive: true });
            fs.writeFileSync(PROFILER, PROFILER_TEXT);
            return { ...setup, env: { ...setup.env, NODE_OPTIONS: `--require ${PROFILER}`, VASTAI_BENCH_PROFILE_DIR: dir } };
        };
        const connection = { baseUrl: emu.url, apiKey: emu.demoKey };
        const templateFields = (who: string, i: number, edited: boolean) => ({ name: `${who}-t${i}`, image: "busybox", tag: edited ? "1.37" : "1.36" });
        const offers = () => Array.from({ length: instances }, () => emu.addOffer().id);
        const providerOffers = offers();
        const bareOffers = offers();
        const instanceFields = (offerIds: number[], i: number, edited: boolean) => ({
            offerId: offerIds[i], image: "vastai/base-image:bench", label: edited ? `bench-i${i}-edited` : `bench-i${i}`,
        });
        const kinds = [
            {
                resource: "Template",
                provider: await programResources(templates, (i, e) => new Template(`t${i}`, templateFields("provider", i, e))),
                bare: await programResources(templates, (i, e) => new BareResource(`t${i}`, { kind: "template", ...connection, fields: templateFields("bare", i, e) })),
            },
            {
                resource: "Instance",
                provider: await programResources(instances, (i, e) => new Instance(`i${i}`, { ...instanceFields(providerOffers, i, e), waitForRunning: false })),
                bare: await programResources(instances, (i, e) => new BareResource(`i${i}`, { kind: "instance", ...connection, fields: instanceFields(bareOffers, i, e) })),
            },
        ].filter((k) => !only || k.resource.toLowerCase() === only.toLowerCase());
        for (const kind of kinds) {
            if (kind.provider.length === 0) continue;
            /** Times and host CPU of each contender over the repetitions of one operation. */
            const series = () => ({ times: { provider: [] as number[], bare: [] as number[] }, cpu: { provider: [] as number[], bare: [] as number[] } });
            type Series = ReturnType<typeof series>;
            /** One operation by one contender, into `s`. */
            const measure = async (who: "provider" | "bare", op: Operation, s: Series) => {
                const list = kind[who];
                const from = emu.requests.length;
                const m = await hostOperation(emu, measured(who), op, list, parallelism);
                if (m.failures.length > 0) throw new Error(`${kind.resource} ${op} (${who}): ${m.failures[0]}`);
                s.times[who].push(m.seconds);
                s.cpu[who].push(m.hostCpuMs ?? NaN);
                if (process.argv.includes("--rounds")) {
                    // When each call reached the emulator, ms from the first; a batched read with its number of ids.
                    const seen = emu.requests.slice(from);
                    const t0 = seen[0]?.at ?? 0;
                    const ids = (q: Record<string, string>) => (q.select_filters ? `:${(JSON.parse(q.select_filters).id?.in ?? []).length}` : "");
                    console.log(`  ${who}: ${seen.map((r) => `${r.at - t0}${ids(r.query)}`).join(" ")}`);
                }
            };
            const report = (op: Operation, s: Series) => {
                const p = median(s.times.provider);
                const b = median(s.times.bare);
                console.log(
                    `${kind.resource} ${op} × ${kind.provider.length}: provider ${p.toFixed(3)} s, bare ${b.toFixed(3)} s, ` +
                        `ratio ${(p / b).toFixed(3)} (provider ${fmt(s.times.provider)}; bare ${fmt(s.times.bare)}); ` +
                        `host CPU: provider ${median(s.cpu.provider)} ms, bare ${median(s.cpu.bare)} ms`,
                );
            };
            const orderOf = (rep: number) => (rep % 2 === 0 ? (["provider", "bare"] as const) : (["bare", "provider"] as const));

            // Creates and deletes: each repetition creates every resource, then deletes it.
            const created = series();
            const deleted = series();
            for (let rep = 0; rep < reps; rep++) {
                for (const who of orderOf(rep)) await measure(who, "create", created);
                for (const who of orderOf(rep)) await measure(who, "delete", deleted);
            }
            report("create", created);
            report("delete", deleted);

            await hostOperation(emu, providerSetup, "create", kind.provider, parallelism);
            await hostOperation(emu, bareSetup, "create", kind.bare, parallelism);
            for (const op of ["update", "refresh"] as Operation[]) {
                const s = series();
                for (let rep = 0; rep < reps; rep++) {
                    for (const who of orderOf(rep)) {
                        await measure(who, op, s);
                        // The next update edits back: what the program sends swaps with what it sent.
                        if (op === "update") for (const r of kind[who]) [r.news, r.edited] = [r.edited, r.news];
                    }
                }
                report(op, s);
            }
            await hostOperation(emu, providerSetup, "delete", kind.provider, parallelism);
            await hostOperation(emu, bareSetup, "delete", kind.bare, parallelism);
        }
    } finally {
        await emu.stop();
    }
}

function median(xs: number[]): number {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");

main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
});
