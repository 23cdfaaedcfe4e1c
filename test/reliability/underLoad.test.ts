import { ApiKey, Endpoint, Instance, SshKey, Template, WorkerGroup, apiKeyPermissions } from "../../provider";
import { Fault } from "../../testkit/emulator/faults";
import { Emulator } from "../../testkit/emulator/server";
import { MiniEngine } from "../../testkit/engine/miniEngine";
import { TEST_TIME_SCALE, startStack } from "../../testkit/support/stack";
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
                ...[...emu.model.keys.values()].filter((k) => k.name.startsWith("key-") && !k.revokedStatus).map((k) => `ApiKey ${k.id}`),
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

/**
 * Serving under load: endpoints and worker groups made and destroyed while the emulator spoils a
 * share of every request, its engine renting workers all along. Whatever fails, every endpoint and
 * group on the account is in state, every worker belongs to a group in state, and a clean run
 * destroys it all: no worker outlives its group.
 */
describe("serverless under load with random faults", () => {
    it("no endpoint, group or worker outside state; a clean destroy leaves none", async () => {
        const stack = await startStack({ emulator: { autoscalerRoundMs: 0 } });
        const { emu, engine } = stack;
        try {
            const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: "LOAD GPU" });
            for (let i = 0; i < 12; i++) emu.addOffer({ status: "running" }, 0.3, machine.id);
            // Endpoints and templates first, then the groups on them by the ids in state: a spoiled up's failed
            // endpoint then fails no group of the same run (the test engine cannot retract a rejected output).
            const base = () =>
                [0, 1, 2].flatMap((i) => [
                    new Template(`serve-tpl-${i}`, { name: `serve-tpl-${i}`, image: "vllm/vllm-openai", tag: "latest" }),
                    new Endpoint(`serve-${i}`, { name: `serve-${i}`, maxWorkers: 4, coldWorkers: 2 }),
                ]);
            const withGroups = () => [
                ...base(),
                ...[0, 1, 2].map(
                    (i) =>
                        new WorkerGroup(`serve-group-${i}`, {
                            endpointId: Number(engine.get(`serve-${i}`).id),
                            templateHashId: engine.get(`serve-tpl-${i}`).outputs.hashId as string,
                            offer: { filters: { gpu_name: { eq: "LOAD GPU" } }, maxPricePerHour: 1 },
                            coldWorkers: 2,
                            maxWorkers: 2,
                        }),
                ),
            ];
            const tracked = () => new Set([...engine.state.values()].map((e) => `${e.type.split(":").pop()} ${e.id}`));
            const liveGroups = () => [...emu.model.workergroups.values()].filter((g) => !g.deleted);
            const live = () => [
                ...[...emu.model.endpoints.values()].filter((e) => !e.deleted).map((e) => `Endpoint ${e.id}`),
                ...liveGroups().map((g) => `WorkerGroup ${g.id}`),
            ];
            // A worker is accounted for while its group is in state; one of a group state does not hold is leaked.
            const orphans = () => emu.liveInstances().filter((i) => i.worker !== undefined && !tracked().has(`WorkerGroup ${i.worker.workergroupId}`)).map((i) => i.id);

            for (const [step, seed] of [["base", 21], ["groups", 22], ["destroy", 23]] as const) {
                emu.faults.spoil({ rate: 0.25, kinds: Object.values(FAULT_KINDS), seed });
                const run = step === "base" ? engine.up(base) : step === "groups" ? engine.up(withGroups) : engine.destroy();
                const outcome = await run.then(() => "succeeded", () => "failed, as it may");
                emu.faults.clear();
                emu.autoscale();
                process.stdout.write(`serverless under load: ${step} ${outcome}; ${live().length} endpoints and groups on the service, ${emu.liveInstances().length} workers\n`);
                expect(live().filter((thing) => !tracked().has(thing))).toEqual([]);
                expect(orphans()).toEqual([]);
                if (step !== "destroy") await engine.up(step === "base" ? base : withGroups);
            }
            await engine.destroy();
            emu.autoscale();
            expect({ live: live(), instances: emu.liveInstances().length }).toEqual({ live: [], instances: 0 });
        } finally {
            await stack.stop();
        }
    });
});

