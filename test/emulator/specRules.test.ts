import { Emulator } from "../../testkit/emulator/server";
// Plain http, as any client: the emulator is tested without the provider's client.
import { rawCall as call } from "../../testkit/support/rawCall";
import { eventually, startEmulator } from "../../testkit/support/fixtures";

/**
 * Rules of the two specs (docs/service-contract.md, docs/live-service.md) the emulator was more
 * lenient about than the service, found by a rule-by-rule review: each test is one rule, over real
 * sockets with plain http, so a provider that breaks the rule fails here as it would live.
 */

const asks = (offerId: number) => `/api/v0/asks/${offerId}/`;
const instance = (id: number) => `/api/v0/instances/${id}/`;
const TEMPLATE = "/api/v0/template/";

describe("the emulator keeps the specs' rules where it was lenient", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    // Contract §3: exited, unknown and offline never reach running. Before, a start (PUT
    // {state: "running"}) ended `running` whatever the offer's script said, so a provider that
    // "repaired" a dead instance by starting it, or one created stopped then started on a bad
    // offer, saw it run here and never live.
    it.each([
        ["exited", "container exited with code 1"],
        ["unknown", undefined],
        ["offline", "host went away"],
    ])("a start of an instance whose offer is scripted %s (%s) ends so again, never running", async (status, statusMsg) => {
        const offer = emu.addOffer({ status: status as "exited" | "unknown" | "offline", statusMsg });
        const created = await call(emu, "PUT", asks(offer.id), { image: "busybox", target_state: "stopped" });
        expect(created.status).toBe(200);
        const id = created.json.new_contract as number;
        await eventually(async () => emu.instanceView(id)?.actual_status === "stopped");

        const started = await call(emu, "PUT", instance(id), { state: "running" });
        expect(started.json).toMatchObject({ success: true });
        const seen = new Set<unknown>();
        const ended = await eventually(async () => {
            const view = (await call(emu, "GET", instance(id))).json.instances;
            seen.add(view.actual_status);
            return view.actual_status === status && view;
        });
        expect(ended).toMatchObject({ intended_status: "running", ssh_port: null, status_msg: statusMsg ?? status });
        await new Promise((resolve) => setTimeout(resolve, 80));
        expect((await call(emu, "GET", instance(id))).json.instances.actual_status).toBe(status);
        expect(seen.has("running")).toBe(false);
        await call(emu, "DELETE", instance(id), {});
    });

    it("a start of an instance on a good offer still runs", async () => {
        const offer = emu.addOffer();
        const id = (await call(emu, "PUT", asks(offer.id), { image: "busybox", target_state: "stopped" })).json.new_contract as number;
        await call(emu, "PUT", instance(id), { state: "running" });
        await eventually(async () => emu.instanceView(id)?.actual_status === "running");
        await call(emu, "DELETE", instance(id), {});
    });

    // docs/live-service.md "Renting by need": `rentable` is false while the host keeps the offer
    // off the market. Before, such an offer was rented like any other, so a search that dropped the
    // CLI's defaults (`rentable: true`) and picked one passed here.
    it("an offer kept off the market (rentable: false) is refused as no_such_ask; nothing is rented", async () => {
        const offer = emu.addOffer(undefined, undefined, undefined, { rentable: false });
        const refused = await call(emu, "PUT", asks(offer.id), { image: "busybox" });
        expect(refused.status).toBe(404);
        expect(refused.json).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("no_such_ask") });
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });

    // "a taken offer answers 404 no_such_ask or 410": both, so a client is tested against each.
    it.each([[410, "no_such_ask"], [404, "invalid_args"]] as const)("takenOfferStatus %s: a taken offer is answered %s", async (status, error) => {
        const other = await startEmulator({ takenOfferStatus: status });
        try {
            const offer = other.addOffer();
            expect((await call(other, "PUT", asks(offer.id), { image: "busybox" })).status).toBe(200);
            const taken = await call(other, "PUT", asks(offer.id), { image: "busybox" });
            expect(taken.status).toBe(status);
            expect(taken.json).toMatchObject({ success: false, error });
            expect(JSON.stringify(taken.json)).toContain("no_such_ask");
        } finally {
            await other.stop();
        }
        expect(new Emulator().options.takenOfferStatus).toBe(410);
    });

    // Contract §2.3: create_new boolean, volume_id integer, size number, mount_path string.
    it.each([
        ["camelCase names", { createNew: false, volumeId: 5, mountPath: "/data" }],
        ["a string id", { create_new: false, volume_id: "5", mount_path: "/data" }],
        ["no mount path", { create_new: false, volume_id: 5 }],
        ["create_new as a string", { create_new: "false", volume_id: 5, mount_path: "/data" }],
        ["size as a string", { create_new: true, volume_id: 5, size: "20", mount_path: "/data" }],
        ["not an object", "vol-5:/data"],
    ])("volume_info with %s is refused; nothing is rented", async (_, volumeInfo) => {
        const offer = emu.addOffer();
        const refused = await call(emu, "PUT", asks(offer.id), { image: "busybox", volume_info: volumeInfo });
        expect(refused.status).toBe(400);
        expect(refused.json).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("volume_info") });
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });

    it("volume_info as the contract states it is taken, a new volume with or without its size", async () => {
        for (const volumeInfo of [
            { create_new: false, volume_id: 5, mount_path: "/data" },
            { create_new: true, volume_id: 77, size: 20, mount_path: "/data" },
        ]) {
            const created = await call(emu, "PUT", asks(emu.addOffer().id), { image: "busybox", volume_info: volumeInfo });
            expect(created.status).toBe(200);
            expect(emu.model.instances.get(created.json.new_contract)!.effective.volume_info).toEqual(volumeInfo);
        }
    });

    // Contract §2.2: a template's runtype is ssh, jupyter or args.
    it("a template's runtype is one of ssh, jupyter, args, on create and on edit; an instance's wire form is refused", async () => {
        const base = { image: "busybox", docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        for (const runtype of ["ssh_proxy", "jupyter_direc ssh_direc ssh_proxy", "SSH", ""]) {
            const refused = await call(emu, "POST", TEMPLATE, { ...base, name: `rt-${runtype}`, runtype });
            expect(refused.status).toBe(400);
            expect(refused.json).toMatchObject({ success: false, error: "invalid_args", msg: "runtype must be one of ssh, jupyter, args" });
        }
        const made = await call(emu, "POST", TEMPLATE, { ...base, name: "rt-ok", runtype: "jupyter" });
        expect(made.json).toMatchObject({ success: true, template: { runtype: "jupyter" } });
        const edit = await call(emu, "PUT", TEMPLATE, { hash_id: made.json.template.hash_id, runtype: "ssh_proxy" });
        expect(edit.status).toBe(400);
        expect(emu.model.templates.get(made.json.template.id)!.fields.runtype).toBe("jupyter");
        expect((await call(emu, "PUT", TEMPLATE, { hash_id: made.json.template.hash_id, runtype: "ssh" })).json).toMatchObject({ success: true, template: { runtype: "ssh" } });
    });

    // docs/live-service.md: "Delete only unlinks the template from the account", and a create of
    // existing content answers with the existing template.
    it("a deleted template is only unlinked: the same content created again answers with it, linked again", async () => {
        const body = { name: "unlinked", image: "busybox", env: "-e A=1", docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        const made = (await call(emu, "POST", TEMPLATE, body)).json.template;
        expect((await call(emu, "DELETE", TEMPLATE, { template_id: made.id })).json).toMatchObject({ success: true });
        const again = await call(emu, "POST", TEMPLATE, body);
        expect(again.status).toBe(200);
        expect(again.json).toMatchObject({ success: false, msg: `Existing Template Found: ${made.id}. User relationship added.`, template: { id: made.id, hash_id: made.hash_id } });
        const q = encodeURIComponent(JSON.stringify({ id: { eq: made.id } }));
        expect((await call(emu, "GET", `${TEMPLATE}?select_filters=${q}`)).json.templates).toEqual([expect.objectContaining({ id: made.id })]);
        // Another account's deleted template is not found for this one.
        const theirs = emu.model.addTemplate(emu.otherUser.id, { name: "theirs-unlinked", image: "alpine", tag: "latest", runtype: "args", recommended_disk_space: 8, private: false });
        theirs.deleted = true;
        const fresh = await call(emu, "POST", TEMPLATE, { name: "theirs-unlinked", image: "alpine", private: false });
        expect(fresh.json).toMatchObject({ success: true });
        expect(fresh.json.template.id).not.toBe(theirs.id);
    });
});

