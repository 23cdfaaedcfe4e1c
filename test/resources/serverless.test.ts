import * as pulumi from "@pulumi/pulumi";
import { PROGRAM_PATHS, ProgramPath, declareOn } from "../../testkit/host/pluginResource";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * A model served as a user's program declares it: a Template, an Endpoint and a WorkerGroup on
 * both, through both front doors against the emulator, whose autoscaler (like the service) rents
 * the workers and keeps a deleted group's. Up, an empty second plan, scaling edits in place, and a
 * destroy that leaves no instance, no worker group and no endpoint on the account.
 */
describe.each<ProgramPath>(PROGRAM_PATHS)("a served model through the %s path", (path) => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: path === "plugin" }, emulator: { autoscalerRoundMs: 0 } });
    });
    afterAll(() => stack.stop());
    afterEach(async () => {
        stack.emu.faults.clear();
        await stack.engine.destroy();
    });

    /** `offers` offers of the GPU model `gpu` at $0.40/hour, on a machine of their own. */
    function market(gpu: string, offers: number): void {
        const machine = stack.emu.model.addMachine(stack.emu.otherUser.id, { gpu_name: gpu });
        for (let i = 0; i < offers; i++) stack.emu.addOffer({ status: "running" }, 0.4, machine.id);
    }
    const output = (r: pulumi.CustomResource, name: string) => (r as unknown as Record<string, pulumi.Output<unknown>>)[name];

    function serving(gpu: string, scaling: { maxWorkers: number; coldWorkers: number }) {
        return () => {
            const template = declareOn(path, "template", "server", { name: `server-${path}`, image: "vllm/vllm-openai", tag: "latest" });
            const endpoint = declareOn(path, "endpoint", "llm", { name: `llm-${path}`, maxWorkers: 8, coldWorkers: scaling.coldWorkers });
            const group = declareOn(path, "workerGroup", "llm-gpus", {
                endpointId: output(endpoint, "endpointId"),
                templateHashId: output(template, "hashId"),
                offer: { filters: { gpu_name: { eq: gpu } }, maxPricePerHour: 1 },
                launch: { diskGb: 32 },
                coldWorkers: scaling.coldWorkers,
                maxWorkers: scaling.maxWorkers,
            });
            return [template, endpoint, group];
        };
    }

    it("comes up, its workers rented by the service; edits in place; destroy leaves 0 instances, 0 groups, 0 endpoints", async () => {
        const { emu, engine } = stack;
        const gpu = `SERVE ${path.toUpperCase()}`;
        market(gpu, 4);
        const liveGroups = () => [...emu.model.workergroups.values()].filter((g) => !g.deleted);
        const liveEndpoints = () => [...emu.model.endpoints.values()].filter((e) => !e.deleted);
        const workers = () => emu.liveInstances().filter((i) => i.worker !== undefined);

        const up = await engine.up(serving(gpu, { maxWorkers: 3, coldWorkers: 2 }));
        expect(up.create.sort()).toEqual(["llm", "llm-gpus", "server"]);
        const [group] = liveGroups();
        const [endpoint] = liveEndpoints();
        expect(group).toMatchObject({ endpointId: endpoint.id, settings: { template_hash: engine.get("server").outputs.hashId } });
        emu.autoscale();
        expect(workers().map((w) => w.worker?.workergroupId)).toEqual([group.id, group.id]);

        // The second plan is empty (the engine checks after every up); a scaling change is an update, ids kept.
        const scaled = await engine.up(serving(gpu, { maxWorkers: 4, coldWorkers: 3 }));
        expect(scaled).toMatchObject({ replace: [], create: [] });
        expect(scaled.update.sort()).toEqual(["llm", "llm-gpus"]);
        expect(liveGroups()).toEqual([expect.objectContaining({ id: group.id, settings: expect.objectContaining({ cold_workers: 3, max_workers: 4 }) })]);
        expect(liveEndpoints()).toEqual([expect.objectContaining({ id: endpoint.id, settings: expect.objectContaining({ cold_workers: 3 }) })]);
        emu.autoscale();
        expect(workers()).toHaveLength(3);

        await engine.destroy();
        emu.autoscale();
        expect({ instances: emu.liveInstances(), groups: liveGroups(), endpoints: liveEndpoints() }).toEqual({ instances: [], groups: [], endpoints: [] });
        // The emulator, as the service, kept the deleted group's workers: the provider destroyed them.
        expect(emu.options.deletedGroupWorkers ?? "kept").toBe("kept");
    });

    it("a destroy whose delete responses are lost, and a 404 not about the group, still ends with nothing left and nothing dropped early", async () => {
        const { emu, engine } = stack;
        const gpu = `LOSSY ${path.toUpperCase()}`;
        market(gpu, 3);
        await engine.up(serving(gpu, { maxWorkers: 2, coldWorkers: 2 }));
        emu.autoscale();
        expect(emu.liveInstances().filter((i) => i.worker !== undefined)).toHaveLength(2);

        // A 404 that names another thing: the group is not taken as gone, and stays in state.
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/autojobs\/\d+\/?$/, fault: { kind: "status", status: 404, body: { success: false, error: "not_found", msg: "user not found" } }, times: 1 });
        await expect(engine.destroy()).rejects.toThrow(/not_about_it/);
        expect(engine.get("llm-gpus")).toBeDefined();
        expect(emu.faults.pending).toBe(0);

        // Each delete handled, its response lost: looked at again, never taken for a failure nor for done unseen.
        for (const route of [/^\/api\/v0\/autojobs\/\d+\/?$/, /^\/api\/v0\/endptjobs\/\d+\/?$/, /^\/api\/v0\/instances\/\d+\/?$/]) {
            emu.faults.add({ method: "DELETE", path: route, fault: { kind: "lostResponse" }, times: 1 });
        }
        await engine.destroy();
        expect(emu.faults.pending).toBe(0);
        emu.autoscale();
        expect({ instances: emu.liveInstances().length, groups: [...emu.model.workergroups.values()].filter((g) => !g.deleted).length, endpoints: [...emu.model.endpoints.values()].filter((e) => !e.deleted).length }).toEqual({ instances: 0, groups: 0, endpoints: 0 });
        expect(engine.state.size).toBe(0);
    });

    it("finds the workers by the key in their env when their records do not name the group, and believes a group delete only once it is unlisted", async () => {
        const { emu, engine } = stack;
        const gpu = `UNNAMED ${path.toUpperCase()}`;
        market(gpu, 3);
        await engine.up(serving(gpu, { maxWorkers: 2, coldWorkers: 2 }));
        emu.autoscale();
        expect(emu.liveInstances().filter((i) => i.worker !== undefined)).toHaveLength(2);

        // The emulator's guess at the field wrong: the workers' records say nothing of their group.
        emu.options.workerFieldsShown = false;
        // And the group's delete answered success, the group kept a while: not taken as done meanwhile.
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/autojobs\/\d+\/?$/, fault: { kind: "successIgnored" }, times: 1 });
        try {
            await expect(engine.destroy()).rejects.toThrow(/delete worker group \d+ failed: the service answered that it is deleted, but a read still finds it/);
            expect(engine.get("llm-gpus")).toBeDefined();
            await engine.destroy();
        } finally {
            emu.options.workerFieldsShown = true;
        }
        emu.autoscale();
        expect({ instances: emu.liveInstances().length, groups: [...emu.model.workergroups.values()].filter((g) => !g.deleted).length }).toEqual({ instances: 0, groups: 0 });
    });
});