/**
 * Every fault kind of the money-safety suite, and the answers that are not about the resource: a
 * 404 page, the 404 `auth_error` a revoked key gets, `success: false`, an answer that comes late,
 * a timeout before the service acted.
 */
const EVERY_KIND: Fault[] = [
    ...Object.values(FAULT_KINDS),
    { kind: "notFoundPage", shape: "detail" },
    { kind: "notFoundPage", shape: "html" },
    { kind: "authError404" },
    { kind: "successFalse" },
    { kind: "lateResponse", delayMs: 150 },
    { kind: "timeout", acted: false },
];

/** What exists on the service of the stack below, as `Type id`. */
function liveThings(emu: Emulator): string[] {
    return [
        ...emu.liveInstances().map((i) => `Instance ${i.id}`),
        ...[...emu.model.templates.values()].filter((t) => !t.deleted && t.creator_id === emu.demoUser.id).map((t) => `Template ${t.id}`),
        ...[...emu.model.keys.values()].filter((k) => k.name.startsWith("key-") && !k.revokedStatus).map((k) => `ApiKey ${k.id}`),
        ...[...emu.model.sshKeys.values()].filter((k) => k.userId === emu.demoUser.id && / ssh-\d+$/.test(k.publicKey)).map((k) => `SshKey ${k.id}`),
    ];
}

/** Money and state: nothing on the service outside state (a replaced one awaiting its delete counts as in it), no resource's instance twice. */
function leaks(emu: Emulator, engine: MiniEngine): string[] {
    const tracked = new Set([...engine.state.values(), ...engine.pendingDeletes].map((e) => `${e.type.split(":").pop()} ${e.id}`));
    const problems = liveThings(emu).filter((t) => !tracked.has(t)).map((t) => `${t} outside state`);
    const held = new Set([...engine.state.values()].map((e) => e.id));
    const byLabel = new Map<string, number[]>();
    for (const i of emu.liveInstances().filter((i) => held.has(String(i.id)))) byLabel.set(String(i.label), [...(byLabel.get(String(i.label)) ?? []), i.id]);
    for (const [label, ids] of byLabel) if (ids.length > 1) problems.push(`instances ${ids.join(", ")} both in state for ${label}`);
    return problems;
}

/** After a clean run: every instance and template in state is on the service, as state says. */
function disagreements(emu: Emulator, engine: MiniEngine): string[] {
    const problems: string[] = [];
    for (const e of engine.state.values()) {
        const type = e.type.split(":").pop();
        if (type === "Instance") {
            const i = emu.model.instances.get(Number(e.id));
            if (!i || i.destroyed) problems.push(`${e.name}: instance ${e.id} is not on the service`);
            else if (i.label !== e.outputs.label || i.effective.image !== e.outputs.image) problems.push(`${e.name}: the service has ${i.label}/${i.effective.image}, state ${e.outputs.label}/${e.outputs.image}`);
        } else if (type === "Template") {
            const t = emu.model.templates.get(Number(e.id));
            if (!t || t.deleted) problems.push(`${e.name}: template ${e.id} is not on the service`);
            else if (t.hash_id !== e.outputs.hashId || t.fields.desc !== e.outputs.desc) problems.push(`${e.name}: the service has ${t.hash_id}/${t.fields.desc}, state ${e.outputs.hashId}/${e.outputs.desc}`);
        }
    }
    return problems;
}

/**
 * Updates, replacements, a refresh and a destroy under load: label edits and new images (an
 * instance on a pinned offer replaced on the same offer), instances rented by search, SSH keys
 * and API keys replaced, template edits, while a quarter of the requests meet any fault; then the
 * same under a 429 storm (the service's intervals three times those the provider paces by,
 * turned-away calls counted, no interval named). After each faulty run nothing is outside state or
 * twice in it; a clean run converges (its plan then empty) with state as the service has it; a
 * last clean destroy leaves nothing.
 */
