import { Emulator } from "../../testkit/emulator/server";
// Plain http, as any client: the emulator is tested without the provider's client.
import { RawReply, rawCall as call, rawRequest } from "../../testkit/support/rawCall";
import { startEmulator } from "../../testkit/support/fixtures";

/**
 * The service's volume endpoints as the emulator serves them, over real sockets: volume offers
 * searched as offers are, volumes made on them while their sizes fit, listed (the only way a
 * client learns a volume's id), linked to instances by the create's `volume_info`, deleted once no
 * instance uses them; their scopes, their 5.5 s interval and faults as on any route.
 */

const SEARCH = "/api/v0/volumes/search/";
const NETWORK_SEARCH = "/api/v0/network_volumes/search/";
const VOLUMES = "/api/v0/volumes/";
const NETWORK_VOLUMES = "/api/v0/network_volumes/";
const LIST = `${VOLUMES}?owner=me&type=all_volume`;
const asks = (offerId: number) => `/api/v0/asks/${offerId}/`;
const instance = (id: number) => `/api/v0/instances/${id}/`;
const deleteVolume = (id: number | string) => `${VOLUMES}?id=${id}`;

/** One request with a key of the test's choosing. */
const callWithKey = (emu: Emulator, key: string, method: string, path: string, body?: unknown): Promise<RawReply> => rawRequest(emu, method, path, { key, body });

async function listed(emu: Emulator, type = "all_volume"): Promise<Array<Record<string, any>>> {
    const reply = await call(emu, "GET", `${VOLUMES}?owner=me&type=${type}`);
    expect(reply.status).toBe(200);
    return reply.json.volumes;
}

/** A volume made over the wire and found by its name in the listing, as a client must. */
async function made(emu: Emulator, offerId: number, size: number, name: string, path = VOLUMES): Promise<Record<string, any>> {
    const reply = await call(emu, "PUT", path, { id: offerId, size, name });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ success: true, volume_name: name });
    const volume = (await listed(emu)).find((v) => v.label === name);
    expect(volume).toBeDefined();
    return volume!;
}

