import { Instance } from "../../provider";
import { CREATE_KEY_ENV } from "../../provider/resources/instance/common/createKey";
import { MiniEngine } from "../../testkit/engine/miniEngine";
import { Emulator } from "../../testkit/emulator/server";
import { FAULT_KINDS } from "../../testkit/support/faultCases";
import { eventually } from "../../testkit/support/fixtures";
import { startStack } from "../../testkit/support/stack";

/**
 * Many instances at once, as Pulumi runs them, while the emulator spoils a share of requests at
 * random and the `up` is killed at a random moment, twice, each time resumed by a fresh host (a
 * new CI runner: nothing passes but the service and the engine's state, which drops the creates
 * the kill cut short). A last clean `up` then converges. Audited: no instance outside state
 * (leaked), no resource with two instances (duplicated), no state entry whose instance is gone
 * (stale), no resource of the program missing from state (dropped).
 */
const INSTANCES = 12;

/** A small seeded generator, so a run repeats. */
function seeded(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state * 1664525 + 1013904223) >>> 0;
        return state / 2 ** 32;
    };
}

/** How many instances the current host's `up` took over from a killed one. */
const tookOver = (engine: MiniEngine) => engine.host.output.filter((l) => l.includes("that stopped before its create returned")).length;

/** The audit's four counts, and the problems behind them. */
function audit(emu: Emulator, engine: MiniEngine, names: string[]): { counts: Record<string, number>; problems: string[] } {
    const live = emu.liveInstances();
    const held = [...engine.state.values()].map((e) => Number(e.id));
    const leaked = live.filter((i) => !held.includes(i.id)).map((i) => `instance ${i.id} outside state`);
    const stale = held.filter((id) => !live.some((i) => i.id === id)).map((id) => `instance ${id} in state, gone from the service`);
    const dropped = names.filter((name) => ![...engine.state.values()].some((e) => e.name === name)).map((name) => `${name} not in state`);
    const slots = new Map<string, number[]>();
    for (const i of live) {
        const slot = String(i.effective.env[CREATE_KEY_ENV] ?? "").split(".")[0];
        slots.set(slot, [...(slots.get(slot) ?? []), i.id]);
    }
    const duplicated = [...slots.values()].filter((ids) => ids.length > 1).map((ids) => `instances ${ids.join(", ")} rented for one resource`);
    return {
        counts: { leaked: leaked.length, duplicated: duplicated.length, stale: stale.length, dropped: dropped.length },
        problems: [...leaked, ...duplicated, ...stale, ...dropped],
    };
}

describe.each([31, 32])("under load with random faults and killed hosts (seed %i)", (seed) => {
    it("two ups killed at random moments and resumed on fresh hosts: 0 leaked, 0 duplicated, 0 stale, 0 dropped", async () => {
        const stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 30, runningAfterMs: 400 }, offerReturnAfterMs: 50 } });
        const { emu, engine } = stack;
        const random = seeded(seed);
        try {
            const gpu = `KILLED-${seed}`;
            const listing = { gpu_name: gpu, num_gpus: 1, verified: true, rentable: true, external: false };
            // The cheapest offers sit on a machine where instances exit: searches fall back to another machine.
            const failing = emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu });
            for (let k = 0; k < 3; k++) emu.addOffer({ status: "exited" }, 0.05, failing.id, listing);
            for (let k = 0; k < 12; k++) emu.addOffer({ status: "running" }, 0.2 + k / 100, emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu }).id, listing);
            const pinned = Array.from({ length: INSTANCES / 2 }, () => emu.addOffer().id);
            const names = [...pinned.map((_, i) => `pinned-${i}`), ...pinned.map((_, i) => `search-${i}`)];
            const program = () => [
                ...pinned.map((offerId, i) => new Instance(`pinned-${i}`, { offerId, image: "busybox", label: `pinned-${i}` })),
                ...pinned.map((_, i) => new Instance(`search-${i}`, { offer: { filters: { gpu_name: { eq: gpu } }, order: [["dph_total", "asc"]] }, image: "busybox", label: `search-${i}` })),
            ];

            const log: string[] = [];
            for (const round of [1, 2]) {
                // Killed once some rents reached the service, and a random while later.
                const rentsBefore = emu.requestsTo("PUT", /^\/api\/v0\/asks\/\d+\/?$/).length;
                const waitMs = Math.floor(50 + random() * 600);
                emu.faults.spoil({ rate: 0.15, kinds: Object.values(FAULT_KINDS), seed: seed * 10 + round });
                const up = engine.up(program).then(() => "finished", () => "killed");
                await eventually(async () => emu.requestsTo("PUT", /^\/api\/v0\/asks\/\d+\/?$/).length > rentsBefore, 20_000);
                await new Promise((resolve) => setTimeout(resolve, waitMs));
                await engine.host.kill();
                const outcome = await up;
                log.push(`up ${round} ${outcome} ${waitMs} ms after its first rent (${emu.faults.spoiled} requests spoiled, ${tookOver(engine)} taken over, ${engine.state.size} in state)`);
                emu.faults.clear();
                await stack.freshHost(); // a fresh runner: only the service and the engine's state carry over
            }
            await engine.up(program);
            const { counts, problems } = audit(emu, engine, names);
            process.stdout.write(
                `under load with kills (seed ${seed}): ${INSTANCES} instances; ${log.join("; ")}; the last up took over ${tookOver(engine)}; ` +
                    `leaked ${counts.leaked}, duplicated ${counts.duplicated}, stale ${counts.stale}, dropped ${counts.dropped}\n`,
            );
            expect(problems).toEqual([]);
            await engine.destroy();
            expect(emu.liveInstances()).toEqual([]);
        } finally {
            await stack.stop();
        }
    });
});