describe.each([21, 22])("under load, updates and replacements (seed %i)", (seed) => {
    it("nothing leaked or twice in state after any run; clean runs converge, state as the service has it; destroy leaves nothing", async () => {
        const stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 20, runningAfterMs: 80 }, offerReturnAfterMs: 50 } });
        const { emu, engine } = stack;
        const log: string[] = [];
        try {
            const pinned = Array.from({ length: 6 }, () => emu.addOffer().id);
            for (let g = 0; g < 3; g++) {
                for (let k = 0; k < 2; k++) emu.addOffer(undefined, undefined, undefined, { gpu_name: `LOAD-${g}`, verified: true, rentable: true, external: false });
            }
            const program = (v: number) => () => [
                ...pinned.map(
                    (offerId, i) => new Instance(`gpu-${i}`, { offerId, image: v >= 2 && i < 2 ? `busybox:v${v}` : "busybox", label: `gpu-${i}-v${v}` }),
                ),
                ...[0, 1, 2].map((g) => new Instance(`search-${g}`, { offer: { filters: { gpu_name: { eq: `LOAD-${g}` } } }, image: "busybox", label: `search-${g}-v${v}` })),
                ...[0, 1, 2, 3].map((i) => new Template(`tpl-${i}`, { name: `tpl-${i}`, image: "busybox", desc: `template ${i} v${v}` })),
                ...[0, 1, 2].map((i) => new SshKey(`ssh-${i}`, { publicKey: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${"ABC"[i]}${i === 0 ? `v${v}` : ""} ssh-${i}` })),
                ...[0, 1, 2].map(
                    (i) => new ApiKey(`key-${i}`, { name: `key-${i}`, permissions: i === 0 && v % 2 === 0 ? apiKeyPermissions("user_read", "instance_read") : apiKeyPermissions("user_read") }),
                ),
            ];
            const fail = (what: string, problems: string[]) => {
                if (problems.length > 0) throw new Error(`${what}: ${problems.join("; ")}\n${log.join("\n")}`);
            };
            const faulty = async (what: string, op: () => Promise<unknown>, rate: number, offset: number) => {
                emu.faults.spoil({ rate, kinds: EVERY_KIND, seed: seed * 10 + offset });
                const outcome = await op().then(() => "succeeded", () => "failed, as it may");
                log.push(`${what} with ${emu.faults.spoiled} requests spoiled and ${emu.rateLimiter.rejected} 429s so far ${outcome}`);
                emu.faults.clear();
                fail(what, leaks(emu, engine));
            };
            const clean = async (what: string, op: () => Promise<unknown>) => {
                await op().catch((e: Error) => fail(`${what} without faults`, [e.message]));
                fail(`${what} without faults`, [...leaks(emu, engine), ...disagreements(emu, engine)]);
            };

            await clean("up", () => engine.up(program(1)));
            await faulty("an up that edits and replaces", () => engine.up(program(2)), 0.25, 1);
            await clean("the up again", () => engine.up(program(2)));
            expect(emu.liveInstances()).toHaveLength(9);
            await faulty("a refresh", () => engine.refresh(), 0.25, 2);
            await clean("an up after it", () => engine.up(program(2)));

            // A 429 storm: the service's intervals three times those the provider paces by.
            emu.rateLimiter.scale = 3 * TEST_TIME_SCALE;
            emu.rateLimiter.namesThreshold = false;
            emu.rateLimiter.countsRejections = true;
            await faulty("an up in a 429 storm", () => engine.up(program(3)), 0.1, 3);
            await faulty("a destroy in a 429 storm", () => engine.destroy(), 0.1, 4);
            emu.rateLimiter.scale = TEST_TIME_SCALE;
            process.stdout.write(`under load, updates (seed ${seed}): ${log.join("; ")}\n`);
            expect(emu.rateLimiter.rejected).toBeGreaterThan(0);

            await clean("a destroy", () => engine.destroy());
            expect(liveThings(emu)).toEqual([]);
            expect(engine.state.size).toBe(0);
        } finally {
            await stack.stop();
        }
    });
});
