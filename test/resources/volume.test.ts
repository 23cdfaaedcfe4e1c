import { Instance, NetworkVolume, Volume, searchVolumeOffers } from "../../provider";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { programEmulator } from "../../testkit/support/programEmulator";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

/**
 * A local volume through Pulumi's dynamic-provider host against the emulator: created by offer
 * query under a price ceiling, refreshed, replaced, deleted; a lost create answer found by the
 * listing, not sent again; a delete refused while an instance uses it, naming the instance.
 */
const CREATE = "/api/v0/volumes/";

describe("Volume through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());
    beforeEach(() => stack.emu.clearLog());
    afterEach(async () => {
        stack.emu.faults.clear();
        await stack.engine.destroy();
    });

    /** Three offers on one machine of their own, cheapest $0.05 with 50 GB free. */
    function storageMarket(geolocation: string) {
        const { emu } = stack;
        const machine = emu.model.addMachine(emu.demoUser.id, { gpu_name: "VOLUME-HOST" });
        return [
            emu.addVolumeOffer({ machineId: machine.id, diskSpace: 50, storageCost: 0.05, geolocation }),
            emu.addVolumeOffer({ machineId: machine.id, diskSpace: 500, storageCost: 0.1, geolocation }),
            emu.addVolumeOffer({ machineId: machine.id, diskSpace: 500, storageCost: 0.3, geolocation }),
        ];
    }

    it("check refuses what cannot be created, naming the property, before any request", async () => {
        const { emu, host } = stack;
        const before = emu.requests.length;
        for (const [args, property, reason] of [
            [{ sizeGb: 10 }, "offerId", /give offerId .* offer .* or adopt/],
            [{ sizeGb: 10, offerId: 1, offer: {} }, "offer", /give one of offerId, offer and adopt, not offerId and offer/],
            [{ sizeGb: 10, offerId: 1, name: "has space" }, "name", /letters, digits and underscores/],
            [{ sizeGb: 1.5, offerId: 1 }, "sizeGb", /whole number of GB/],
        ] as const) {
            const [reg] = await registerAsProgram(() => new Volume("bad", args as never));
            const checked = await host.check(host.urn(reg.type, reg.name), {}, reg.inputs);
            expect(checked.failures).toEqual([expect.objectContaining({ property, reason: expect.stringMatching(reason) })]);
        }
        expect(emu.requests.length).toBe(before);
    });

    it("by query under a ceiling: the cheapest offer with room; refresh keeps it; a new size replaces it; delete removes it", async () => {
        const { emu, engine } = stack;
        const [small, fits] = storageMarket("Norway, NO");
        const program = (sizeGb: number) => () => new Volume("data", { offer: { filters: { geolocation: { eq: "Norway, NO" } }, maxPricePerGbMonth: 0.2 }, sizeGb });
        await engine.up(program(100));
        const [made] = emu.liveVolumes();
        expect(made).toMatchObject({ offerId: fits.id, size: 100 });
        expect(made.offerId).not.toBe(small.id); // the cheapest has 50 GB free
        expect(engine.get("data")).toMatchObject({
            id: String(made.id),
            outputs: { volumeId: made.id, rentedOfferId: fits.id, machineId: fits.machineId, storageCostPerGbMonth: 0.1, sizeGb: 100, name: expect.stringMatching(/^pulumi_[0-9a-f]{16}_0$/) },
        });
        expect(made.name).toBe(engine.get("data").outputs.name);

        await engine.refresh();
        expect(engine.get("data").id).toBe(String(made.id));
        expect((await engine.up(program(100))).same).toEqual(["data"]);

        const summary = await engine.up(program(120));
        expect(summary.replace).toEqual([{ name: "data", because: ["sizeGb"] }]);
        expect(emu.liveVolumes().map((v) => v.size)).toEqual([120]);

        await engine.destroy();
        expect(emu.liveVolumes()).toEqual([]);
    });

    it("a ceiling below every match fails the create naming the cheapest match with room, from one more search, and creates nothing", async () => {
        const { emu, engine } = stack;
        const [small, fits] = storageMarket("Chile, CL");
        const program = (sizeGb: number, maxPricePerGbMonth: number) => () => new Volume("dear", { offer: { filters: { geolocation: { eq: "Chile, CL" } }, maxPricePerGbMonth }, sizeGb });
        await expect(engine.up(program(10, 0.01))).rejects.toThrow(
            `no volume offer matching the query with 10 GB free is at or below maxPricePerGbMonth $0.01 per GB-month; the cheapest match is $0.05 per GB-month (volume offer ${small.id}). Nothing was created`,
        );
        // The cheapest offer has 50 GB free: for 100 GB the cheapest match is the next.
        const refused = await engine.up(program(100, 0.08)).catch((e) => e);
        expect(codeIn(refused)).toBe("price_above_ceiling");
        expect(refused.message).toContain(`the cheapest match is $0.1 per GB-month (volume offer ${fits.id})`);
        // One search with the ceiling, one without it to say what it would take, per create.
        const searches = emu.requestsTo("POST", "/api/v0/volumes/search/").map((r) => r.body as Record<string, unknown>);
        expect(searches).toHaveLength(4);
        expect(searches.map((b) => b.storage_cost)).toEqual([{ lte: 0.01 }, undefined, { lte: 0.08 }, undefined]);
        expect(emu.requestsTo("PUT", CREATE)).toEqual([]);
    });

    it("a query nothing matches, whatever the price, says so", async () => {
        const { emu, engine } = stack;
        storageMarket("Mali, ML");
        await expect(engine.up(() => new Volume("none", { offer: { filters: { geolocation: { eq: "Nowhere" } }, maxPricePerGbMonth: 1 }, sizeGb: 10 }))).rejects.toThrow(
            "no volume offer matching the query with 10 GB free is on the market; nothing was created",
        );
        expect(emu.requestsTo("PUT", CREATE)).toEqual([]);
    });

    it("a lost create answer is found by the listing, not sent again: one volume, in state", async () => {
        const { emu, engine } = stack;
        const [, fits] = storageMarket("Kenya, KE");
        emu.faults.add({ method: "PUT", path: CREATE, fault: { kind: "lostResponse" } });
        await engine.up(() => new Volume("lost", { offerId: fits.id, sizeGb: 20, name: "lost_answer" }));
        expect(emu.requestsTo("PUT", CREATE)).toHaveLength(1);
        const [made] = emu.liveVolumes();
        expect(engine.get("lost").id).toBe(String(made.id));
        expect(emu.liveVolumes()).toHaveLength(1);
    });

    it("a delete refused while an instance uses the volume names the instance; once it is destroyed the volume goes", async () => {
        const { emu, engine, host } = stack;
        const [, fits] = storageMarket("Peru, PE");
        await engine.up(() => new Volume("used", { offerId: fits.id, sizeGb: 20 }));
        const volume = engine.get("used");
        const offer = emu.addOffer(undefined, undefined, fits.machineId ?? undefined);
        const [reg] = await registerAsProgram(() => new Instance("user", { offerId: offer.id, image: "busybox", volumeInfo: { createNew: false, volumeId: Number(volume.id), mountPath: "/data" } }));
        const urn = host.urn(reg.type, reg.name);
        const instance = await host.create(urn, (await host.check(urn, {}, reg.inputs)).inputs);

        const refused = await host.delete(volume.id, volume.urn, volume.outputs).catch((e) => e);
        expect(codeIn(refused)).toBe("in_use");
        expect(refused.message).toContain(`delete volume ${volume.id} refused: instance ${instance.id} still uses it`);
        expect(emu.liveVolumes()).toHaveLength(1);
        await host.delete(instance.id, urn, instance.properties);
        await engine.destroy();
        expect(emu.liveVolumes()).toEqual([]);
    });

    it("an instance mounts a volume by reference: rented by search on the volume's machine only; an offerId elsewhere refused at check; another volume replaces it", async () => {
        const { emu, engine, host } = stack;
        const [, fits] = storageMarket("Ghana, GH");
        const gpu = "MOUNTS-A-VOLUME";
        const listing = { gpu_name: gpu, num_gpus: 1, verified: true, rentable: true, external: false };
        // The cheapest match is on another machine: the search keeps to the volume's.
        const elsewhere = emu.addOffer(undefined, 0.1, emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu }).id, listing);
        // Two on the volume's machine: the replacement is made before the instance it replaces is destroyed.
        const [there] = [0.5, 0.6].map((price) => emu.addOffer(undefined, price, fits.machineId ?? undefined, listing));
        const second = emu.addVolumeOffer({ machineId: fits.machineId ?? undefined, diskSpace: 100, storageCost: 0.2 });
        const program = (which: "data" | "other") => () => {
            const data = new Volume("data", { offerId: fits.id, sizeGb: 20 });
            const other = new Volume("other", { offerId: second.id, sizeGb: 20 });
            const mounted = which === "data" ? data : other;
            return [data, other, new Instance("trainer", { offer: { filters: { gpu_name: { eq: gpu } }, order: [["dph_total", "asc"]] }, image: "busybox", volumes: [{ volume: mounted.id, mountPath: "/data" }] })];
        };
        await engine.up(program("data"));
        const data = emu.liveVolumes().find((v) => v.offerId === fits.id)!;
        expect(engine.get("trainer").outputs).toMatchObject({ rentedOfferId: there.id, machineId: fits.machineId });
        expect(emu.requestsTo("PUT", `/api/v0/asks/${elsewhere.id}/`)).toEqual([]);
        expect(emu.instanceView(Number(engine.get("trainer").id))?.volume_info).toEqual([{ id: data.id, mount_path: "/data" }]);

        const summary = await engine.up(program("other"));
        expect(summary.replace).toEqual([{ name: "trainer", because: ["volumes"] }]);

        // A pinned offer on another machine: refused at check, naming both machines, before anything is rented.
        const [reg] = await registerAsProgram(() => new Instance("pinned", { offerId: elsewhere.id, image: "busybox", volumes: [{ volume: data.id, mountPath: "/data" }] }));
        const checked = await host.check(host.urn(reg.type, reg.name), {}, reg.inputs);
        expect(checked.failures).toEqual([expect.objectContaining({ property: "offerId", reason: expect.stringContaining(`offer ${elsewhere.id} is on machine`) })]);
        const [both] = await registerAsProgram(() => new Instance("both", { offerId: there.id, image: "busybox", volumes: [{ volume: data.id, mountPath: "/a" }], volumeInfo: { createNew: false, volumeId: data.id, mountPath: "/b" } }));
        expect((await host.check(host.urn(both.type, both.name), {}, both.inputs)).failures).toEqual([expect.objectContaining({ property: "volumes", reason: "give volumes or volumeInfo, not both" })]);
    });

    it("adopt: a volume made in the console comes into the stack with no create call, keeps its name, and is deleted with the stack; a size it does not have is refused", async () => {
        const { emu, engine } = stack;
        const [, fits] = storageMarket("Japan, JP");
        const existing = emu.model.addVolume({ ownerId: emu.demoUser.id, offerId: fits.id, machineId: fits.machineId ?? 0, name: "from_console", size: 40, createdAt: Date.now(), network: false });
        await expect(engine.up(() => new Volume("wrong", { adopt: existing.id, sizeGb: 41 }))).rejects.toThrow(`adopt volume ${existing.id} failed: the program says sizeGb 41, the volume has 40 GB`);
        await engine.destroy();

        const program = () => new Volume("adopted", { adopt: existing.id, sizeGb: 40 });
        await engine.up(program);
        expect(engine.get("adopted")).toMatchObject({ id: String(existing.id), outputs: { volumeId: existing.id, name: "from_console", machineId: fits.machineId } });
        expect(emu.requestsTo("PUT", CREATE)).toEqual([]);
        await engine.refresh();
        expect((await engine.up(program)).same).toEqual(["adopted"]);
        await engine.destroy();
        expect(emu.liveVolumes()).toEqual([]);
    });

    it("a network volume: created in a storage cluster by query, mounted by an instance on any machine, deleted", async () => {
        const { emu, engine } = stack;
        const cluster = emu.addVolumeOffer({ network: true, clusterId: 777, diskSpace: 5000, storageCost: 0.08, geolocation: "Oregon, US" });
        const program = () => {
            const shared = new NetworkVolume("shared", { offer: { filters: { geolocation: { eq: "Oregon, US" } }, maxPricePerGbMonth: 0.1 }, sizeGb: 300 });
            return [shared, new Instance("worker", { offerId: emu.addOffer().id, image: "busybox", volumes: [{ volume: shared.id, mountPath: "/shared" }] })];
        };
        await engine.up(program);
        const [made] = emu.liveVolumes().filter((v) => v.network);
        expect(made).toMatchObject({ offerId: cluster.id, size: 300 });
        expect(engine.get("shared").outputs).toMatchObject({ volumeId: made.id, clusterId: 777, rentedOfferId: cluster.id, storageCostPerGbMonth: 0.08 });
        expect(engine.get("shared").outputs.machineId).toBeUndefined();
        expect(emu.instanceView(Number(engine.get("worker").id))?.volume_info).toEqual([{ id: made.id, mount_path: "/shared" }]);
        expect(emu.requestsTo("PUT", "/api/v0/network_volumes/")).toHaveLength(1);
        await engine.destroy();
        expect(emu.liveVolumes()).toEqual([]);
    });
});