describe("the emulator answers a template delete as the service's API reference documents it", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    // docs/live-service.md "Templates": a key not the creator's is refused 401 "Templates can ONLY be
    // Deleted by their Creator". Before, the emulator answered 404 not_found, which a client may take
    // for "already gone" and drop a template that is still there.
    it("another account's template, public or private, is refused 401 and stays", async () => {
        for (const isPrivate of [false, true]) {
            const theirs = emu.model.addTemplate(emu.otherUser.id, { name: `theirs-${isPrivate}`, image: "alpine", tag: "latest", private: isPrivate });
            const refused = await call(emu, "DELETE", TEMPLATE, { template_id: theirs.id });
            expect(refused.status).toBe(401);
            expect(refused.json).toMatchObject({ success: false, msg: "Templates can ONLY be Deleted by their Creator" });
            expect(theirs.deleted).toBe(false);
        }
    });

    it("the creator's delete answers success with the documented message", async () => {
        const made = (await call(emu, "POST", TEMPLATE, { name: "doomed", image: "busybox" })).json.template;
        const deleted = await call(emu, "DELETE", TEMPLATE, { template_id: made.id });
        expect(deleted.status).toBe(200);
        expect(deleted.json).toEqual({ success: true, msg: `Template ${made.id} Deleted Successfully` });
        // Its own template, already deleted (unlinked), or one that never was: not found.
        expect((await call(emu, "DELETE", TEMPLATE, { template_id: made.id })).status).toBe(404);
        expect((await call(emu, "DELETE", TEMPLATE, { template_id: 1 })).status).toBe(404);
    });
});

