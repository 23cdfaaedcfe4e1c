import { Emulator, EmulatorOptions } from "../../testkit/emulator/server";
// Plain http, as any client: the emulator is tested without the provider's client.
import { RawReply, rawCall as call, rawRequest } from "../../testkit/support/rawCall";
import { eventually, startEmulator } from "../../testkit/support/fixtures";

/**
 * The serverless layer as the emulator serves it, over real sockets: endpoints and worker groups
 * made, listed, changed and deleted as the vendor's clients do it (docs/live-service.md
 * "Serverless: endpoints and worker groups"), refused where the service refuses, and the small
 * autoscaler that rents a group's workers as ordinary instances of the account.
 */

const ENDPOINTS = "/api/v0/endptjobs/";
const AUTOJOBS = "/api/v0/autojobs/";
const WORKERGROUPS = "/api/v0/workergroups/";
const endpoint = (id: number) => `${ENDPOINTS}${id}/`;
const autojob = (id: number) => `${AUTOJOBS}${id}/`;

const withKey = (emu: Emulator, key: string, method: string, path: string, body?: unknown): Promise<RawReply> => rawRequest(emu, method, path, { key, body });

/** An endpoint made as `vastai create endpoint` makes it: every field, the CLI's defaults for the rest. */
async function makeEndpoint(emu: Emulator, fields: Record<string, unknown> = {}): Promise<number> {
    const reply = await call(emu, "POST", ENDPOINTS, {
        client_id: "me",
        min_load: 0.0,
        min_cold_load: 0.0,
        target_util: 0.9,
        cold_mult: 2.5,
        cold_workers: 5,
        max_workers: 20,
        endpoint_name: `ep-${Math.random().toString(36).slice(2, 8)}`,
        max_queue_time: null,
        target_queue_time: null,
        inactivity_timeout: null,
        autoscaler_instance: "prod",
        ...fields,
    });
    expect(reply).toMatchObject({ status: 200, json: { success: true, result: expect.any(Number) } });
    return reply.json.result;
}

/** A template of the demo account's, for groups to run. */
function template(emu: Emulator) {
    return emu.model.addTemplate(emu.demoUser.id, { name: `worker-${Math.random()}`, image: "vastai/vllm", tag: "latest", runtype: "args", recommended_disk_space: 32, private: true });
}

async function makeGroup(emu: Emulator, fields: Record<string, unknown>, path = AUTOJOBS): Promise<number> {
    const reply = await call(emu, "POST", path, { client_id: "me", test_workers: 3, autoscaler_instance: "prod", ...fields });
    expect(reply).toMatchObject({ status: 200, json: { success: true, id: expect.any(Number) } });
    return reply.json.id;
}

async function endpoints(emu: Emulator): Promise<RawReply> {
    return call(emu, "GET", ENDPOINTS, { client_id: "me", api_key: emu.demoKey });
}

async function groups(emu: Emulator): Promise<Array<Record<string, any>>> {
    const reply = await call(emu, "GET", AUTOJOBS, { client_id: "me", api_key: emu.demoKey });
    expect(reply.status).toBe(200);
    return reply.json.results;
}

/** The group's workers as the account's instance listing shows them (a request, so the autoscaler runs first). */
async function workers(emu: Emulator, groupId: number): Promise<Array<Record<string, any>>> {
    const reply = await call(emu, "GET", "/api/v1/instances/?limit=25");
    expect(reply.status).toBe(200);
    return reply.json.instances.filter((i: Record<string, unknown>) => i.workergroup_id === groupId);
}

/** A machine of the market's with `count` offers, so a group's search (`machine_id=...`) finds only these. */
function market(emu: Emulator, count: number, dphTotal = 0.5): { machineId: number; search: string } {
    const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: "RTX 4090", num_gpus: 8 });
    for (let i = 0; i < count; i++) emu.addOffer({ status: "running" }, dphTotal, machine.id);
    return { machineId: machine.id, search: `machine_id=${machine.id} verified=True rentable=True rented=False` };
}