describe("searchVolumeOffers", () => {
    const program = programEmulator();

    it("the vendor CLI's defaults (verified, not external, 1 GB free), cheapest first; typed filters over them; defaults: false drops them", async () => {
        const { emu } = program;
        const machine = emu.model.addMachine(emu.demoUser.id, { gpu_name: "SEARCHED-STORAGE" });
        const on = (storageCost: number, more: Record<string, unknown> = {}) => emu.addVolumeOffer({ machineId: machine.id, diskSpace: 300, storageCost, geolocation: "Iceland, IS", ...more });
        const [dear, cheap] = [on(0.4), on(0.12)];
        const unverified = on(0.01, { verified: false });
        const found = await searchVolumeOffers({ filters: { geolocation: { eq: "Iceland, IS" } } });
        expect(found.map((o) => o.id)).toEqual([cheap.id, dear.id]);
        expect(found[0]).toMatchObject({ machine_id: machine.id, storage_cost: 0.12, disk_space: 300 });
        expect((await searchVolumeOffers({ filters: { geolocation: { eq: "Iceland, IS" }, storage_cost: { lt: 0.2 } } })).map((o) => o.id)).toEqual([cheap.id]);
        expect((await searchVolumeOffers({ filters: { geolocation: { eq: "Iceland, IS" } }, defaults: false })).map((o) => o.id)).toEqual([unverified.id, cheap.id, dear.id]);
        const [sent] = emu.requestsTo("POST", "/api/v0/volumes/search/");
        expect(sent.body).toMatchObject({ verified: { eq: true }, external: { eq: false }, disk_space: { gte: 1 }, order: [["storage_cost", "asc"]] });
    });

    it("a filter on a field volume offers do not have is refused before any request, naming it", async () => {
        const { emu } = program;
        await expect(searchVolumeOffers({ filters: { gpu_name: { eq: "RTX 4090" } } as never })).rejects.toThrow(/gpu_name/);
        expect(emu.requestsTo("POST", "/api/v0/volumes/search/")).toEqual([]);
    });
});
