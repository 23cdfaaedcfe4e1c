import { ApiKey, Instance, Template, apiKeyPermissions } from "../../provider";
import { startStack } from "../../testkit/support/stack";
import { FAULT_KINDS } from "../../testkit/support/faultCases";

/**
 * Many resources at once, as Pulumi runs them (all steps in flight together), while the emulator
 * spoils a share of every request at random (a fixed seed, so a run repeats): an up, then a
 * refresh and a destroy of everything. Whatever fails, everything that exists on the service is
 * in state exactly once, and a later clean run finishes the job and destroys it all.
 */
describe("under load with random faults", () => {
    it("nothing leaked, duplicated or dropped; a clean run then converges and destroys everything", async () => {
        const stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 20, runningAfterMs: 80 } } });
        const { emu, engine } = stack;
        try {
            const offers = Array.from({ length: 12 }, () => emu.addOffer().id);
            const program = () => [
                ...offers.map((offerId, i) => new Instance(`gpu-${i}`, { offerId, image: "busybox", label: `gpu-${i}` })),
                ...offers.map((_, i) => new Template(`tpl-${i}`, { name: `tpl-${i}`, image: "busybox", desc: `template ${i}` })),
                ...[0, 1, 2, 3].map((i) => new ApiKey(`key-${i}`, { name: `key-${i}`, permissions: apiKeyPermissions("user_read") })),
            ];
            emu.faults.spoil({ rate: 0.2, kinds: Object.values(FAULT_KINDS), seed: 9 });
            const failure = await engine.up(program).then(() => undefined, (e: Error) => e);
            const spoiled = emu.faults.spoiled;
            emu.faults.clear();

            const tracked = () => new Set([...engine.state.values()].map((e) => `${e.type.split(":").pop()} ${e.id}`));
            const live = () => [
                ...emu.liveInstances().map((i) => `Instance ${i.id}`),
                ...[...emu.model.templates.values()].filter((t) => !t.deleted && t.creator_id === emu.demoUser.id).map((t) => `Template ${t.id}`),
                ...[...emu.model.keys.values()].filter((k) => k.name.startsWith("key-") && !k.revokedAnswer).map((k) => `ApiKey ${k.id}`),
            ];
            const outsideState = () => live().filter((thing) => !tracked().has(thing));
            process.stdout.write(`under load: 28 resources, ${spoiled} requests spoiled, up ${failure ? "failed, as it may" : "succeeded"}; ${live().length} on the service, ${tracked().size} in state\n`);
            expect(spoiled).toBeGreaterThan(0);
            expect(outsideState()).toEqual([]);

            await engine.up(program);
            expect(emu.liveInstances()).toHaveLength(12);

            // A refresh and a destroy of everything, two requests in five spoiled: nothing that still exists leaves state.
            for (const [step, seed] of [["refresh", 10], ["destroy", 11]] as const) {
                emu.faults.spoil({ rate: 0.4, kinds: Object.values(FAULT_KINDS), seed });
                const outcome = await (step === "refresh" ? engine.refresh() : engine.destroy()).then(() => "succeeded", () => "failed, as it may");
                process.stdout.write(`under load: ${step} with ${emu.faults.spoiled} requests spoiled ${outcome}; ${live().length} on the service, ${tracked().size} in state\n`);
                emu.faults.clear();
                expect(outsideState()).toEqual([]);
            }
            await engine.destroy();
            expect(emu.liveInstances()).toEqual([]);
            expect([...emu.model.templates.values()].filter((t) => !t.deleted && t.creator_id === emu.demoUser.id)).toEqual([]);
        } finally {
            await stack.stop();
        }
    });
});