describe("emulator: volumes", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    describe("searching volume offers", () => {
        it("filters with the offer search's operators (numbers as strings too), orders, limits; disk_space is the GB free", async () => {
            const machine = emu.model.addMachine(emu.otherUser.id, { geolocation: "Lisbon, PT" });
            const cheap = emu.addVolumeOffer({ machineId: machine.id, diskSpace: 100, storageCost: 0.05 });
            const dear = emu.addVolumeOffer({ machineId: machine.id, diskSpace: 400, storageCost: 0.2, inet_up: 50 });
            const mid = emu.addVolumeOffer({ machineId: machine.id, diskSpace: 250, storageCost: 0.1 });

            const reply = await call(emu, "POST", SEARCH, {
                machine_id: { eq: machine.id },
                disk_space: { gte: "100" },
                order: [["storage_cost", "asc"]],
                allocated_storage: 1.0,
            });
            expect(reply.status).toBe(200);
            expect(reply.json.offers.map((o: { id: number }) => o.id)).toEqual([cheap.id, mid.id, dear.id]);
            expect(reply.json.offers[0]).toMatchObject({
                id: cheap.id,
                machine_id: machine.id,
                disk_space: 100,
                storage_cost: 0.05,
                geolocation: "Lisbon, PT",
                verified: true,
                reliability: expect.any(Number),
                inet_up: expect.any(Number),
                inet_down: expect.any(Number),
                cuda_vers: expect.any(Number),
                disk_bw: expect.any(Number),
                cpu_arch: "amd64",
            });

            const desc = await call(emu, "POST", SEARCH, { machine_id: { eq: machine.id }, inet_up: { gt: 100 }, order: [["disk_space", "desc"]], limit: 1 });
            expect(desc.json.offers.map((o: { id: number }) => o.id)).toEqual([mid.id]);

            // What a volume on it takes is no longer free.
            await made(emu, mid.id, 200, "search_space_taken");
            const after = await call(emu, "POST", SEARCH, { id: { eq: mid.id } });
            expect(after.json.offers[0].disk_space).toBe(50);
            const roomy = await call(emu, "POST", SEARCH, { machine_id: { eq: machine.id }, disk_space: { gte: 100 }, order: [["storage_cost", "asc"]] });
            expect(roomy.json.offers.map((o: { id: number }) => o.id)).toEqual([cheap.id, dear.id]);
        });

        it("the vendor CLI's default query (verified, not external, disk_space >= 1, ordered by score) leaves out what it should", async () => {
            const reply = await call(emu, "POST", SEARCH, {
                verified: { eq: true },
                external: { eq: false },
                disk_space: { gte: 1 },
                order: [["score", "desc"]],
                allocated_storage: 1.0,
            });
            expect(reply.status).toBe(200);
            const offers = reply.json.offers as Array<Record<string, any>>;
            expect(offers.length).toBeGreaterThan(0);
            expect(offers.every((o) => o.verified === true && o.external === false && o.disk_space >= 1)).toBe(true);
            const all = (await call(emu, "POST", SEARCH, {})).json.offers as Array<Record<string, any>>;
            expect(all.some((o) => o.verified === false)).toBe(true);
            expect(all.some((o) => o.external === true)).toBe(true);
            const scores = offers.map((o) => o.score as number);
            expect([...scores].sort((a, b) => b - a)).toEqual(scores);
        });

        it("a filter or order on a field it does not know, or a query that is not an object, is a 400", async () => {
            for (const body of [{ gpu_ram: { gt: 1 } }, { order: [["price", "asc"]] }, { limit: 0 }, { disk_space: { gte: "lots" } }, [1, 2], { allocated_storage: "1" }]) {
                const refused = await call(emu, "POST", SEARCH, body);
                expect(refused.status).toBe(400);
                expect(refused.json).toMatchObject({ success: false, error: "invalid_args" });
            }
        });

        it("the network search shows network volume offers only, with their cluster_id; the local one none of them", async () => {
            const net = emu.addVolumeOffer({ network: true, clusterId: 4242, diskSpace: 800, storageCost: 0.3, geolocation: "Texas, US" });
            const reply = await call(emu, "POST", NETWORK_SEARCH, { cluster_id: { eq: 4242 } });
            expect(reply.status).toBe(200);
            expect(reply.json.offers).toEqual([expect.objectContaining({ id: net.id, cluster_id: 4242, machine_id: null, disk_space: 800, storage_cost: 0.3 })]);
            const local = (await call(emu, "POST", SEARCH, {})).json.offers as Array<{ id: number; cluster_id: unknown }>;
            expect(local.some((o) => o.id === net.id || o.cluster_id !== null)).toBe(false);
        });

        it("a GET on the search path is the wrong method", async () => {
            expect((await call(emu, "GET", SEARCH)).status).toBe(405);
        });
    });

    describe("making, listing and deleting volumes", () => {
        it("a create answers the name and no id; the listing shows the volume with its id, label, size, machine and start", async () => {
            const offer = emu.addVolumeOffer({ diskSpace: 100, storageCost: 0.1 });
            const before = Date.now() / 1000;
            const reply = await call(emu, "PUT", VOLUMES, { id: offer.id, size: 30, name: "training_data" });
            expect(reply.status).toBe(200);
            expect(reply.json).toEqual({ success: true, volume_name: "training_data" });

            const volume = (await listed(emu)).find((v) => v.label === "training_data")!;
            expect(volume).toMatchObject({
                label: "training_data",
                disk_space: 30,
                machine_id: offer.machineId,
                cluster_id: null,
                status: expect.any(String),
                geolocation: offer.listing.geolocation,
                storage_total_cost: 3,
                instances: [],
            });
            expect(volume.id).toEqual(expect.any(Number));
            // Its own range: not an offer's, an instance's or its volume offer's id.
            expect(volume.id).not.toBe(offer.id);
            expect(emu.model.offers.has(volume.id) || emu.model.instances.has(volume.id) || emu.model.volumeOffers.has(volume.id)).toBe(false);
            expect(volume.start_date).toBeGreaterThanOrEqual(Math.floor(before));
            expect(volume.start_date).toBeLessThanOrEqual(Date.now() / 1000);
            expect(emu.liveVolumes().map((v) => v.id)).toContain(volume.id);
            expect(emu.model.volumes.get(volume.id)).toMatchObject({ ownerId: emu.demoUser.id, offerId: offer.id, machineId: offer.machineId, name: "training_data", size: 30, deleted: false, network: false });
        });

        it("without a name, the volume gets one, and the answer says it", async () => {
            const offer = emu.addVolumeOffer({ diskSpace: 20 });
            const reply = await call(emu, "PUT", VOLUMES, { id: offer.id, size: 5 });
            expect(reply.status).toBe(200);
            expect(reply.json.volume_name).toMatch(/^[A-Za-z0-9_]{1,64}$/);
            expect((await listed(emu)).filter((v) => v.label === reply.json.volume_name)).toHaveLength(1);
        });

        it("an offer holds several volumes while their sizes fit, and no more; a deleted one's space is free again", async () => {
            const offer = emu.addVolumeOffer({ diskSpace: 100 });
            expect((await call(emu, "PUT", VOLUMES, { id: offer.id, size: 60, name: "fit_a" })).status).toBe(200);
            const tooBig = await call(emu, "PUT", VOLUMES, { id: offer.id, size: 50, name: "fit_b" });
            expect(tooBig.status).toBe(400);
            expect(tooBig.json).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("40 GB free") });
            expect((await call(emu, "PUT", VOLUMES, { id: offer.id, size: 40, name: "fit_c" })).status).toBe(200);
            expect((await call(emu, "PUT", VOLUMES, { id: offer.id, size: 1, name: "fit_d" })).status).toBe(400);
            expect(emu.liveVolumes().filter((v) => v.offerId === offer.id).map((v) => v.name)).toEqual(["fit_a", "fit_c"]);

            const a = (await listed(emu)).find((v) => v.label === "fit_a")!;
            expect((await call(emu, "DELETE", deleteVolume(a.id))).status).toBe(200);
            expect((await call(emu, "PUT", VOLUMES, { id: offer.id, size: 50, name: "fit_b" })).status).toBe(200);
        });

        it.each([
            ["a fraction of a GB", { size: 10.5 }],
            ["a size as a string", { size: "10" }],
            ["no size", { size: undefined }],
            ["a size of 0", { size: 0 }],
        ])("a create with %s is refused", async (_, change) => {
            const offer = emu.addVolumeOffer({ diskSpace: 50 });
            const refused = await call(emu, "PUT", VOLUMES, { id: offer.id, name: "sized", ...change });
            expect(refused.status).toBe(400);
            expect(refused.json).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("size") });
            expect(emu.liveVolumes().filter((v) => v.offerId === offer.id)).toEqual([]);
        });

        it.each([
            ["a hyphen", "my-volume"],
            ["a space", "my volume"],
            ["a dot", "data.v1"],
            ["65 characters", "a".repeat(65)],
            ["an empty name", ""],
            ["a number", 42],
        ])("a name with %s is refused; nothing is made", async (_, name) => {
            const offer = emu.addVolumeOffer({ diskSpace: 50 });
            const refused = await call(emu, "PUT", VOLUMES, { id: offer.id, size: 10, name });
            expect(refused.status).toBe(400);
            expect(refused.json).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("name") });
            expect(emu.liveVolumes().filter((v) => v.offerId === offer.id)).toEqual([]);
        });

        it("a name of 64 letters, digits and underscores is taken", async () => {
            const name = `Vol_9${"x".repeat(59)}`;
            expect(name).toHaveLength(64);
            await made(emu, emu.addVolumeOffer({ diskSpace: 10 }).id, 10, name);
        });

        it("a create on an offer that is not a volume offer of its kind is a 404", async () => {
            const gpuOffer = emu.addOffer();
            const network = emu.addVolumeOffer({ network: true, diskSpace: 50 });
            const local = emu.addVolumeOffer({ diskSpace: 50 });
            for (const [path, id] of [[VOLUMES, gpuOffer.id], [VOLUMES, network.id], [NETWORK_VOLUMES, local.id], [VOLUMES, 1]] as const) {
                const refused = await call(emu, "PUT", path, { id, size: 10, name: "nowhere" });
                expect(refused.status).toBe(404);
                expect(refused.json).toMatchObject({ success: false });
            }
        });

        it("a delete removes the volume from the listing; the same delete again, or an unknown id, is a 404; no id is a 400", async () => {
            const volume = await made(emu, emu.addVolumeOffer({ diskSpace: 10 }).id, 10, "to_delete");
            const deleted = await call(emu, "DELETE", deleteVolume(volume.id));
            expect(deleted.status).toBe(200);
            expect(deleted.json).toMatchObject({ success: true });
            expect((await listed(emu)).some((v) => v.id === volume.id)).toBe(false);
            expect(emu.model.volumes.get(volume.id)!.deleted).toBe(true);

            for (const id of [volume.id, 3999999]) {
                const gone = await call(emu, "DELETE", deleteVolume(id));
                expect(gone.status).toBe(404);
                expect(gone.json).toMatchObject({ success: false, error: "no_such_volume" });
            }
            expect((await call(emu, "DELETE", VOLUMES)).status).toBe(400);
            expect((await call(emu, "DELETE", deleteVolume("abc"))).status).toBe(400);
        });

        it("another account's volume is neither listed nor deletable", async () => {
            const otherKey = emu.createKey(undefined, emu.otherUser.id).key;
            const offer = emu.addVolumeOffer({ diskSpace: 10 });
            expect((await callWithKey(emu, otherKey, "PUT", VOLUMES, { id: offer.id, size: 10, name: "theirs" })).status).toBe(200);
            const theirs = emu.liveVolumes(emu.otherUser.id).find((v) => v.name === "theirs")!;
            expect((await listed(emu)).some((v) => v.id === theirs.id)).toBe(false);
            expect((await call(emu, "DELETE", deleteVolume(theirs.id))).status).toBe(404);
            expect(emu.model.volumes.get(theirs.id)!.deleted).toBe(false);
        });

        it("network volumes: made on a network offer, listed by type with their cluster_id, deleted on the same route", async () => {
            const offer = emu.addVolumeOffer({ network: true, clusterId: 77, diskSpace: 100, storageCost: 0.25 });
            const reply = await call(emu, "PUT", NETWORK_VOLUMES, { id: offer.id, size: 40, name: "shared_weights" });
            expect(reply.json).toEqual({ success: true, volume_name: "shared_weights" });

            const networkOnes = await listed(emu, "network_volume");
            expect(networkOnes).toEqual([expect.objectContaining({ label: "shared_weights", cluster_id: 77, machine_id: null, disk_space: 40, storage_total_cost: 10 })]);
            expect((await listed(emu, "local_volume")).some((v) => v.label === "shared_weights")).toBe(false);
            expect((await listed(emu, "all_volume")).some((v) => v.label === "shared_weights")).toBe(true);
            expect(emu.model.volumes.get(networkOnes[0].id)).toMatchObject({ network: true, machineId: null });

            expect((await call(emu, "DELETE", deleteVolume(networkOnes[0].id))).status).toBe(200);
            expect(await listed(emu, "network_volume")).toEqual([]);
        });

        it("a listing of another type or owner is a 400", async () => {
            expect((await call(emu, "GET", `${VOLUMES}?owner=me&type=local`)).status).toBe(400);
            expect((await call(emu, "GET", `${VOLUMES}?owner=1001&type=all_volume`)).status).toBe(400);
            expect((await call(emu, "GET", VOLUMES)).status).toBe(200);
        });
    });

    describe("linking volumes to instances (volume_info)", () => {
        it("an instance linked to a volume lists it, the volume lists the instance, and the volume cannot be deleted until the instance is destroyed", async () => {
            const volumeOffer = emu.addVolumeOffer({ diskSpace: 50 });
            const volume = await made(emu, volumeOffer.id, 50, "in_use");
            const offer = emu.addOffer();
            expect(offer.machineId).toBe(volumeOffer.machineId);

            const created = await call(emu, "PUT", asks(offer.id), {
                image: "busybox",
                volume_info: { create_new: false, volume_id: volume.id, mount_path: "/data" },
            });
            expect(created.status).toBe(200);
            const instanceId = created.json.new_contract as number;
            expect((await call(emu, "GET", instance(instanceId))).json.instances.volume_info).toEqual([{ id: volume.id, mount_path: "/data" }]);
            expect((await listed(emu)).find((v) => v.id === volume.id)!.instances).toEqual([instanceId]);

            const refused = await call(emu, "DELETE", deleteVolume(volume.id));
            expect(refused.status).toBe(400);
            expect(refused.json).toEqual({
                success: false,
                error: "volume_in_use",
                msg: "all instances using the volume must be destroyed before the volume can be deleted",
            });
            expect(emu.liveVolumes().some((v) => v.id === volume.id)).toBe(true);

            expect((await call(emu, "DELETE", instance(instanceId), {})).status).toBe(200);
            expect((await listed(emu)).find((v) => v.id === volume.id)!.instances).toEqual([]);
            expect((await call(emu, "DELETE", deleteVolume(volume.id))).status).toBe(200);
        });

        it("a local volume is refused on an offer of another machine; nothing is rented", async () => {
            const elsewhere = emu.model.addMachine(emu.demoUser.id);
            const volume = await made(emu, emu.addVolumeOffer({ machineId: elsewhere.id, diskSpace: 10 }).id, 10, "other_machine");
            const offer = emu.addOffer();
            expect(offer.machineId).not.toBe(elsewhere.id);

            const refused = await call(emu, "PUT", asks(offer.id), {
                image: "busybox",
                volume_info: { create_new: false, volume_id: volume.id, mount_path: "/data" },
            });
            expect(refused.status).toBe(400);
            expect(refused.json).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining(`machine ${elsewhere.id}`) });
            expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
            expect((await listed(emu)).find((v) => v.id === volume.id)!.instances).toEqual([]);

            // On its own machine it is taken.
            const there = emu.addOffer(undefined, undefined, elsewhere.id);
            const linked = await call(emu, "PUT", asks(there.id), { image: "busybox", volume_info: { create_new: false, volume_id: volume.id, mount_path: "/data" } });
            expect(linked.status).toBe(200);
            await call(emu, "DELETE", instance(linked.json.new_contract), {});
        });

        it("a deleted volume, or another account's, is refused", async () => {
            const deletedOne = await made(emu, emu.addVolumeOffer({ diskSpace: 10 }).id, 10, "deleted_one");
            await call(emu, "DELETE", deleteVolume(deletedOne.id));
            const theirs = emu.model.addVolume({ ownerId: emu.otherUser.id, offerId: emu.addVolumeOffer().id, machineId: emu.addOffer().machineId, name: "theirs_too", size: 1, createdAt: Date.now(), network: false });
            for (const id of [deletedOne.id, theirs.id]) {
                const offer = emu.addOffer();
                const refused = await call(emu, "PUT", asks(offer.id), { image: "busybox", volume_info: { create_new: false, volume_id: id, mount_path: "/data" } });
                expect(refused.status).toBe(400);
                expect(refused.json).toMatchObject({ success: false, error: "invalid_args", msg: expect.stringContaining("volume_info") });
                expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
            }
        });

        it("a network volume links on any machine", async () => {
            const elsewhere = emu.model.addMachine(emu.demoUser.id);
            const volume = await made(emu, emu.addVolumeOffer({ network: true, diskSpace: 10 }).id, 10, "net_linked", NETWORK_VOLUMES);
            const offer = emu.addOffer(undefined, undefined, elsewhere.id);
            const created = await call(emu, "PUT", asks(offer.id), { image: "busybox", volume_info: { create_new: false, volume_id: volume.id, mount_path: "/weights" } });
            expect(created.status).toBe(200);
            expect((await listed(emu)).find((v) => v.id === volume.id)!.instances).toEqual([created.json.new_contract]);
            await call(emu, "DELETE", instance(created.json.new_contract), {});
        });

        it("create_new: true, and a volume_id never issued, are kept with the instance as before; no volume is made or linked", async () => {
            const before = emu.liveVolumes().length;
            for (const volumeInfo of [
                { create_new: true, volume_id: 77, size: 20, mount_path: "/scratch" },
                { create_new: false, volume_id: 5, mount_path: "/data" },
            ]) {
                const created = await call(emu, "PUT", asks(emu.addOffer().id), { image: "busybox", volume_info: volumeInfo });
                expect(created.status).toBe(200);
                const record = emu.model.instances.get(created.json.new_contract)!;
                expect(record.effective.volume_info).toEqual(volumeInfo);
                expect(record.volumes).toBeUndefined();
                expect(emu.instanceView(record.id)).not.toHaveProperty("volume_info");
                await call(emu, "DELETE", instance(record.id), {});
            }
            expect(emu.liveVolumes()).toHaveLength(before);
        });
    });

    describe("scopes", () => {
        it("a key without instance_write may search and list but not make or delete; without misc it may not search; without instance_read it may not list", async () => {
            const volume = await made(emu, emu.addVolumeOffer({ diskSpace: 10 }).id, 10, "scoped");
            const offer = emu.addVolumeOffer({ diskSpace: 10 });
            const readOnly = emu.createKey({ api: { instance_read: {}, misc: {} } }).key;
            expect((await callWithKey(emu, readOnly, "POST", SEARCH, {})).status).toBe(200);
            expect((await callWithKey(emu, readOnly, "POST", NETWORK_SEARCH, {})).status).toBe(200);
            expect((await callWithKey(emu, readOnly, "GET", LIST)).status).toBe(200);
            for (const [method, path, body] of [
                ["PUT", VOLUMES, { id: offer.id, size: 5, name: "not_allowed" }],
                ["PUT", NETWORK_VOLUMES, { id: offer.id, size: 5, name: "not_allowed" }],
                ["DELETE", deleteVolume(volume.id), undefined],
            ] as const) {
                const refused = await callWithKey(emu, readOnly, method, path, body);
                expect(refused.status).toBe(403);
                expect(refused.json).toMatchObject({ success: false, error: "permission_denied" });
            }
            expect(emu.liveVolumes().some((v) => v.name === "not_allowed")).toBe(false);
            expect(emu.liveVolumes().some((v) => v.id === volume.id)).toBe(true);

            const writeOnly = emu.createKey({ api: { instance_write: {} } }).key;
            expect((await callWithKey(emu, writeOnly, "POST", SEARCH, {})).status).toBe(403);
            expect((await callWithKey(emu, writeOnly, "GET", LIST)).status).toBe(403);
            expect((await callWithKey(emu, writeOnly, "PUT", VOLUMES, { id: offer.id, size: 5, name: "allowed" })).status).toBe(200);
            expect((await callWithKey(emu, writeOnly, "DELETE", deleteVolume(volume.id))).status).toBe(200);
        });
    });

    describe("faults", () => {
        afterEach(() => emu.faults.clear());

        it("a lost response to a create (reset after acting) leaves the volume made: the listing finds it by name", async () => {
            const offer = emu.addVolumeOffer({ diskSpace: 10 });
            emu.faults.add({ method: "PUT", path: VOLUMES, fault: { kind: "lostResponse" } });
            await expect(call(emu, "PUT", VOLUMES, { id: offer.id, size: 10, name: "lost_answer" })).rejects.toThrow();
            expect((await listed(emu)).filter((v) => v.label === "lost_answer")).toEqual([expect.objectContaining({ disk_space: 10 })]);
            expect(emu.requestsTo("PUT", VOLUMES).pop()).toMatchObject({ route: "volume-create", fault: "lostResponse", status: 0 });
        });

        it("a lost response with a gateway's status still made the volume; twice makes two of the same name while they fit", async () => {
            const offer = emu.addVolumeOffer({ diskSpace: 30 });
            emu.faults.add({ method: "PUT", path: "/api/v0/volumes", fault: { kind: "lostResponse", status: 504, twice: true } });
            const reply = await call(emu, "PUT", VOLUMES, { id: offer.id, size: 10, name: "made_twice" });
            expect(reply.status).toBe(504);
            expect((await listed(emu)).filter((v) => v.label === "made_twice")).toHaveLength(2);

            // A second copy that would not fit is not made.
            emu.faults.add({ method: "PUT", path: VOLUMES, fault: { kind: "lostResponse", status: 504, twice: true } });
            await call(emu, "PUT", VOLUMES, { id: offer.id, size: 10, name: "no_room_twice" });
            expect((await listed(emu)).filter((v) => v.label === "no_room_twice")).toHaveLength(1);
        });

        it("a fault in place of the answer (503, reset) makes nothing; rules by method and path hit the other volume routes too", async () => {
            const offer = emu.addVolumeOffer({ network: true, diskSpace: 10 });
            emu.faults.add({ method: "PUT", path: NETWORK_VOLUMES, fault: { kind: "status", status: 503 } });
            expect((await call(emu, "PUT", NETWORK_VOLUMES, { id: offer.id, size: 10, name: "never_made" })).status).toBe(503);
            emu.faults.add({ method: "PUT", path: NETWORK_VOLUMES, fault: { kind: "reset" } });
            await expect(call(emu, "PUT", NETWORK_VOLUMES, { id: offer.id, size: 10, name: "never_made" })).rejects.toThrow();
            expect(emu.liveVolumes().some((v) => v.name === "never_made")).toBe(false);

            emu.faults.add({ method: "POST", path: SEARCH, fault: { kind: "malformed" } });
            expect((await call(emu, "POST", SEARCH, {})).json).toBe('{"success": true, "tem');
            emu.faults.add({ method: "GET", path: VOLUMES, fault: { kind: "status", status: 500 } });
            expect((await call(emu, "GET", LIST)).status).toBe(500);
            emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/volumes\/?$/, fault: { kind: "status", status: 502 } });
            expect((await call(emu, "DELETE", deleteVolume(1))).status).toBe(502);
        });
    });
});

