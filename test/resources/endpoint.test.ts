import { Endpoint, EndpointArgs } from "../../provider";
import { VastClient } from "../../provider/client/vastClient";
import { pluginTypeToken } from "../../provider/dynamic/typeTokens";
import { Emulator } from "../../testkit/emulator/server";
import { PluginResource } from "../../testkit/host/pluginResource";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { codeIn } from "../../testkit/support/errorCode";
import { clientFor, eventually } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * A Serverless endpoint through Pulumi's dynamic-provider host against the emulator: created,
 * planned again with no change, its scaling updated in place, drift shown by a refresh, destroyed;
 * a lost create answer found by the listing, not sent again, a lookup that faults too; a delete
 * that destroys the workers the service keeps, and one whose workers cannot be destroyed, which
 * fails naming them and keeps the endpoint in state. Imported by id through the plugin.
 */
const ENDPOINTS = "/api/v0/endptjobs/";

const liveEndpoints = (emu: Emulator) => [...emu.model.endpoints.values()].filter((e) => !e.deleted && e.ownerId === emu.demoUser.id);

describe("Endpoint through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    let vast: VastClient;
    beforeAll(async () => {
        stack = await startStack();
        vast = clientFor(stack.emu);
    });
    afterAll(() => stack.stop());
    beforeEach(() => stack.emu.clearLog());
    afterEach(async () => {
        stack.emu.faults.clear();
        await stack.engine.destroy();
    });

    const program = (args: EndpointArgs, name = "llm") => () => new Endpoint(name, args);

    it("check refuses bad input, naming the field, before any request", async () => {
        const { emu, host } = stack;
        const before = emu.requests.length;
        for (const [args, property, reason] of [
            [{ name: "has (parens)" }, "name", /letters, digits, spaces, dots, underscores or hyphens/],
            [{ name: "ok", targetUtil: 1.5 }, "targetUtil", /fraction above 0, at most 1/],
            [{ name: "ok", targetUtil: 0 }, "targetUtil", /fraction above 0, at most 1/],
            [{ name: "ok", coldWorkers: 1.5 }, "coldWorkers", /whole number of workers/],
            [{ name: "ok", coldWorkers: 6, maxWorkers: 2 }, "coldWorkers", /coldWorkers \(6\) must be at most maxWorkers \(2\)/],
            // The default maxWorkers (16) counts too.
            [{ name: "ok", coldWorkers: 17 }, "coldWorkers", /must be at most maxWorkers \(16\)/],
            [{ name: "ok", maxQueueTime: 5, targetQueueTime: 10 }, "targetQueueTime", /must be at most maxQueueTime \(5 s\)/],
            [{ name: "ok", state: "paused" }, "state", /active.*suspended.*stopped/],
        ] as const) {
            const [reg] = await registerAsProgram(program(args as never, "bad"));
            const checked = await host.check(host.urn(reg.type, reg.name), {}, reg.inputs);
            expect(checked.failures).toEqual([expect.objectContaining({ property, reason: expect.stringMatching(reason) })]);
        }
        const [reg] = await registerAsProgram(program({ name: "ok" }, "computed"));
        const given = await host.check(host.urn(reg.type, reg.name), {}, { ...reg.inputs, endpointId: 3 });
        // Named in the reason, as the runtime reports a property that is not an input.
        expect(given.failures).toEqual([{ property: "", reason: "endpointId is set by the service and cannot be given" }]);
        expect(emu.requests.length).toBe(before);
    });

    it("up creates it; the next plan is empty; a scaling change updates in place; refresh shows drift; destroy leaves none", async () => {
        const { emu, engine } = stack;
        expect((await engine.up(program({ name: "vllm-qwen3", coldWorkers: 1, maxWorkers: 4, maxQueueTime: 60 }))).create).toEqual(["llm"]);
        const [made] = liveEndpoints(emu);
        expect(emu.requestsTo("POST", ENDPOINTS)).toHaveLength(1);
        // The full settings, the documented defaults filled in.
        expect(emu.requestsTo("POST", ENDPOINTS)[0].body).toMatchObject({
            endpoint_name: "vllm-qwen3",
            min_load: 1,
            min_cold_load: 0,
            target_util: 0.9,
            cold_mult: 3,
            cold_workers: 1,
            max_workers: 4,
            max_queue_time: 60,
            endpoint_state: "active",
        });
        const first = engine.get("llm");
        expect(first.id).toBe(String(made.id));
        expect(first.outputs).toMatchObject({ endpointId: made.id, name: "vllm-qwen3", state: "active", coldWorkers: 1, maxWorkers: 4, maxQueueTime: 60, accountId: emu.demoUser.id });
        expect(first.outputs.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
        // The endpoint's token never reaches state nor the host's output.
        expect(JSON.stringify([...engine.state.values()])).not.toContain(made.apiKey);
        expect(stack.host.output.join("\n")).not.toContain(made.apiKey);

        expect((await engine.up(program({ name: "vllm-qwen3", coldWorkers: 1, maxWorkers: 4, maxQueueTime: 60 }))).same).toEqual(["llm"]);

        const scaled = await engine.up(program({ name: "vllm-qwen3", coldWorkers: 2, maxWorkers: 8, targetUtil: 0.7, maxQueueTime: 60, state: "suspended" }));
        expect(scaled).toMatchObject({ update: ["llm"], replace: [], create: [] });
        expect(engine.get("llm").id).toBe(first.id);
        expect(emu.requestsTo("PUT", `${ENDPOINTS}${made.id}/`).at(-1)!.body).toMatchObject({ endptjob_id: made.id, cold_workers: 2, max_workers: 8, target_util: 0.7, endpoint_state: "suspended", max_queue_time: 60 });
        expect(made.settings).toMatchObject({ cold_workers: 2, max_workers: 8, target_util: 0.7, endpoint_state: "suspended" });

        // A rename is an update too: the service renames in place.
        expect((await engine.up(program({ name: "vllm-renamed", coldWorkers: 2, maxWorkers: 8, targetUtil: 0.7, maxQueueTime: 60, state: "suspended" }))).update).toEqual(["llm"]);
        expect(engine.get("llm").id).toBe(first.id);
        expect(made.settings.endpoint_name).toBe("vllm-renamed");

        // Drift made outside Pulumi, with the client: the refresh reads it; the program's next up puts it back.
        await vast.serverless.updateEndpoint(made.id, { endpoint_name: "vllm-renamed", max_workers: 12, endpoint_state: "active" });
        expect((await engine.refresh()).update).toEqual(["llm"]);
        expect(engine.get("llm").outputs).toMatchObject({ maxWorkers: 12, state: "active" });
        expect((await engine.up(program({ name: "vllm-renamed", coldWorkers: 2, maxWorkers: 8, targetUtil: 0.7, maxQueueTime: 60, state: "suspended" }))).update).toEqual(["llm"]);
        expect(made.settings).toMatchObject({ max_workers: 8, endpoint_state: "suspended" });

        // A queue time left out is the service's to keep: no change planned, still shown.
        expect((await engine.up(program({ name: "vllm-renamed", coldWorkers: 2, maxWorkers: 8, targetUtil: 0.7, state: "suspended" }))).same).toEqual(["llm"]);
        expect(engine.get("llm").outputs.maxQueueTime).toBe(60);

        expect(await engine.destroy()).toEqual(["llm"]);
        expect(liveEndpoints(emu)).toEqual([]);
        expect((await engine.refresh()).delete).toEqual([]);
    });

    it("a name the account has is refused before any create, naming the endpoint and what to do", async () => {
        const { emu, engine } = stack;
        const existingId = await vast.serverless.createEndpoint({ endpoint_name: "taken-name" });
        emu.clearLog();
        const refused = await engine.up(program({ name: "taken-name" })).catch((e) => e);
        expect(codeIn(refused)).toBe("already_on_account");
        expect(refused.message).toContain(`the account has an endpoint of this name already (endpoint ${existingId})`);
        expect(refused.message).toContain(`\`pulumi import\` by id ${existingId}`);
        expect(emu.requestsTo("POST", ENDPOINTS)).toEqual([]);
        await vast.serverless.deleteEndpoint(existingId);
    });

    it("adopts an endpoint the account has by its id with no create call, set to the program's settings; a missing id is refused", async () => {
        const { emu, engine } = stack;
        const existingId = await vast.serverless.createEndpoint({ endpoint_name: "made-in-console", max_workers: 3, cold_workers: 1 });
        emu.clearLog();
        await engine.up(program({ name: "made-in-console", maxWorkers: 6, coldWorkers: 1, adopt: existingId }));
        expect(emu.requestsTo("POST", ENDPOINTS)).toEqual([]);
        expect(engine.get("llm")).toMatchObject({ id: String(existingId), outputs: { endpointId: existingId, maxWorkers: 6 } });
        expect(liveEndpoints(emu)).toEqual([expect.objectContaining({ id: existingId, settings: expect.objectContaining({ max_workers: 6 }) })]);
        await engine.destroy();
        expect(liveEndpoints(emu)).toEqual([]);

        const missing = await engine.up(program({ name: "nowhere", adopt: 424242 })).catch((e) => e);
        expect(codeIn(missing)).toBe("adopt_not_found");
        expect(emu.requestsTo("POST", ENDPOINTS)).toEqual([]);
    });

    it("a lost create answer is found by the listing, not sent again: one endpoint, in state", async () => {
        const { emu, engine } = stack;
        emu.faults.add({ method: "POST", path: ENDPOINTS, fault: { kind: "lostResponse" } });
        await engine.up(program({ name: "lost-answer" }));
        expect(emu.requestsTo("POST", ENDPOINTS)).toHaveLength(1);
        const made = liveEndpoints(emu);
        expect(made).toHaveLength(1);
        expect(engine.get("llm")).toMatchObject({ id: String(made[0].id), outputs: { endpointId: made[0].id, name: "lost-answer" } });
    });

    it("a lost create answer whose lookup faults too (a 500 after handling, then a reset): still one endpoint, in state", async () => {
        const { emu, engine } = stack;
        emu.faults.add({ method: "POST", path: ENDPOINTS, fault: { kind: "lostResponse", status: 500 } });
        // The listing before the create passes; the lookup's first listing is cut.
        emu.faults.add({ method: "GET", path: ENDPOINTS, fault: { kind: "reset" }, after: 1 });
        await engine.up(program({ name: "lost-and-looked" }));
        expect(emu.faults.pending).toBe(0); // both faults were met
        expect(emu.requestsTo("POST", ENDPOINTS)).toHaveLength(1);
        const made = liveEndpoints(emu);
        expect(made).toHaveLength(1);
        expect(engine.get("llm").id).toBe(String(made[0].id));
    });

    /** A worker group on the endpoint, made with the client, on a market of its own; the autoscaler rents `count` workers. */
    async function workersOn(endpointId: number, count: number): Promise<number[]> {
        const { emu } = stack;
        const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: "RTX 4090", num_gpus: 8 });
        for (let i = 0; i < count + 1; i++) emu.addOffer({ status: "running" }, 0.5, machine.id);
        const template = emu.model.addTemplate(emu.demoUser.id, { name: `worker-${endpointId}`, image: "vastai/vllm", tag: "latest", runtype: "args", recommended_disk_space: 32, private: true });
        const groupId = await vast.serverless.createWorkerGroup({ endpoint_id: endpointId, template_hash: template.hash_id, search_params: `machine_id=${machine.id}`, cold_workers: count });
        return eventually(async () => {
            emu.autoscale();
            const workers = emu.model.workersOf(groupId).map((w) => w.id);
            return workers.length === count && workers;
        });
    }

    const workersOfEndpoint = (emu: Emulator, endpointId: number) => emu.liveInstances().filter((i) => i.worker?.endpointId === endpointId);

    it("destroy deletes the endpoint and destroys the workers the service keeps of its group", async () => {
        const { emu, engine } = stack;
        await engine.up(program({ name: "with-workers", coldWorkers: 2, maxWorkers: 3 }));
        const endpointId = Number(engine.get("llm").id);
        const workers = await workersOn(endpointId, 2);
        expect(workersOfEndpoint(emu, endpointId)).toHaveLength(2);

        expect(await engine.destroy()).toEqual(["llm"]);
        expect(liveEndpoints(emu)).toEqual([]);
        expect(workersOfEndpoint(emu, endpointId)).toEqual([]);
        for (const id of workers) expect(emu.requestsTo("DELETE", `/api/v0/instances/${id}/`).length).toBeGreaterThan(0);
    });

    it("a delete whose workers cannot be destroyed fails with workers_remain, naming them, and keeps the endpoint in state", async () => {
        const { emu, engine } = stack;
        await engine.up(program({ name: "stuck-workers", coldWorkers: 1, maxWorkers: 2 }));
        const endpointId = Number(engine.get("llm").id);
        const [worker] = await workersOn(endpointId, 1);
        const refusal = { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: "cannot destroy this instance now" } } as const;
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/instances\/\d+\/$/, fault: refusal, times: 1000 });

        const failed = await engine.destroy().catch((e) => e);
        expect(codeIn(failed)).toBe("workers_remain");
        expect(failed.message).toContain(`delete endpoint ${endpointId} failed: its workers are still running`);
        expect(failed.message).toContain(`instance ${worker}`);
        expect(engine.get("llm")?.id).toBe(String(endpointId));
        expect(workersOfEndpoint(emu, endpointId).map((w) => w.id)).toEqual([worker]);

        // The next destroy goes on: the endpoint is gone already, its worker is destroyed now.
        emu.faults.clear();
        expect(await engine.destroy()).toEqual(["llm"]);
        expect(workersOfEndpoint(emu, endpointId)).toEqual([]);
    });
});

