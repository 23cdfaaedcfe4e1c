import { Emulator } from "../../testkit/emulator/server";
import { eventually, startEmulator } from "../../testkit/support/fixtures";
import { Bindings, replay, Replayed } from "../fixtures/vendorReplay";
import { VENDOR_INSTANCE_RUNTYPES, VENDOR_REQUESTS, VendorRequest } from "../fixtures/vendorRequests";

/**
 * The vendor's own clients against the emulator: each everyday command's request, as vast-cli
 * builds it (test/fixtures/vendorRequests.ts), sent over HTTP in a session's order. Every one is
 * accepted, and each has the effect it has on the live service, read back from the emulator's
 * world and from the next command's answer.
 */

/** The fixture's request for the command that starts with `command`. */
function request(command: string, nth = 0): VendorRequest {
    const found = VENDOR_REQUESTS.filter((r) => r.command.startsWith(command))[nth];
    if (!found) throw new Error(`no vendor request for ${command} (#${nth})`);
    return found;
}

describe("the vendor clients' everyday commands, replayed against the emulator", () => {
    let emu: Emulator;
    const bindings: Bindings = {};
    const replayed = new Set<VendorRequest>();
    let offers: Array<Record<string, unknown>> = [];

    /** Sends it and expects the service to accept it. */
    async function send(command: string, nth = 0): Promise<Replayed> {
        const vendor = request(command, nth);
        const answer = await replay(emu, vendor, bindings);
        if (answer.status !== 200 || answer.json?.success === false) {
            throw new Error(`${vendor.command} was refused: ${answer.status} ${JSON.stringify(answer.json)}`);
        }
        replayed.add(vendor);
        return answer;
    }

    /** Creates an instance on the search's next offer. */
    async function rent(nth: number): Promise<number> {
        const offer = offers.shift();
        if (!offer) throw new Error("the offer search found too few offers");
        bindings.offerId = offer.id as number;
        const { json } = await send("vastai create instance", nth);
        expect(json).toEqual({ success: true, new_contract: expect.any(Number), instance_api_key: expect.any(String) });
        return json.new_contract;
    }

    beforeAll(async () => {
        emu = await startEmulator();
        bindings.apiKey = emu.demoKey;
    });
    afterAll(() => emu.stop());

    it("at start-up, the GPU names: no key needed, each model on the market once", async () => {
        const { json } = await send("(any command");
        expect(json.gpu_names).toEqual(["A100 SXM4", "H100 SXM", "RTX 3090", "RTX 4090"]);
        expect(emu.requests.at(-1)).toMatchObject({ route: "gpu-names", status: 200 });
        expect(emu.requests.at(-1)).not.toHaveProperty("keyId");
    });

    it("show user, show machines (?owner=me): the account and its own machines", async () => {
        expect((await send("vastai show user")).json).toMatchObject({ id: emu.demoUser.id, email: "demo@example.com" });
        const { json } = await send("vastai show machines");
        const own = [...emu.model.machines.values()].filter((m) => m.ownerId === emu.demoUser.id).map((m) => m.id);
        expect(json.machines.map((m: { id: number }) => m.id)).toEqual(own);
        expect(own).toHaveLength(2);
    });

    it("create template: accepted without the registry user and password", async () => {
        const { json } = await send("VastAI.create_template");
        const template = emu.model.templates.get(json.template.id)!;
        expect(template.fields).toMatchObject({ name: "vendor-replay", runtype: "jupyter", jup_direct: true, use_ssh: true, recommended_disk_space: 16, docker_login_repo: "ghcr.io" });
        expect(template.fields).not.toHaveProperty("docker_login_user");
        expect(template.fields).not.toHaveProperty("docker_login_pass");
        bindings.templateId = template.id;
        bindings.hashId = template.hash_id;
    });

    it("create template with --disk_space 20: the number the CLI sends as a string is taken, and kept as a number", async () => {
        const { json } = await send("vastai create template --name vendor-cli");
        expect(emu.model.templates.get(json.template.id)!.fields).toMatchObject({ name: "vendor-cli", recommended_disk_space: 20 });
    });

    it("search templates: its own template and others' public ones", async () => {
        const { json } = await send("vastai search templates");
        const names = json.templates.map((t: { name: string }) => t.name);
        expect(names).toEqual(expect.arrayContaining(["vendor-replay", "PyTorch (public)"]));
        expect(names).not.toContain("someone else's private template");
    });

    it("update template: same id, a new hash, the edit applied and the null fields kept as they were", async () => {
        const before = bindings.hashId;
        const { json } = await send("VastAI.update_template");
        expect(json.template).toMatchObject({
            id: bindings.templateId,
            desc: "edited by the vendor SDK",
            name: "vendor-replay",
            // Sent as null: not set, so kept.
            href: "https://hub.docker.com/r/vastai/base-image",
            readme: "# Replay",
            docker_login_repo: "ghcr.io",
        });
        expect(json.template.hash_id).not.toBe(before);
        bindings.hashId = json.template.hash_id;
    });

    it("search offers 'num_gpus>=2': the bound the CLI sends as a string compares as a number", async () => {
        const { json } = await send("vastai search offers 'num_gpus>=2'");
        expect(json.offers.length).toBeGreaterThan(0);
        for (const offer of json.offers) expect(offer.num_gpus).toBeGreaterThanOrEqual(2);
    });

    it("search offers (POST bundles, with allocated_storage; PUT search/asks): verified 1-GPU RTX 4090 offers, best score first", async () => {
        const { json } = await send("vastai search offers");
        offers = json.offers;
        expect(offers.length).toBeGreaterThanOrEqual(3);
        for (const offer of offers) expect(offer).toMatchObject({ gpu_name: "RTX 4090", num_gpus: 1, verified: true, rentable: true, rented: false });
        const scores = offers.map((o) => o.score as number);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        // The SDK's newer search, any number of GPUs, at most 5: the same offers and the 4-GPU one.
        const newer: Array<Record<string, unknown>> = (await send("VastAI.search_offers_new")).json.offers;
        expect(newer.length).toBeLessThanOrEqual(5);
        expect(newer.every((o) => o.gpu_name === "RTX 4090" && o.verified === true)).toBe(true);
        expect(newer.map((o) => o.id)).toEqual(expect.arrayContaining(offers.map((o) => o.id)));
    });

    it("create instance, three ways: SSH direct, Jupyter proxied, and from the template with a bid; each is created and listed", async () => {
        const ssh = await rent(0);
        const jupyter = await rent(1);
        const fromTemplate = await rent(2);
        bindings.instanceId = ssh;
        bindings.bidInstanceId = fromTemplate;

        const instance = (id: number) => emu.model.instances.get(id)!;
        expect(instance(ssh).effective).toMatchObject({ image: "vastai/base-image:cuda-12.4", runtype: "ssh_direc ssh_proxy", disk: 16, env: { TZ: "UTC", "-p 8080:8080": "1" } });
        expect(instance(ssh)).toMatchObject({ label: "vendor-ssh", isBid: false });
        expect(instance(jupyter).effective).toMatchObject({ image: "jupyter/base-notebook", runtype: "jupyter_proxy ssh_proxy", disk: 10 });
        // The template's image, runtype and env; the request's disk and bid.
        expect(instance(fromTemplate).effective).toMatchObject({ image: "vastai/base-image:cuda-12.4", runtype: "jupyter", disk: 20, template_hash_id: bindings.hashId });
        expect(instance(fromTemplate)).toMatchObject({ isBid: true, dphTotal: 0.2 });

        const { json } = await send("vastai show instances");
        expect(json.instances.map((i: { id: number }) => i.id)).toEqual([ssh, jupyter, fromTemplate]);
    });

    it("show instance, label instance: the label changes", async () => {
        expect((await send("vastai show instance ID")).json.instances).toMatchObject({ id: bindings.instanceId, label: "vendor-ssh" });
        await send("vastai label instance");
        expect((await send("vastai show instance ID")).json.instances.label).toBe("vendor-renamed");
    });

    it("stop instance, then start instance: it stops, then runs again", async () => {
        const show = async () => (await send("vastai show instance ID")).json.instances;
        await eventually(async () => (await show()).actual_status === "running");
        await send("vastai stop instance");
        await eventually(async () => {
            const now = await show();
            return now.intended_status === "stopped" && now.actual_status === "stopped";
        });
        await send("vastai start instance");
        expect((await show()).intended_status).toBe("running");
        await eventually(async () => (await show()).actual_status === "running");
    });

    it("change bid: the interruptible instance's price is the new bid", async () => {
        await send("vastai change bid");
        expect(emu.model.instances.get(bindings.bidInstanceId as number)!.dphTotal).toBe(0.25);
    });

    it("destroy instance: gone, and no longer listed", async () => {
        await send("vastai destroy instance");
        expect((await send("vastai show instance ID")).json.instances).toBeNull();
        const { json } = await send("vastai show instances");
        expect(json.instances.map((i: { id: number }) => i.id)).not.toContain(bindings.instanceId);
    });

    it("create, show and delete an SSH key", async () => {
        const { json } = await send("vastai create ssh-key");
        expect(json.key).toMatchObject({ id: expect.any(Number), public_key: (request("vastai create ssh-key").body as { ssh_key: string }).ssh_key });
        bindings.sshKeyId = json.key.id;
        expect((await send("vastai show ssh-keys")).json.map((k: { id: number }) => k.id)).toContain(bindings.sshKeyId);
        await send("vastai delete ssh-key");
        expect((await send("vastai show ssh-keys")).json.map((k: { id: number }) => k.id)).not.toContain(bindings.sshKeyId);
    });

    it("create, show and delete an API key (key_params null is not set); the new key works until deleted", async () => {
        const { json } = await send("vastai create api-key");
        expect(json).toMatchObject({ id: expect.any(Number), key: expect.any(String), permissions: { api: { misc: {}, user_read: {}, instance_read: {} } } });
        bindings.apiKeyId = json.id;
        const listed = (await send("vastai show api-keys")).json.apikeys;
        expect(listed).toContainEqual(expect.objectContaining({ id: json.id, name: "vendor-readonly" }));
        expect((await replay(emu, request("vastai show user"), { ...bindings, apiKey: json.key })).status).toBe(200);
        await send("vastai delete api-key");
        expect((await send("vastai show api-keys")).json.apikeys.map((k: { id: number }) => k.id)).not.toContain(json.id);
        expect((await replay(emu, request("vastai show user"), { ...bindings, apiKey: json.key })).status).toBe(401);
    });

    it("storage: search volumes (the bound a string) and network volumes, create one of each, show them, delete the local one", async () => {
        const offers: Array<Record<string, unknown>> = (await send("vastai search volumes")).json.offers;
        expect(offers.length).toBeGreaterThan(0);
        expect(offers.every((o) => (o.disk_space as number) >= 100 && o.verified === true)).toBe(true);
        bindings.volumeOfferId = offers[0].id as number;
        const network: Array<Record<string, unknown>> = (await send("vastai search network volumes")).json.offers;
        expect(network.length).toBeGreaterThan(0);
        bindings.networkVolumeOfferId = network[0].id as number;

        expect((await send("vastai create volume")).json).toMatchObject({ success: true, volume_name: "vendor_data" });
        expect((await send("vastai create network volume")).json).toMatchObject({ success: true });
        const shown: Array<Record<string, unknown>> = (await send("vastai show volumes")).json.volumes;
        const local = shown.find((v) => v.label === "vendor_data")!;
        expect(local).toMatchObject({ disk_space: 20, machine_id: expect.any(Number) });
        expect(shown.some((v) => v.cluster_id != null && v.disk_space === 15)).toBe(true);
        bindings.volumeId = local.id as number;
        await send("vastai delete volume");
        expect((await send("vastai show volumes")).json.volumes.map((v: { id: number }) => v.id)).not.toContain(local.id);
    });

    it("serverless, as the CLI and SDK do it: an endpoint made, listed, updated; groups on it rent their worker; logs; both deleted, the worker kept", async () => {
        const endpointId = (await send("vastai create endpoint")).json.result;
        bindings.endpointId = endpointId;
        expect((await send("vastai show endpoints")).json.results).toContainEqual(
            expect.objectContaining({ id: endpointId, endpoint_name: "vendor-replay", cold_workers: 1, max_workers: 2, api_key: expect.any(String) }),
        );
        await send("vastai update endpoint");
        // The update's nulls are not set: only max_workers changed.
        expect(emu.model.endpoints.get(endpointId)!.settings).toMatchObject({ max_workers: 3, cold_workers: 1, min_load: 0, cold_mult: 2.5 });

        bindings.workergroupId = (await send("vastai create workergroup")).json.id;
        bindings.sdkWorkergroupId = (await send("VastAI.create_workergroup")).json.id;
        expect((await send("vastai show workergroups")).json.results).toEqual(
            expect.arrayContaining([
                expect.objectContaining({ id: bindings.workergroupId, endpoint_id: endpointId, endpoint_name: "vendor-replay", template_hash: bindings.hashId, test_workers: 3, search_query: { gpu_name: { eq: "RTX 4090" }, num_gpus: { eq: "1" } } }),
                expect.objectContaining({ id: bindings.sdkWorkergroupId, endpoint_id: endpointId, search_query: { gpu_name: { eq: "RTX 4090" }, verified: { eq: true }, rentable: { eq: true }, rented: { eq: false } } }),
            ]),
        );
        // The engine rents the group's worker on the account: the CLI's own listing shows it, naming its group.
        const worker = await eventually(async () => (await send("vastai show instances")).json.instances.find((i: Record<string, unknown>) => i.workergroup_id === bindings.workergroupId));
        expect(worker).toMatchObject({ endpoint_id: endpointId, gpu_name: "RTX 4090", num_gpus: 1, template_hash_id: bindings.hashId });

        await send("vastai update workergroup");
        // The CLI sent only the default terms as search_params: they are the group's search now.
        expect(emu.model.workergroups.get(bindings.workergroupId as number)).toMatchObject({
            settings: { test_workers: 1 },
            searchQuery: { verified: { eq: true }, rentable: { eq: true }, rented: { eq: false } },
        });
        expect((await send("vastai get endpt-logs")).json.info1).toContain(`workergroup ${bindings.workergroupId}: rented worker ${worker.id}`);
        expect((await send("vastai get wrkgrp-logs")).json.info1).toContain(`rented worker ${worker.id}`);

        await send("vastai delete workergroup");
        await send("VastAI.delete_workergroup");
        await send("vastai delete endpoint");
        expect(emu.model.endpoints.get(endpointId)!.deleted).toBe(true);
        // As the CLI warns: the group's instance is still the account's.
        expect(emu.model.instances.get(worker.id)!.destroyed).toBe(false);
    });

    it("serverless, as the serverless client does it: an endpoint by name alone, read back by id, a group by /workergroups/, found, deleted", async () => {
        const endpointId = (await send("Serverless.create_endpoint")).json.result;
        bindings.sdkEndpointId = endpointId;
        expect((await send("Serverless.get_endpoints")).json.results.map((e: { id: number }) => e.id)).toContain(endpointId);
        expect((await send("ManagedEndpoint.get()")).json.result).toMatchObject({ id: endpointId, endpoint_name: "vendor-sdk", api_key: expect.any(String), user_id: emu.demoUser.id });
        bindings.serverlessWorkergroupId = (await send("ManagedEndpoint.add_workergroup")).json.id;
        const found = (await send("Serverless.find_workergroup_for_endpoint")).json.results.find((g: { endpoint_id: number }) => g.endpoint_id === endpointId);
        expect(found.id).toBe(bindings.serverlessWorkergroupId);
        await send("Serverless.delete_workergroup");
        await send("ManagedEndpoint.delete()");
        expect(emu.model.endpoints.get(endpointId)!.deleted).toBe(true);
    });

    it("delete template: unlinked from the account, no longer found", async () => {
        await send("vastai delete template");
        expect(emu.model.templates.get(bindings.templateId as number)!.deleted).toBe(true);
        const { json } = await send("vastai search templates");
        expect(json.templates.map((t: { id: number }) => t.id)).not.toContain(bindings.templateId);
    });

    it("every request of the fixture was replayed and accepted, and no key was kept in the request log", () => {
        expect(VENDOR_REQUESTS.filter((r) => !replayed.has(r)).map((r) => r.command)).toEqual([]);
        const logged = JSON.stringify(emu.requests);
        expect(logged).not.toContain(emu.demoKey);
        expect(emu.requests.filter((r) => r.query.api_key !== undefined).every((r) => r.query.api_key === "<redacted>")).toBe(true);
    });
});