describe("emulator: the volume endpoints' 5.5 s interval", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator({ rateLimitScale: 1 });
    });
    afterAll(() => emu.stop());

    it("a second call to one volume endpoint by one key at once is a 429 naming 5.5 s; other endpoints and other keys are apart", async () => {
        const first = await call(emu, "GET", LIST);
        expect(first.status).toBe(200);
        const second = await call(emu, "GET", LIST);
        expect(second.status).toBe(429);
        expect(second.text).toBe("API requests too frequent endpoint threshold=5.5");

        // Each volume endpoint has its own interval, as has each key.
        expect((await call(emu, "POST", SEARCH, {})).status).toBe(200);
        expect((await call(emu, "POST", NETWORK_SEARCH, {})).status).toBe(200);
        expect((await call(emu, "POST", SEARCH, {})).status).toBe(429);
        expect((await call(emu, "POST", NETWORK_SEARCH, {})).status).toBe(429);
        const otherKey = emu.createKey().key;
        expect((await callWithKey(emu, otherKey, "GET", LIST)).status).toBe(200);

        const offer = emu.addVolumeOffer({ diskSpace: 10 });
        expect((await call(emu, "PUT", VOLUMES, { id: offer.id, size: 1, name: "paced_a" })).status).toBe(200);
        expect((await call(emu, "PUT", VOLUMES, { id: offer.id, size: 1, name: "paced_b" })).status).toBe(429);
        expect(emu.liveVolumes().map((v) => v.name)).toEqual(["paced_a"]);
        const id = emu.liveVolumes()[0].id;
        expect((await call(emu, "DELETE", deleteVolume(id))).status).toBe(200);
        expect((await call(emu, "DELETE", deleteVolume(id))).status).toBe(429);
        expect(emu.requests.filter((r) => r.rateLimited).map((r) => r.route)).toEqual([
            "volume-list",
            "volume-search",
            "network-volume-search",
            "volume-create",
            "volume-delete",
        ]);
    });

    it("the interval scales like the other routes' (rateLimitScale) and can be overridden by route name", async () => {
        const fast = await startEmulator({ rateLimitScale: 0.001, intervalOverrides: { "volume-list": 60000 } });
        try {
            const offer = fast.addVolumeOffer({ diskSpace: 10 });
            expect((await call(fast, "PUT", VOLUMES, { id: offer.id, size: 1, name: "scaled_a" })).status).toBe(200);
            await new Promise((resolve) => setTimeout(resolve, 20));
            // 5.5 ms at this scale: long past.
            expect((await call(fast, "PUT", VOLUMES, { id: offer.id, size: 1, name: "scaled_b" })).status).toBe(200);
            // 60 ms for the list, overridden.
            expect((await call(fast, "GET", LIST)).status).toBe(200);
            expect((await call(fast, "GET", LIST)).status).toBe(429);
        } finally {
            await fast.stop();
        }
    });
});

describe("emulator: rate limits per endpoint, as the live service keeps them", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator({ rateLimitScale: 1 });
    });
    afterAll(() => emu.stop());

    // The vendor SDK's own SSH key test creates a key and lists the keys right after: the 1 s
    // threshold is the create's, and does not make the listing wait.
    it("a list of SSH keys right after a create is answered; a second create at once is a 429", async () => {
        const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPerEndpointLimits per-endpoint";
        expect((await call(emu, "POST", "/api/v0/ssh/", { ssh_key: key })).status).toBe(200);
        expect((await call(emu, "GET", "/api/v0/ssh/")).status).toBe(200);
        expect((await call(emu, "POST", "/api/v0/ssh/", { ssh_key: `${key}2` })).status).toBe(429);
    });
});