describe("emulator: serverless endpoints", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    it("an account with none: the listing is the 400 the API reference documents", async () => {
        expect(await endpoints(emu)).toMatchObject({ status: 400, json: { success: false, error: "invalid_args", msg: `No endpoints for user ${emu.demoUser.id} found.` } });
    });

    it("create answers {success, result: id}; the listing and the single read show the record, its api_key among it", async () => {
        const before = Date.now() / 1000;
        const id = await makeEndpoint(emu, { endpoint_name: "vLLM-Qwen3-8B", cold_workers: 2, max_workers: 4 });
        const record = {
            id,
            endpoint_name: "vLLM-Qwen3-8B",
            min_load: 0,
            min_cold_load: 0,
            target_util: 0.9,
            cold_mult: 2.5,
            cold_workers: 2,
            max_workers: 4,
            max_queue_time: null,
            target_queue_time: null,
            inactivity_timeout: null,
            endpoint_state: "active",
            api_key: expect.any(String),
            user_id: emu.demoUser.id,
            created_at: expect.any(Number),
            auto_delete_in_seconds: null,
            auto_delete_due_24h: false,
        };
        const listed = await endpoints(emu);
        expect(listed).toMatchObject({ status: 200, json: { success: true } });
        expect(listed.json.results).toEqual([record]);
        expect(listed.json.results[0].created_at).toBeGreaterThanOrEqual(Math.floor(before));
        expect(await call(emu, "GET", endpoint(id))).toMatchObject({ status: 200, json: { success: true, result: record } });
    });

    it("a create with the name alone (the serverless SDK's) takes the documented defaults", async () => {
        const reply = await call(emu, "POST", ENDPOINTS, { endpoint_name: "sdk-defaults" });
        const shown = (await call(emu, "GET", endpoint(reply.json.result))).json.result;
        expect(shown).toMatchObject({ min_load: 1, min_cold_load: 0, target_util: 0.9, cold_mult: 3, cold_workers: 5, max_workers: 16, endpoint_state: "active" });
    });

    it("update changes the fields given (null is not set) in place; a rename takes a free name", async () => {
        const id = await makeEndpoint(emu, { endpoint_name: "to-rename" });
        const reply = await call(emu, "PUT", endpoint(id), { client_id: "me", endptjob_id: id, max_workers: 8, cold_workers: null, endpoint_name: "renamed", autoscaler_instance: "prod" });
        expect(reply).toEqual(expect.objectContaining({ status: 200, json: { success: true } }));
        expect((await call(emu, "GET", endpoint(id))).json.result).toMatchObject({ id, endpoint_name: "renamed", max_workers: 8, cold_workers: 5 });
        const taken = await call(emu, "PUT", endpoint(id), { endptjob_id: id, endpoint_name: "vLLM-Qwen3-8B" });
        expect(taken).toMatchObject({ status: 400, json: { error: "invalid_args", msg: expect.stringMatching(/^Duplicate endpoint name/) } });
    });

    it("delete takes the CLI's body {client_id, endptjob_id}; the endpoint is gone from the listing and the read", async () => {
        const id = await makeEndpoint(emu);
        const reply = await call(emu, "DELETE", endpoint(id), { client_id: "me", endptjob_id: id });
        expect(reply).toMatchObject({ status: 200, json: { success: true, deleted_workers: [], failed_workers: [] } });
        expect((await endpoints(emu)).json.results.map((e: { id: number }) => e.id)).not.toContain(id);
        expect(await call(emu, "GET", endpoint(id))).toMatchObject({ status: 404, json: { success: false, msg: `Endpoint job ${id} not found` } });
        expect((await call(emu, "DELETE", endpoint(id), { client_id: "me", endptjob_id: id })).status).toBe(404);
    });

    it.each([
        [{ endpoint_name: "vLLM-Qwen3-8B" }, /^Duplicate endpoint name/],
        [{ endpoint_name: "bad (name)" }, /^endpoint_name must be/],
        [{ target_util: 1.5 }, /^target_util must be a fraction/],
        [{ cold_workers: 2.5 }, /^cold_workers must be a whole number/],
        [{ max_workers: -1 }, /^max_workers must be/],
        [{ cold_workers: 6, max_workers: 5 }, /^cold_workers must be at most max_workers/],
        [{ max_queue_time: 5, target_queue_time: 10 }, /^target_queue_time must be at most max_queue_time/],
        [{ endpoint_state: "paused" }, /^endpoint_state must be one of active, suspended, stopped/],
    ])("create with %j is a 400", async (fields, msg) => {
        const reply = await call(emu, "POST", ENDPOINTS, { endpoint_name: `refused-${Math.random().toString(36).slice(2, 6)}`, ...fields });
        expect(reply).toMatchObject({ status: 400, json: { success: false, error: "invalid_args", msg: expect.stringMatching(msg) } });
    });

    it("another account's endpoint is not there for this one: not listed, update 400, delete and read 404; a body id unlike the path's is refused", async () => {
        const otherKey = emu.createKey(undefined, emu.otherUser.id).key;
        const theirs = (await withKey(emu, otherKey, "POST", ENDPOINTS, { endpoint_name: "theirs" })).json.result;
        expect((await endpoints(emu)).json.results.map((e: { id: number }) => e.id)).not.toContain(theirs);
        expect(await call(emu, "PUT", endpoint(theirs), { endptjob_id: theirs, max_workers: 1 })).toMatchObject({
            status: 400,
            json: { msg: `Endpoint ${theirs} for user ${emu.demoUser.id} not found.` },
        });
        expect((await call(emu, "DELETE", endpoint(theirs), { client_id: "me", endptjob_id: theirs })).status).toBe(404);
        expect((await call(emu, "GET", endpoint(theirs))).status).toBe(404);
        // The same name is free in another account.
        await makeEndpoint(emu, { endpoint_name: "theirs" });

        const mine = await makeEndpoint(emu);
        const mismatch = await call(emu, "DELETE", endpoint(mine), { client_id: "me", endptjob_id: mine + 1 });
        expect(mismatch).toMatchObject({ status: 400, json: { msg: `endptjob_id ${mine + 1} in the body is not the id ${mine} in the path` } });
    });

    it("every serverless route needs misc; a key with it manages endpoints", async () => {
        const noMisc = emu.createKey({ api: { instance_read: {}, instance_write: {}, user_read: {} } }).key;
        for (const [method, path] of [["GET", ENDPOINTS], ["POST", ENDPOINTS], ["GET", AUTOJOBS], ["POST", WORKERGROUPS], ["POST", "/get_endpoint_logs/"]]) {
            expect((await withKey(emu, noMisc, method, path, {})).status).toBe(403);
        }
        const misc = emu.createKey({ api: { misc: {} } }).key;
        expect((await withKey(emu, misc, "POST", ENDPOINTS, { endpoint_name: "by-scoped-key" })).status).toBe(200);
    });

    it("the key the CLI puts in the listing's body never reaches the request log", () => {
        const logged = emu.requests.filter((r) => r.route === "endpoint-list");
        expect(logged.length).toBeGreaterThan(0);
        expect(JSON.stringify(emu.requests)).not.toContain(emu.demoKey);
        expect(logged[0].body).toEqual({ client_id: "me", api_key: "<redacted>" });
    });

    it("at live intervals, the vendor SDK's own lifecycle test, back to back, meets no 429; a second listing within 3 s does", async () => {
        const live = await startEmulator({ rateLimitScale: 1, autoscalerIdle: true });
        try {
            const t = live.model.addTemplate(live.demoUser.id, { name: "sdk-lifecycle", image: "vastai/vllm" });
            const created = await call(live, "POST", ENDPOINTS, { endpoint_name: "sdk-test-wg" });
            const group = await call(live, "POST", WORKERGROUPS, { search_params: "gpu_ram>=8", endpoint_id: created.json.result, template_hash: t.hash_id, gpu_ram: 8.0 });
            const shown = await call(live, "GET", endpoint(created.json.result));
            const deletedGroup = await call(live, "DELETE", `${WORKERGROUPS}${group.json.id}/`);
            const deletedEndpoint = await call(live, "DELETE", endpoint(created.json.result));
            expect([created, group, shown, deletedGroup, deletedEndpoint].map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
            // Each path is its own limit: the same group create on /autojobs/ goes through at once too.
            expect((await call(live, "POST", AUTOJOBS, { search_params: "", endpoint_name: "sdk-test-wg-2", template_hash: t.hash_id })).status).toBe(200);
            expect((await endpoints(live)).status).toBe(200);
            expect(await endpoints(live)).toMatchObject({ status: 429, text: "API requests too frequent endpoint threshold=3.0" });
        } finally {
            await live.stop();
        }
    });

    it("with emptyEndpointListing 'empty', an account with none lists an empty result", async () => {
        const lenient = await startEmulator({ emptyEndpointListing: "empty" });
        try {
            expect(await endpoints(lenient)).toMatchObject({ status: 200, json: { success: true, results: [] } });
        } finally {
            await lenient.stop();
        }
    });
});