describe("the emulator keeps a template's own rules on every write", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    // Contract §2.2: extra_filters has the shape {field: {op: value}}, with the search's operators;
    // contract §4.7 merges a create's extra_filters by key. Before, any object was taken.
    const badFilters: Array<[string, unknown, string]> = [
        ["a bare value", { gpu_name: "RTX 4090" }, "extra_filters: filter on gpu_name must be an object of operators"],
        ["a misspelt operator", { gpu_ram: { gtee: 24 } }, "extra_filters: unknown operator gtee on gpu_ram"],
        ["no operator", { gpu_ram: {} }, "extra_filters: filter on gpu_ram has no operator"],
        ["in with no array", { gpu_name: { in: "RTX 4090" } }, "extra_filters: gpu_name in takes an array"],
        ["a list", [{ gpu_ram: { gte: 24 } }], "extra_filters must be object"],
    ];

    it.each(badFilters)("extra_filters with %s is refused on a template create and edit, and on an instance create", async (_, extraFilters, msg) => {
        const created = await call(emu, "POST", TEMPLATE, { name: `ef-${msg}`, image: "busybox", extra_filters: extraFilters });
        expect(created.status).toBe(400);
        expect(created.json).toMatchObject({ success: false, error: "invalid_args", msg });

        const made = (await call(emu, "POST", TEMPLATE, { name: `ef-ok-${msg}`, image: "busybox", extra_filters: { gpu_ram: { gte: 24 } } })).json.template;
        const edited = await call(emu, "PUT", TEMPLATE, { hash_id: made.hash_id, extra_filters: extraFilters });
        expect(edited.status).toBe(400);
        expect(emu.model.templates.get(made.id)!.fields.extra_filters).toEqual({ gpu_ram: { gte: 24 } });

        const offer = emu.addOffer();
        const rented = await call(emu, "PUT", asks(offer.id), { image: "busybox", extra_filters: extraFilters });
        expect(rented.status).toBe(400);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });

    it("extra_filters on any offer field, with every operator, is taken", async () => {
        const extraFilters = { gpu_ram: { gte: 24, lt: 100 }, gpu_name: { in: ["RTX 4090"] }, verified: { eq: true }, geolocation: { notin: [] } };
        const made = await call(emu, "POST", TEMPLATE, { name: "ef-fine", image: "busybox", extra_filters: extraFilters });
        expect(made.json).toMatchObject({ success: true, template: { extra_filters: extraFilters } });
        const rented = await call(emu, "PUT", asks(emu.addOffer().id), { template_hash_id: made.json.template.hash_id, extra_filters: { num_gpus: { eq: 1 } } });
        expect(emu.model.instances.get(rented.json.new_contract)!.effective.extra_filters).toEqual({ ...extraFilters, num_gpus: { eq: 1 } });
    });

    // As on create: an edit could leave a template with an empty name or image.
    it("an edit that empties the name or the image is refused", async () => {
        const made = (await call(emu, "POST", TEMPLATE, { name: "keeps-name", image: "busybox" })).json.template;
        for (const change of [{ name: "" }, { image: "" }]) {
            const edited = await call(emu, "PUT", TEMPLATE, { hash_id: made.hash_id, ...change });
            expect(edited.status).toBe(400);
            expect(edited.json).toMatchObject({ success: false, msg: "name and image must not be empty" });
        }
        expect(emu.model.templates.get(made.id)!.fields).toMatchObject({ name: "keeps-name", image: "busybox" });
    });
});

describe("the emulator answers an SSH key delete as the service's API reference documents it", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    // A key not found, or not the account's, is a 400 no_ssh_key "No ssh key provided"; before, a 404 not_found.
    it("a key already deleted, never made, or another account's: 400 no_ssh_key, and another account's stays", async () => {
        const made = (await call(emu, "POST", "/api/v0/ssh/", { ssh_key: "ssh-ed25519 AAAAC3NzaSpecRules gone@test" })).json.key;
        expect((await call(emu, "DELETE", `/api/v0/ssh/${made.id}/`, {})).json).toEqual({ success: true });
        const theirs = emu.model.addSshKey(emu.otherUser.id, "ssh-ed25519 AAAAC3NzaSpecRules theirs@test");
        for (const id of [made.id, 1, theirs.id]) {
            const refused = await call(emu, "DELETE", `/api/v0/ssh/${id}/`, {});
            expect(refused.status).toBe(400);
            expect(refused.json).toEqual({ success: false, error: "no_ssh_key", msg: "No ssh key provided" });
        }
        expect(emu.model.sshKeys.has(theirs.id)).toBe(true);
    });
});
