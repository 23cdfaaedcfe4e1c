import { Instance } from "../../provider";
import { AVOID_ENV } from "../../provider/resources/instance/common/placement";
import { MiniEngine } from "../../testkit/engine/miniEngine";
import { Emulator } from "../../testkit/emulator/server";
import { PROGRAM_PATHS, ProgramPath, declareOn } from "../../testkit/host/pluginResource";
import { ProviderHost } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { eventually, startEmulator } from "../../testkit/support/fixtures";
import { hostOnFreshMachine } from "../../testkit/support/freshMachine";
import { upKilled } from "../../testkit/support/killedUp";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";

/**
 * An `up` killed while it creates an instance, on a disposable machine (a cancelled CI job): the
 * next `up` runs on another machine, with another HOME, another working directory and no file
 * from the first. The service is the record: the instance carries its create's key, and the next
 * create of the same resource takes it over instead of renting a second one. The first cases run
 * through both front doors, the dynamic-provider host and the provider plugin (whose create slot
 * comes from the URN); the rest on the dynamic path.
 */
const asks = /^\/api\/v0\/asks\/\d+\/?$/;
const rentsOf = (emu: Emulator, offerId: number) => emu.requestsTo("PUT", new RegExp(`^/api/v0/asks/${offerId}/?$`));
const onOffer = (emu: Emulator, offerId: number) => emu.liveInstances().filter((i) => i.offerId === offerId);
const tookOver = (engine: MiniEngine, id: number) =>
    engine.host.output.some((l) => l.includes(`instance ${id} was rented for this resource by a \`pulumi up\` that stopped before its create returned`));

/** Slow to boot: a run is killed while it waits for running. */
const startSlowEmulator = () => startEmulator({ rateLimitScale: TEST_TIME_SCALE, instanceTimings: { loadingAfterMs: 50, runningAfterMs: 1500 } });