describe("emulator: worker groups", () => {
    let emu: Emulator;
    beforeAll(async () => {
        // No workers rented here: these tests are about the records.
        emu = await startEmulator({ autoscalerIdle: true });
    });
    afterAll(() => emu.stop());

    it("create (template hash, endpoint id, a CLI search) answers {success, id}; the listing shows search_query parsed", async () => {
        const t = template(emu);
        const endpointId = await makeEndpoint(emu, { endpoint_name: "llm" });
        const id = await makeGroup(emu, { template_hash: t.hash_id, endpoint_id: endpointId, search_params: "gpu_ram>=23 num_gpus=2 gpu_name=RTX_4090 verified=True", launch_args: "--disk 64" });
        const listed = (await groups(emu)).find((g) => g.id === id);
        expect(listed).toEqual({
            id,
            min_load: null,
            target_util: null,
            cold_mult: null,
            cold_workers: null,
            test_workers: 3,
            template_hash: t.hash_id,
            template_id: t.id,
            search_query: { gpu_ram: { gte: 23000 }, num_gpus: { eq: "2" }, gpu_name: { eq: "RTX 4090" }, verified: { eq: true } },
            launch_args: "--disk 64",
            gpu_ram: 24,
            endpoint_name: "llm",
            endpoint_id: endpointId,
            api_key: expect.any(String),
            created_at: expect.any(Number),
            user_id: emu.demoUser.id,
        });
    });

    it("the /workergroups/ path serves the same groups; search_params may be an object, the template an id", async () => {
        const t = template(emu);
        const endpointId = await makeEndpoint(emu);
        const id = await makeGroup(emu, { template_id: t.id, endpoint_id: endpointId, search_params: { num_gpus: { eq: 1 } } }, WORKERGROUPS);
        const viaAlias = (await call(emu, "GET", WORKERGROUPS)).json.results;
        expect(viaAlias.find((g: { id: number }) => g.id === id)).toMatchObject({ template_id: t.id, template_hash: t.hash_id, search_query: { num_gpus: { eq: 1 } } });
        expect((await groups(emu)).map((g) => g.id)).toContain(id);
    });

    it("a name no endpoint has makes that endpoint (the API reference); told to refuse, it is a 400", async () => {
        const t = template(emu);
        const id = await makeGroup(emu, { template_hash: t.hash_id, endpoint_name: "made-by-group", min_cold_load: 2, search_params: "" });
        const made = (await endpoints(emu)).json.results.find((e: { endpoint_name: string }) => e.endpoint_name === "made-by-group");
        expect(made).toMatchObject({ min_cold_load: 2, cold_workers: 5 });
        expect((await groups(emu)).find((g) => g.id === id)).toMatchObject({ endpoint_id: made.id, endpoint_name: "made-by-group" });

        const strict = await startEmulator({ unknownEndpointName: "refuse" });
        try {
            const refused = await call(strict, "POST", AUTOJOBS, { template_hash: "x", endpoint_name: "nowhere", search_params: "" });
            expect(refused.status).toBe(400);
        } finally {
            await strict.stop();
        }
    });

    it("refused with a 400, making nothing: no search_params, no endpoint, a wrong or foreign endpoint id, an unknown template, no image, a bad query", async () => {
        const t = template(emu);
        const endpointId = await makeEndpoint(emu, { endpoint_name: "strict" });
        const otherKey = emu.createKey(undefined, emu.otherUser.id).key;
        const theirs = (await withKey(emu, otherKey, "POST", ENDPOINTS, { endpoint_name: "theirs-for-groups" })).json.result;
        const good = { template_hash: t.hash_id, endpoint_id: endpointId, search_params: "" };
        const cases: Array<[Record<string, unknown>, RegExp]> = [
            [{ ...good, search_params: undefined }, /^search_params is required/],
            [{ ...good, endpoint_id: undefined }, /^Please assign your workergroup to a valid endpoint identifier$/],
            [{ ...good, endpoint_id: 1 }, /valid endpoint identifier/],
            [{ ...good, endpoint_id: theirs }, /valid endpoint identifier/],
            [{ ...good, endpoint_name: "not-strict" }, /valid endpoint identifier/],
            [{ ...good, template_hash: "0123456789abcdef" }, /^no template with hash/],
            [{ ...good, template_hash: undefined, launch_args: "--disk 20" }, /needs an image/],
            [{ ...good, search_params: "num_gpus=1 )(" }, /^search_params: unconsumed text/],
            [{ ...good, search_params: { num_gpus: 1 } }, /^search_params: filter on num_gpus must be an object/],
            [{ ...good, launch_args: "--disk" }, /^launch_args: --disk needs a value/],
            [{ ...good, cold_workers: 3, max_workers: 2 }, /^cold_workers must be at most max_workers/],
        ];
        const before = (await groups(emu)).length;
        for (const [body, msg] of cases) {
            const reply = await call(emu, "POST", AUTOJOBS, body);
            expect({ body, status: reply.status, msg: reply.json.msg }).toEqual({ body, status: 400, msg: expect.stringMatching(msg) });
        }
        expect(await groups(emu)).toHaveLength(before);
        // Another account's private template is not one to run either.
        const hidden = emu.model.addTemplate(emu.otherUser.id, { name: "hidden", image: "secret/image", private: true });
        expect((await call(emu, "POST", AUTOJOBS, { ...good, template_hash: hidden.hash_id })).status).toBe(400);
        // An image in launch_args alone is enough.
        await makeGroup(emu, { endpoint_id: endpointId, search_params: "", launch_args: "--image vastai/base-image:latest --disk 20" });
    });

    it("update needs endpoint_id; the fields given change and search_params replaces the search", async () => {
        const t = template(emu);
        const endpointId = await makeEndpoint(emu);
        const id = await makeGroup(emu, { template_hash: t.hash_id, endpoint_id: endpointId, search_params: "gpu_name=RTX_4090" });
        expect(await call(emu, "PUT", autojob(id), { client_id: "me", autojob_id: id, cold_workers: 2 })).toMatchObject({
            status: 400,
            json: { msg: "endpoint_id is required: the endpoint this workergroup belongs to" },
        });
        const reply = await call(emu, "PUT", autojob(id), { client_id: "me", autojob_id: id, cold_workers: 2, endpoint_id: endpointId, search_params: " verified=True rentable=True rented=False", gpu_ram: null });
        expect(reply).toMatchObject({ status: 200, json: { success: true } });
        expect((await groups(emu)).find((g) => g.id === id)).toMatchObject({
            cold_workers: 2,
            gpu_ram: 24,
            search_query: { verified: { eq: true }, rentable: { eq: true }, rented: { eq: false } },
        });
    });

    it("another account's group: update 400 'Workgroup not found for user', delete 404 no_such_workergroup", async () => {
        const otherKey = emu.createKey(undefined, emu.otherUser.id).key;
        const theirEndpoint = (await withKey(emu, otherKey, "POST", ENDPOINTS, { endpoint_name: "their-llm" })).json.result;
        const publicTemplate = [...emu.model.templates.values()].find((t) => t.fields.name === "PyTorch (public)")!;
        const theirs = (await withKey(emu, otherKey, "POST", AUTOJOBS, { template_hash: publicTemplate.hash_id, endpoint_id: theirEndpoint, search_params: "" })).json.id;
        expect(await call(emu, "PUT", autojob(theirs), { autojob_id: theirs, endpoint_id: theirEndpoint })).toMatchObject({ status: 400, json: { msg: "Workgroup not found for user" } });
        expect(await call(emu, "DELETE", autojob(theirs), { client_id: "me", autojob_id: theirs })).toMatchObject({
            status: 404,
            json: { success: false, error: "no_such_workergroup", msg: "No workergroup by that id is available.", id: theirs },
        });
        expect((await groups(emu)).map((g) => g.id)).not.toContain(theirs);
    });

    it("deleting an endpoint deletes its groups", async () => {
        const t = template(emu);
        const endpointId = await makeEndpoint(emu);
        const id = await makeGroup(emu, { template_hash: t.hash_id, endpoint_id: endpointId, search_params: "" });
        expect((await call(emu, "DELETE", endpoint(endpointId), { client_id: "me", endptjob_id: endpointId })).status).toBe(200);
        expect((await groups(emu)).map((g) => g.id)).not.toContain(id);
    });
});