describe("the vendor clients' instance runtypes, and what stays refused", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    const create = (body: Record<string, unknown>) =>
        replay(emu, { command: "create instance", source: "test", method: "PUT", path: "/api/v0/asks/{offerId}/", body }, { apiKey: emu.demoKey, offerId: emu.addOffer().id });

    it.each(VENDOR_INSTANCE_RUNTYPES)("runtype %j is accepted", async (runtype) => {
        const { status, json } = await create({ client_id: "me", image: "busybox", runtype, label: null, price: null });
        expect(status).toBe(200);
        expect(emu.model.instances.get(json.new_contract)!.effective.runtype).toBe(runtype);
    });

    it('a bare "jupyter" is refused, saying what the vendor clients send instead; so is any other runtype', async () => {
        expect(await create({ image: "busybox", runtype: "jupyter" })).toEqual({
            status: 400,
            json: {
                success: false,
                error: "invalid_args",
                msg: 'runtype "jupyter" is a template\'s runtype; for an instance send "jupyter_proxy ssh_proxy" (proxied) or "jupyter_direc ssh_direc ssh_proxy" (direct), as the vendor clients do',
            },
        });
        const other = await create({ image: "busybox", runtype: "ssh_direct ssh_proxy" });
        expect(other.status).toBe(400);
        expect(other.json.msg).toMatch(/^runtype must be one of "ssh", "args", "ssh_proxy"/);
    });

    it("types stay strict but where the live service takes a number as a string: an instance's disk, a switch that is not a boolean", async () => {
        expect((await create({ image: "busybox", disk: "16" })).json.msg).toBe("disk must be a number of GB, at least 8");
        expect((await create({ image: "busybox", disk: 4 })).json.msg).toBe("disk must be a number of GB, at least 8");
        expect((await create({ image: "busybox", force: "yes" })).json.msg).toBe("force must be true or false");
        // A template's disk as the CLI's `--disk_space` sends it, a string, is taken (the live service takes it); a word is not.
        const cliTemplate = (disk: string) =>
            replay(emu, { command: "create template", source: "test", method: "POST", path: "/api/v0/template/", body: { name: `t-${disk}`, image: "busybox", recommended_disk_space: disk } }, { apiKey: emu.demoKey });
        expect(await cliTemplate("16")).toMatchObject({ status: 200, json: { template: { recommended_disk_space: 16 } } });
        expect(await cliTemplate("lots")).toMatchObject({ status: 400, json: { msg: "recommended_disk_space must be number" } });
    });

    it("the machine listing wants user_id or owner=me; a key alone in the query (older CLIs) is a key", async () => {
        const list = (query: Record<string, string>, apiKey?: string) =>
            replay(emu, { command: "show machines", source: "test", method: "GET", path: "/api/v0/machines", query, ...(apiKey ? {} : { anonymous: true as const }) }, { apiKey: apiKey ?? "" });
        expect((await list({ owner: "you" }, emu.demoKey)).json.msg).toBe('owner must be "me"');
        expect((await list({}, emu.demoKey)).json.msg).toBe("user_id (or owner=me) is required");
        expect((await list({ user_id: String(emu.demoUser.id) }, emu.demoKey)).json.machines).toHaveLength(2);
        expect((await list({ owner: "me", api_key: emu.demoKey })).json.machines).toHaveLength(2);
        expect((await list({ owner: "me", api_key: "not-a-key" })).status).toBe(401);
    });
});