describe("Endpoint imported through the provider plugin", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: true } });
    });
    afterAll(() => stack.stop());

    it("is read by its id with no create call; the program that says it plans no change; a scaling change updates it in place", async () => {
        const { emu, engine } = stack;
        const vast = clientFor(emu);
        const endpointId = await vast.serverless.createEndpoint({ endpoint_name: "from-console", cold_workers: 2, max_workers: 6, target_util: 0.8 });
        const args = { name: "from-console", coldWorkers: 2, maxWorkers: 6, targetUtil: 0.8 };
        const declare = (a: object) => () => new PluginResource("endpoint", "imported", a);
        emu.clearLog();

        const [imported] = await engine.run([{ up: declare(args), import: { imported: String(endpointId) } }]);
        expect(imported.import).toEqual(["imported"]);
        expect(emu.requestsTo("POST", ENDPOINTS)).toEqual([]);
        expect(engine.get("imported")).toMatchObject({ id: String(endpointId), type: pluginTypeToken("endpoint"), outputs: { endpointId, name: "from-console", maxWorkers: 6, state: "active" } });
        expect(JSON.stringify(engine.get("imported"))).not.toContain(emu.model.endpoints.get(endpointId)!.apiKey);

        const plan = await engine.preview(declare({ ...args, maxWorkers: 7 }));
        expect(plan).toEqual([{ op: "update", name: "imported", type: pluginTypeToken("endpoint"), because: ["maxWorkers"] }]);
        await engine.up(declare({ ...args, maxWorkers: 7 }));
        expect(engine.get("imported").id).toBe(String(endpointId));
        expect(emu.model.endpoints.get(endpointId)!.settings.max_workers).toBe(7);

        await engine.destroy();
        expect(liveEndpoints(emu)).toEqual([]);
        expect(emu.requestsTo("POST", ENDPOINTS)).toEqual([]);
    });
});
