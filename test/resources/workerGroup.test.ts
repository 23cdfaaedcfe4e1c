import { Template, WorkerGroup } from "../../provider";
import { WorkerGroupArgs } from "../../provider/resources/workerGroup/workerGroupArgs";
import { Fault } from "../../testkit/emulator/faults";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { clientFor } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

/**
 * A Serverless worker group through Pulumi's dynamic-provider host against the emulator: on an
 * endpoint made with the client and a Template resource, its workers rented by the emulator's
 * autoscaler; edited in place; a lost create found by the key in its launch_args, not sent twice;
 * destroyed with its workers, which the emulator (as the service) keeps after a group's delete.
 */
const GROUPS = "/api/v0/autojobs/";

describe("WorkerGroup through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    // Round 0: the autoscaler looks at every group before each request.
    beforeAll(async () => {
        stack = await startStack({ emulator: { autoscalerRoundMs: 0 } });
    });
    afterAll(() => stack.stop());
    beforeEach(() => stack.emu.clearLog());
    afterEach(async () => {
        stack.emu.faults.clear();
        await stack.engine.destroy();
    });

    /** A machine of its own with three offers of the GPU model `gpu` at $0.5/hour, and an endpoint for groups. */
    async function market(gpu: string): Promise<number> {
        const { emu } = stack;
        const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: gpu });
        for (let i = 0; i < 3; i++) emu.addOffer({ status: "running" }, 0.5, machine.id);
        return clientFor(emu).serverless.createEndpoint({ endpoint_name: `ep-${gpu.replace(/ /g, "-")}` });
    }

    const liveGroups = () => [...stack.emu.model.workergroups.values()].filter((g) => !g.deleted);
    const liveWorkers = () => stack.emu.liveInstances().filter((i) => i.worker !== undefined);

    function program(name: string, endpointId: number, gpu: string, over: Partial<WorkerGroupArgs> = {}, templateEnv: Record<string, string> = {}) {
        return () => {
            const template = new Template(`${name}-tpl`, { name: `${name}-tpl`, image: "vastai/vllm", env: templateEnv });
            const group = new WorkerGroup(name, {
                endpointId,
                templateHashId: template.hashId,
                offer: { filters: { gpu_name: { eq: gpu }, gpu_ram: { gte: 24000 } }, maxPricePerHour: 1 },
                launch: { diskGb: 16, env: { MODEL: "qwen 8b" }, onstart: "echo 'up'" },
                coldWorkers: 2,
                maxWorkers: 3,
                ...over,
            });
            return [template, group];
        };
    }

    it("check refuses an unknown filter field and coldWorkers above maxWorkers, naming the field, before any request", async () => {
        const { emu, host } = stack;
        const before = emu.requests.length;
        const base = { endpointId: 1, templateHashId: "abc", maxWorkers: 2 };
        for (const [args, property, reason] of [
            [{ ...base, offer: { filters: { gpu_nam: { eq: "RTX 4090" } } } }, "offer.filters.gpu_nam", /gpu_name/],
            [{ ...base, coldWorkers: 3 }, "coldWorkers", /above maxWorkers 2/],
            [{ ...base, offer: { filters: { gpu_name: { eq: "RTX_4090" } } } }, "offer.filters.gpu_name.eq", /query language/],
        ] as const) {
            const [reg] = await registerAsProgram(() => new WorkerGroup("bad", args as never));
            const checked = await host.check(host.urn(reg.type, reg.name), {}, reg.inputs);
            expect(checked.failures).toEqual([expect.objectContaining({ property, reason: expect.stringMatching(reason) })]);
        }
        expect(emu.requests.length).toBe(before);
    });

    it("comes up, its workers shown on refresh; a second up changes nothing; edits are in place; destroy leaves no group and no worker", async () => {
        const { emu, engine } = stack;
        const endpointId = await market("WG LIFE");
        await engine.up(program("life", endpointId, "WG LIFE"));
        const [group] = liveGroups();
        expect(engine.get("life")).toMatchObject({ id: String(group.id), outputs: { workerGroupId: group.id, endpointId } });
        // The search as the service parsed it: GB as MB, the ceiling and the vendor CLI's default terms.
        expect(group.searchQuery).toEqual({
            gpu_name: { eq: "WG LIFE" },
            gpu_ram: { gte: 24000 },
            dph_total: { lte: "1" },
            verified: { eq: true },
            rentable: { eq: true },
            rented: { eq: false },
        });
        expect(group.settings).toMatchObject({ cold_workers: 2, max_workers: 3, template_hash: engine.get("life-tpl").outputs.hashId });
        expect(group.settings.launch_args).toMatch(/^--disk 16 --env '-e MODEL="qwen 8b" -e PULUMI_VASTAI_WORKER_GROUP=[0-9a-f]+\.0' --onstart-cmd "echo 'up'"$/);

        emu.autoscale();
        await engine.refresh();
        const workers = liveWorkers().filter((w) => w.worker?.workergroupId === group.id);
        expect(workers).toHaveLength(2);
        expect(engine.get("life").outputs.workers).toEqual(workers.map((w) => ({ instanceId: w.id, status: expect.any(String), pricePerHour: 0.5 })));
        expect(engine.get("life").outputs.launch).toEqual({ diskGb: 16, env: { MODEL: "qwen 8b" }, onstart: "echo 'up'" });

        expect((await engine.up(program("life", endpointId, "WG LIFE"))).same.sort()).toEqual(["life", "life-tpl"]);

        const fewer = await engine.up(program("life", endpointId, "WG LIFE", { coldWorkers: 1 }));
        expect(fewer).toMatchObject({ update: ["life"], replace: [] });
        expect(liveGroups()).toEqual([expect.objectContaining({ id: group.id, settings: expect.objectContaining({ cold_workers: 1 }) })]);
        // The group keeps the key it was made with.
        expect(liveGroups()[0].settings.launch_args).toMatch(/WORKER_GROUP=[0-9a-f]+\.0'/);

        // A new template hash is sent in place.
        const retemplated = await engine.up(program("life", endpointId, "WG LIFE", { coldWorkers: 1 }, { NEW: "1" }));
        expect(retemplated.replace).toEqual([]);
        expect(retemplated.update.sort()).toEqual(["life", "life-tpl"]);
        expect(liveGroups()[0]).toMatchObject({ id: group.id, settings: { template_hash: engine.get("life-tpl").outputs.hashId } });

        emu.autoscale();
        expect(liveWorkers().length).toBeGreaterThan(0);
        await engine.destroy();
        expect(liveGroups()).toEqual([]);
        expect(liveWorkers()).toEqual([]);
    });

    it.each([
        ["RESET", { kind: "lostResponse" as const }],
        ["FIVE HUNDRED", { kind: "lostResponse" as const, status: 500 }],
    ])("a create whose response is lost (%s) is found by its key: one group, in state; a faulted lookup too", async (what, fault: Fault) => {
        const { emu, engine } = stack;
        const gpu = `WG LOST ${what}`;
        const endpointId = await market(gpu);
        emu.faults.add({ method: "POST", path: GROUPS, fault });
        // The listing before the create passes; the lookup's first listing fails.
        emu.faults.add({ method: "GET", path: GROUPS, fault: { kind: "reset" }, after: 1, times: 1 });
        await engine.up(program("lost", endpointId, gpu));
        const groups = liveGroups();
        expect(groups).toHaveLength(1);
        expect(engine.get("lost").id).toBe(String(groups[0].id));
        expect(emu.requests.filter((r) => r.method === "POST" && r.path === GROUPS)).toHaveLength(1);
        expect(emu.requests.filter((r) => r.method === "GET" && r.path === GROUPS && r.fault === "reset")).toHaveLength(1);
    });

    it("an up that stopped after its create was made leaves the group to the next up, which takes it over instead of creating another", async () => {
        const { emu, engine } = stack;
        const endpointId = await market("WG TAKEOVER");
        // The answer lost and every look after it failing: the up fails, and no state holds the group.
        emu.faults.add({ method: "POST", path: GROUPS, fault: { kind: "lostResponse" } });
        emu.faults.add({ method: "GET", path: GROUPS, fault: { kind: "status", status: 503 }, after: 1, times: 10_000 });
        const failure = await engine.up(program("taken", endpointId, "WG TAKEOVER")).catch((e: Error) => e);
        expect(codeIn(failure)).toBe("lost_create_undecided");
        expect(() => engine.get("taken")).toThrow();
        const [made] = liveGroups();

        emu.faults.clear();
        await engine.up(program("taken", endpointId, "WG TAKEOVER", { coldWorkers: 1 }));
        expect(liveGroups()).toEqual([expect.objectContaining({ id: made.id, settings: expect.objectContaining({ cold_workers: 1 }) })]);
        expect(engine.get("taken").id).toBe(String(made.id));
        expect(emu.requests.filter((r) => r.method === "POST" && r.path === GROUPS)).toHaveLength(1);
    });

    it("a destroy whose worker destroys keep failing fails with workers_remain, naming them, and stays in state; the next destroy finishes", async () => {
        const { emu, engine } = stack;
        const endpointId = await market("WG STUCK");
        await engine.up(program("stuck", endpointId, "WG STUCK"));
        emu.autoscale();
        const workers = liveWorkers();
        expect(workers).toHaveLength(2);
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/instances\/\d+\/?$/, fault: { kind: "status", status: 500 }, times: 1000 });
        const failure = await engine.destroy().catch((e: Error) => e);
        expect(codeIn(failure)).toBe("workers_remain");
        for (const w of workers) expect(String(failure)).toContain(`instance ${w.id}`);
        expect(engine.get("stuck").id).toBe(String(engine.get("stuck").outputs.workerGroupId));
        expect(liveGroups()).toEqual([]);

        emu.faults.clear();
        await engine.destroy();
        expect(liveWorkers()).toEqual([]);
        expect(() => engine.get("stuck")).toThrow();
    });
});