describe("the service as the record of interrupted creates: a killed up resumed on another machine", () => {
    let emu: Emulator;
    const hosts: ProviderHost[] = [];
    beforeAll(async () => {
        // Slow to boot: a run is killed while it waits for running.
        emu = await startSlowEmulator();
    });
    afterAll(async () => {
        for (const host of hosts) await host.stop();
        await emu.stop();
    });
    beforeEach(() => emu.faults.clear());

    /** A fresh machine's host: its own empty HOME and working directory. */
    async function machine(stack = "test", project = "vastai-test"): Promise<ProviderHost> {
        const host = await hostOnFreshMachine(emu, { stack, project });
        hosts.push(host);
        return host;
    }

    /** `count` like offers on one machine of their own, found by searching for `gpu`. */
    function likeOffers(gpu: string, count: number) {
        const machine = emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu });
        const listing = { gpu_name: gpu, num_gpus: 1, verified: true, rentable: true, external: false };
        return Array.from({ length: count }, () => emu.addOffer({ status: "running" }, 0.3, machine.id, listing));
    }

    it("a kill during a fallback to another machine: the next machine takes over the second attempt's instance and avoids the failed machine", async () => {
        const gpu = "SERVICE-RECORD-FALLBACK";
        const listing = { gpu_name: gpu, num_gpus: 1, verified: true, rentable: true, external: false };
        const offerOn = (status: "running" | "exited", price: number, machineId = emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu }).id) =>
            emu.addOffer({ status }, price, machineId, listing);
        const exits = offerOn("exited", 0.1);
        const second = offerOn("running", 0.2);
        const program = () => new Instance("fallback", { offer: { filters: { gpu_name: { eq: gpu } }, order: [["dph_total", "asc"]] }, image: "busybox" });
        const engine = new MiniEngine(await machine());
        await upKilled(engine, program, () => onOffer(emu, second.id).length > 0);
        const [rented] = onOffer(emu, second.id);
        // The failed machine now lists the cheapest offer: a take-over that rented again would take it.
        const sameMachine = offerOn("running", 0.05, exits.machineId);

        engine.useHost(await machine());
        await engine.up(program);
        expect(engine.get("fallback").outputs).toMatchObject({ instanceId: rented.id, rentedOfferId: second.id });
        expect(emu.requestsTo("PUT", asks).filter((r) => [exits.id, second.id, sameMachine.id].some((id) => r.path.includes(`/${id}/`)))).toHaveLength(2);
        await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    it("a kill during a create-before-delete replacement: the next machine takes over the new instance, never the old one, which the replacement deletes", async () => {
        const first = emu.addOffer();
        const next = emu.addOffer();
        const engine = new MiniEngine(await machine());
        await engine.up(() => new Instance("replaced", { offerId: first.id, image: "busybox" }));
        const old = Number(engine.get("replaced").id);

        const moved = () => new Instance("replaced", { offerId: next.id, image: "busybox" });
        await upKilled(engine, moved, () => onOffer(emu, next.id).length > 0);
        const [rented] = onOffer(emu, next.id);
        expect(engine.get("replaced").id).toBe(String(old)); // the engine keeps the old resource

        engine.useHost(await machine());
        const summary = await engine.up(moved);
        expect(summary.replace.map((r) => r.name)).toEqual(["replaced"]);
        expect(engine.get("replaced").id).toBe(String(rented.id));
        expect(rentsOf(emu, next.id)).toHaveLength(1);
        expect(emu.liveInstances().map((i) => i.id)).toEqual([rented.id]);
        await engine.destroy();
    });

    it("a kill during a delete-before-replace (a new image on the same offer): state no longer holds the old one, and the next machine takes over the new", async () => {
        const offer = emu.addOffer();
        const engine = new MiniEngine(await machine());
        await engine.up(() => new Instance("same-offer", { offerId: offer.id, image: "busybox" }));
        const old = Number(engine.get("same-offer").id);

        const newImage = () => new Instance("same-offer", { offerId: offer.id, image: "busybox:1.36" });
        await upKilled(engine, newImage, () => onOffer(emu, offer.id).some((i) => i.id !== old));
        const [rented] = onOffer(emu, offer.id);
        expect(rented.id).not.toBe(old);
        expect(engine.state.size).toBe(0); // the old one deleted first, the new one's create cut short

        engine.useHost(await machine());
        await engine.up(newImage);
        expect(engine.get("same-offer").id).toBe(String(rented.id));
        expect(tookOver(engine, rented.id)).toBe(true);
        // Two instances made on the offer in all (a rent refused while the freed offer came back made none).
        expect([...emu.model.instances.values()].filter((i) => i.offerId === offer.id)).toHaveLength(2);
        await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    it("`pulumi up --replace` with unchanged inputs rents a new instance: the one state holds is not taken over", async () => {
        const gpu = "SERVICE-RECORD-REPLACE";
        likeOffers(gpu, 2);
        const program = () => new Instance("again", { offer: { filters: { gpu_name: { eq: gpu } } }, image: "busybox" });
        const engine = new MiniEngine(await machine());
        await engine.up(program);
        const old = engine.get("again").id;

        engine.useHost(await machine());
        const summary = await engine.up(program, { replace: ["again"] });
        expect(summary.replace.map((r) => r.name)).toEqual(["again"]);
        expect(engine.get("again").id).not.toBe(old);
        expect(emu.liveInstances().map((i) => String(i.id))).toEqual([engine.get("again").id]);
        await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    it("two stacks of one program and another program, the same names, one account: each killed mid-create and resumed on another's machine takes over only its own", async () => {
        const gpu = "SERVICE-RECORD-TWO-STACKS";
        const offers = likeOffers(gpu, 3);
        const machineId = offers[0].machineId;
        const program = () => new Instance("twin", { offer: { filters: { gpu_name: { eq: gpu } } }, image: "busybox" });
        const dev = new MiniEngine(await machine("dev"));
        const prod = new MiniEngine(await machine("prod"));
        const other = new MiniEngine(await machine("dev", "another-program"));
        const onMachine = () => emu.liveInstances().filter((i) => i.machineId === machineId);
        const made: number[] = [];
        for (const engine of [dev, prod, other]) {
            await upKilled(engine, program, () => onMachine().length === made.length + 1);
            made.push(onMachine().find((i) => !made.includes(i.id))!.id);
        }

        // Each resumed on a machine another ran on: a fresh one each time, as a CI runner is.
        dev.useHost(await machine("dev"));
        prod.useHost(await machine("prod"));
        other.useHost(await machine("dev", "another-program"));
        for (const engine of [other, prod, dev]) await engine.up(program);
        expect([dev, prod, other].map((e) => e.get("twin").id)).toEqual(made.map(String));
        expect(emu.requestsTo("PUT", asks).filter((r) => offers.some((o) => r.path.includes(`/${o.id}/`)))).toHaveLength(3);
        for (const engine of [dev, prod, other]) await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    it("a program changed since the kill rents anew and names the old instance, which no state holds; an adoption of it by another resource is refused", async () => {
        const offer = emu.addOffer();
        const other = emu.addOffer();
        const engine = new MiniEngine(await machine());
        await upKilled(engine, () => new Instance("changed", { offerId: offer.id, image: "busybox" }), () => onOffer(emu, offer.id).length > 0);
        const [rented] = onOffer(emu, offer.id);

        engine.useHost(await machine());
        await engine.up(() => new Instance("changed", { offerId: other.id, image: "busybox" }));
        expect(engine.get("changed").id).not.toBe(String(rented.id));
        expect(engine.host.output).toEqual(expect.arrayContaining([expect.stringContaining(`instance ${rented.id} was rented for this resource by a \`pulumi up\` that stopped, from inputs the program has changed since`)]));

        // Another resource adopting it would leave it to be taken over by the first resource's next create too.
        const [reg] = await registerAsProgram(() => new Instance("adopter", { adopt: rented.id, image: "busybox" }));
        const urn = engine.host.urn(reg.type, reg.name);
        const checked = await engine.host.check(urn, {}, reg.inputs);
        await expect(engine.host.create(urn, checked.inputs)).rejects.toThrow(/adopt instance \d+ failed: it was rented by a `pulumi up` of another resource/);
        // Put back, the old inputs take it over.
        await engine.destroy();
        await engine.up(() => new Instance("changed", { offerId: offer.id, image: "busybox" }));
        expect(engine.get("changed").id).toBe(String(rented.id));
        await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });
});

describe.each<ProgramPath>(PROGRAM_PATHS)("a killed create resumed on another machine, through the %s path", (path) => {
    let emu: Emulator;
    const hosts: ProviderHost[] = [];
    beforeAll(async () => {
        emu = await startSlowEmulator();
    });
    afterAll(async () => {
        for (const host of hosts) await host.stop();
        await emu.stop();
    });
    beforeEach(() => emu.faults.clear());

    /** A fresh machine's host on this path (the plugin `pulumi-resource-vastai`, or the dynamic-provider host). */
    async function machine(): Promise<ProviderHost> {
        const host = await hostOnFreshMachine(emu, { plugin: path === "plugin" });
        hosts.push(host);
        return host;
    }

    it("a host killed after its rent: the next machine takes the instance over, no second rent, the first instance in state", async () => {
        const offer = emu.addOffer();
        const program = () => declareOn(path, "instance", "killed-a", { offerId: offer.id, image: "busybox" });
        const engine = new MiniEngine(await machine());
        await upKilled(engine, program, () => onOffer(emu, offer.id).length > 0);
        const [rented] = onOffer(emu, offer.id);

        engine.useHost(await machine());
        const summary = await engine.up(program);
        expect(summary.create).toEqual(["killed-a"]);
        expect(rentsOf(emu, offer.id)).toHaveLength(1);
        expect(engine.state.size).toBe(1);
        expect(engine.get("killed-a")).toMatchObject({ id: String(rented.id), outputs: { instanceId: rented.id, actualStatus: "running" } });
        expect(tookOver(engine, rented.id)).toBe(true);
        await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    it("a take-over whose instance will not run either: destroyed, and the search skips every machine the killed run saw fail", async () => {
        const gpu = `SERVICE-RECORD-AVOID-${path.toUpperCase()}`;
        const listing = { gpu_name: gpu, num_gpus: 1, verified: true, rentable: true, external: false };
        const [a, b, c] = [1, 2, 3].map(() => emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu }).id);
        // Cheapest first: A's instance exits, so does B's (after the kill: the killed run is still waiting for it), C's runs.
        const onA = emu.addOffer({ status: "exited" }, 0.1, a, listing);
        const onB = emu.addOffer({ status: "exited" }, 0.2, b, listing);
        const onC = emu.addOffer({ status: "running" }, 0.3, c, listing);
        const program = () => declareOn(path, "instance", "avoiding", { offer: { filters: { gpu_name: { eq: gpu } }, order: [["dph_total", "asc"]] }, image: "busybox" });
        const engine = new MiniEngine(await machine());
        await upKilled(engine, program, () => onOffer(emu, onB.id).length > 0);
        const [onMachineB] = onOffer(emu, onB.id);
        expect(onOffer(emu, onA.id)).toEqual([]); // A's destroyed by the killed run, before it rented on B
        expect(onMachineB.effective.env[AVOID_ENV]).toBe(String(a));
        await eventually(async () => emu.instanceView(onMachineB.id)?.actual_status === "exited", 10_000);
        // A and B now list the cheapest offers, on which an instance would run: a take-over that forgot either machine rents there.
        const again = [emu.addOffer({ status: "running" }, 0.05, a, listing), emu.addOffer({ status: "running" }, 0.05, b, listing)];
        const onFailedMachines = [onA, onB, ...again].map((o) => o.id);
        const rentsBefore = emu.requestsTo("PUT", asks).length;

        engine.useHost(await machine());
        await engine.up(program);
        expect(engine.state.size).toBe(1);
        const entry = engine.get("avoiding");
        expect(entry.outputs).toMatchObject({ rentedOfferId: onC.id, actualStatus: "running" });
        const rents = emu.requestsTo("PUT", asks).slice(rentsBefore).map((r) => Number(r.path.split("/")[4]));
        expect(rents.filter((offerId) => onFailedMachines.includes(offerId))).toEqual([]);
        expect(rents).toEqual([onC.id]);
        expect(emu.model.instances.get(onMachineB.id)?.destroyed).toBe(true);
        expect(engine.host.output).toEqual(expect.arrayContaining([expect.stringContaining(`instance ${onMachineB.id} was rented for this resource by a \`pulumi up\` that stopped, and will not run`)]));
        expect(emu.liveInstances().map((i) => String(i.id))).toEqual([entry.id]);
        await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    it("a Volume whose create was killed after the service made it is taken over by the next machine by its made name; --replace makes a new one", async () => {
        const offer = emu.addVolumeOffer({ diskSpace: 200 });
        const program = () => declareOn(path, "volume", "killed-volume", { offerId: offer.id, sizeGb: 30 });
        // The service makes the volume, and the answer is still on its way when the machine goes.
        emu.faults.add({ method: "PUT", path: "/api/v0/volumes/", times: 1, fault: { kind: "timeout", acted: true, holdMs: 60_000 } });
        const engine = new MiniEngine(await machine());
        await upKilled(engine, program, () => emu.liveVolumes().some((v) => v.offerId === offer.id));
        emu.faults.clear();
        const [made] = emu.liveVolumes().filter((v) => v.offerId === offer.id);
        expect(made.name).toMatch(/^pulumi_[0-9a-f]{16}_0$/);

        engine.useHost(await machine());
        await engine.up(program);
        expect(engine.get("killed-volume").id).toBe(String(made.id));
        expect(engine.state.size).toBe(1);
        expect(emu.requestsTo("PUT", "/api/v0/volumes/")).toHaveLength(1);
        expect(emu.liveVolumes().filter((v) => v.offerId === offer.id).map((v) => v.id)).toEqual([made.id]);
        expect(engine.host.output).toEqual(expect.arrayContaining([expect.stringContaining(`volume ${made.id} (${made.name}) was made for this resource by a \`pulumi up\` that stopped`)]));

        // The volume state holds carries an older generation: a replacement makes a new one.
        engine.useHost(await machine());
        await engine.up(program, { replace: ["killed-volume"] });
        expect(engine.get("killed-volume").id).not.toBe(String(made.id));
        expect(emu.liveVolumes().filter((v) => v.offerId === offer.id).map((v) => String(v.id))).toEqual([engine.get("killed-volume").id]);
        await engine.destroy();
        expect(emu.liveVolumes()).toEqual([]);
    });
});