describe("emulator: the serverless autoscaler", () => {
    const emulators: Emulator[] = [];
    async function start(options: EmulatorOptions = {}): Promise<Emulator> {
        const emu = await startEmulator(options);
        emulators.push(emu);
        return emu;
    }
    afterAll(() => Promise.all(emulators.map((e) => e.stop())));

    /** An endpoint and a group on `count` offers of their own; the group's id. */
    async function setUp(emu: Emulator, endpointFields: Record<string, unknown>, groupFields: Record<string, unknown> = {}, count = 4) {
        const { search, machineId } = market(emu, count);
        const endpointId = await makeEndpoint(emu, endpointFields);
        const groupId = await makeGroup(emu, { template_hash: template(emu).hash_id, endpoint_id: endpointId, search_params: search, ...groupFields });
        return { endpointId, groupId, machineId };
    }

    it("rents cold_workers instances from offers its search matches: listed, priced and labelled with their group", async () => {
        const emu = await start();
        const { endpointId, groupId, machineId } = await setUp(emu, { cold_workers: 3, max_workers: 5 }, {}, 4);
        const rented = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 3 && now;
        });
        for (const worker of rented) expect(worker).toMatchObject({ machine_id: machineId, endpoint_id: endpointId, workergroup_id: groupId, dph_total: 0.5, template_hash_id: expect.any(String) });
        // They are the account's instances, with the template's image.
        expect(emu.liveInstances().filter((i) => i.worker?.workergroupId === groupId).map((i) => i.effective.image)).toEqual(["vastai/vllm:latest", "vastai/vllm:latest", "vastai/vllm:latest"]);
        // And no more come: the group has what it wants.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await workers(emu, groupId)).toHaveLength(3);
        const logs = await call(emu, "POST", "/get_autogroup_logs/", { id: groupId, api_key: emu.demoKey });
        expect(logs.json.info1).toMatch(new RegExp(`workergroup ${groupId}: rented worker ${rented[0].id} on offer`));
    });

    it("the group's own cold_workers wins over its endpoint's; launch_args set the disk", async () => {
        const emu = await start();
        const { groupId } = await setUp(emu, { cold_workers: 3, max_workers: 5 }, { cold_workers: 1, launch_args: "--disk 48 --env '-e MODEL=llama'" });
        const [worker] = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 1 && now;
        });
        expect(emu.model.instances.get(worker.id)!.effective).toMatchObject({ disk: 48, env: { MODEL: "llama" } });
    });

    it("replaces a worker that exits (releasing it) and one the user destroys", async () => {
        const emu = await start();
        const { groupId } = await setUp(emu, { cold_workers: 2, max_workers: 2 }, {}, 5);
        const first = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 2 && now.every((w) => w.actual_status === "running") && now;
        });
        emu.exitInstance(first[0].id);
        const afterExit = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 2 && !now.some((w) => w.id === first[0].id) && now;
        });
        expect(emu.model.instances.get(first[0].id)!.destroyed).toBe(true);

        expect((await call(emu, "DELETE", `/api/v0/instances/${afterExit[0].id}/`, {})).status).toBe(200);
        const afterDestroy = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 2 && !now.some((w) => w.id === afterExit[0].id) && now;
        });
        expect(afterDestroy.map((w) => w.id)).toContain(afterExit[1].id);
        const log = (await call(emu, "POST", "/get_autogroup_logs/", { id: groupId })).json.logs;
        expect(log).toContain(`released worker ${first[0].id} (exited)`);
    });

    it("never rents above the endpoint's max_workers, across its groups; a lower max releases the worst value, the newest among equals", async () => {
        const emu = await start();
        // The group asks for more than its endpoint allows.
        const { endpointId, groupId } = await setUp(emu, { cold_workers: 2, max_workers: 2 }, { cold_workers: 5 }, 8);
        await eventually(async () => (await workers(emu, groupId)).length === 2);
        const second = await makeGroup(emu, { template_hash: template(emu).hash_id, endpoint_id: endpointId, search_params: "num_gpus=1" });
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await workers(emu, groupId)).toHaveLength(2);
        expect(await workers(emu, second)).toHaveLength(0);

        const kept = await workers(emu, groupId);
        expect((await call(emu, "PUT", endpoint(endpointId), { endptjob_id: endpointId, max_workers: 1, cold_workers: 1 })).status).toBe(200);
        const left = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 1 && now;
        });
        expect(left[0].id).toBe(Math.min(...kept.map((w) => w.id)));
    });

    it("keeps the workers when the group is deleted, and rents no more for it", async () => {
        const emu = await start();
        const { groupId } = await setUp(emu, { cold_workers: 2, max_workers: 2 });
        const rented = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 2 && now;
        });
        const reply = await call(emu, "DELETE", autojob(groupId), { client_id: "me", autojob_id: groupId });
        expect(reply).toMatchObject({ status: 200, json: { success: true, deleted_workers: [], failed_workers: [], msg: "Deleted workergroup and 0 workers" } });
        emu.exitInstance(rented[0].id);
        await new Promise((resolve) => setTimeout(resolve, 150));
        // Still the account's (and still costing), the exited one too: nobody manages them now.
        expect((await workers(emu, groupId)).map((w) => w.id).sort()).toEqual(rented.map((w) => w.id).sort());
    });

    it("with deletedGroupWorkers 'destroyed', deleting the group (or its endpoint) destroys its workers and says which", async () => {
        const emu = await start({ deletedGroupWorkers: "destroyed" });
        const { groupId, endpointId } = await setUp(emu, { cold_workers: 2, max_workers: 2 });
        const rented = await eventually(async () => {
            const now = await workers(emu, groupId);
            return now.length === 2 && now;
        });
        const reply = await call(emu, "DELETE", endpoint(endpointId), { client_id: "me", endptjob_id: endpointId });
        expect(reply.json).toMatchObject({ success: true, deleted_workers: rented.map((w) => w.id), msg: "Deleted endpoint job and 2 workers" });
        expect(await workers(emu, groupId)).toEqual([]);
    });

    it("a stopped endpoint's workers are stopped and not replaced; a suspended one's are left alone", async () => {
        const emu = await start();
        const { endpointId, groupId } = await setUp(emu, { cold_workers: 2, max_workers: 2 });
        await eventually(async () => (await workers(emu, groupId)).length === 2);
        expect((await call(emu, "PUT", endpoint(endpointId), { endptjob_id: endpointId, endpoint_state: "suspended" })).status).toBe(200);
        const [gone] = await workers(emu, groupId);
        expect((await call(emu, "DELETE", `/api/v0/instances/${gone.id}/`, {})).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await workers(emu, groupId)).toHaveLength(1);

        expect((await call(emu, "PUT", endpoint(endpointId), { endptjob_id: endpointId, endpoint_state: "stopped" })).status).toBe(200);
        await eventually(async () => (await workers(emu, groupId)).every((w) => w.intended_status === "stopped" && w.actual_status === "stopped"));
    });

    it("with autoscalerIdle, nothing is rented; a search nothing matches rents nothing and says so in the logs", async () => {
        const idle = await start({ autoscalerIdle: true });
        const { groupId } = await setUp(idle, { cold_workers: 2, max_workers: 2 });
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await workers(idle, groupId)).toEqual([]);

        const emu = await start();
        const endpointId = await makeEndpoint(emu, { cold_workers: 1, max_workers: 1 });
        const starved = await makeGroup(emu, { template_hash: template(emu).hash_id, endpoint_id: endpointId, search_params: "gpu_name=Z_9000" });
        await eventually(async () => {
            const logs = await call(emu, "POST", "/get_endpoint_logs/", { id: endpointId, api_key: emu.demoKey });
            return logs.json.logs.includes(`workergroup ${starved}: could not rent a worker: no offer matches its search`);
        });
        expect(await workers(emu, starved)).toEqual([]);
        // Logs of an id the account does not have: the autoscaler's 200 with a text.
        const unknown = await call(emu, "POST", "/get_endpoint_logs/", { id: 1, api_key: emu.demoKey });
        expect(unknown).toMatchObject({ status: 200, text: "authenticate_endpoint_apikey: invalid api_key or endpoint 1 not found" });
    });
});
