import { Instance } from "../../provider";
import { MiniEngine } from "../../testkit/engine/miniEngine";
import { Emulator } from "../../testkit/emulator/server";
import { ProviderHost } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { startEmulator } from "../../testkit/support/fixtures";
import { upKilled } from "../../testkit/support/killedUp";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";

/**
 * A `pulumi up` stopped for good while an instance is being created (a second Ctrl-C while it
 * boots, a cancelled CI job): Pulumi's engine kills the provider host and drops the create, so no
 * state holds the instance, and dynamic resources cannot be imported. The next `up` of the same
 * program must take that instance over, not rent a second one: it finds it on the service by the
 * create's key in its env. Each run is a host of its own, as each CLI command starts one; nothing
 * but the service and the engine's state passes from one to the next.
 */
const asks = /^\/api\/v0\/asks\/\d+\/?$/;
const LIST = /^\/api\/v1\/instances\/?$/;
/** The rents sent for one offer. */
const rentsOf = (emu: Emulator, offerId: number) => emu.requestsTo("PUT", new RegExp(`^/api/v0/asks/${offerId}/?$`));

describe("instance creates whose instance the engine never got: a killed host, a lost answer not settled", () => {
    let emu: Emulator;
    const hosts: ProviderHost[] = [];
    beforeAll(async () => {
        // Slow to boot: the first run is killed while it waits for running.
        emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE, instanceTimings: { loadingAfterMs: 50, runningAfterMs: 1500 } });
    });
    afterAll(async () => {
        for (const host of hosts) await host.stop();
        await emu.stop();
    });
    beforeEach(() => emu.faults.clear());

    /** One CLI command's host against the emulator. */
    async function run(env: Record<string, string> = {}, apiKey = emu.demoKey): Promise<MiniEngine> {
        const host = await ProviderHost.start({ env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE), ...env } });
        hosts.push(host);
        await host.configure({ "vastai:apiKey": apiKey, "vastai:baseUrl": emu.url });
        return new MiniEngine(host);
    }

    const onOffer = (offerId: number, userId = emu.demoUser.id) => emu.liveInstances(userId).filter((i) => i.offerId === offerId);
    /** The killed run's rent has reached the service: an instance exists on the offer. */
    const rentedOn = (offerId: number, userId?: number) => () => onOffer(offerId, userId).length > 0;
    const tookOver = (engine: MiniEngine, id: number) =>
        engine.host.output.some((l) => l.includes(`instance ${id} was rented for this resource by a \`pulumi up\` that stopped before its create returned`));

    /**
     * The next command's `up` of `program` takes over instance `rented` on `offerId` as resource
     * `name`: one rent in all. Then it is destroyed, and nothing is left running.
     */
    async function nextUpTakesOver(program: () => Instance, name: string, rented: number, offerId: number, apiKey?: string): Promise<void> {
        const next = await run({}, apiKey);
        await next.up(program);
        expect(next.get(name).id).toBe(String(rented));
        expect(tookOver(next, rented)).toBe(true);
        expect(rentsOf(emu, offerId)).toHaveLength(1);
        await next.destroy();
        expect(onOffer(offerId)).toEqual([]);
    }

    it("the next up takes over the instance the killed one rented while it booted: one rent, one instance, in state", async () => {
        const offer = emu.addOffer();
        const program = () => new Instance("booting", { offerId: offer.id, image: "busybox", label: "booting" });
        await upKilled(await run(), program, rentedOn(offer.id));
        const [rented] = onOffer(offer.id);

        const next = await run();
        const summary = await next.up(program);
        expect(summary.create).toEqual(["booting"]);
        expect(rentsOf(emu, offer.id)).toHaveLength(1);
        expect(onOffer(offer.id)).toHaveLength(1);
        expect(next.get("booting")).toMatchObject({ id: String(rented.id), outputs: { instanceId: rented.id, actualStatus: "running", rentedOfferId: offer.id } });
        expect(tookOver(next, rented.id)).toBe(true);
        await next.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    // The search's GPU name and count are not recorded for an instance taken over: nothing on the service keeps what the search said.
    it("by search: the next up takes over the instance on the offer the search chose, and records its offer and machine", async () => {
        const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: "TAKEN-OVER" });
        const offer = emu.addOffer({ status: "running" }, 0.3, machine.id, { gpu_name: "TAKEN-OVER", num_gpus: 2, verified: true, rentable: true, external: false });
        const program = () => new Instance("searched", { offer: { filters: { gpu_name: { eq: "TAKEN-OVER" } } }, image: "busybox" });
        await upKilled(await run(), program, rentedOn(offer.id));
        const [rented] = onOffer(offer.id);

        const next = await run();
        await next.up(program);
        expect(next.get("searched").outputs).toMatchObject({ instanceId: rented.id, rentedOfferId: offer.id, machineId: machine.id });
        expect(rentsOf(emu, offer.id)).toHaveLength(1);
        await next.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });

    it("a rent whose answer never came before the kill is found by the create's key, not rented again", async () => {
        const offer = emu.addOffer();
        const program = () => new Instance("unanswered", { offerId: offer.id, image: "busybox" });
        // The service makes the instance, and the answer is still on its way when the host dies.
        emu.faults.add({ method: "PUT", path: asks, times: 1, fault: { kind: "timeout", acted: true, holdMs: 60_000 } });
        await upKilled(await run(), program, rentedOn(offer.id));
        emu.faults.clear();
        const [rented] = onOffer(offer.id);

        await nextUpTakesOver(program, "unanswered", rented.id, offer.id);
    });

    it("a look for the killed create's instance that cannot be answered fails the create before any rent; the next up takes it over", async () => {
        const offer = emu.addOffer();
        const program = () => new Instance("unlooked", { offerId: offer.id, image: "busybox" });
        await upKilled(await run(), program, rentedOn(offer.id));
        const [rented] = onOffer(offer.id);

        emu.faults.add({ method: "GET", path: LIST, times: 100_000, fault: { kind: "status", status: 500 } });
        const failing = await run();
        await expect(failing.up(program)).rejects.toThrow(/list instances failed/);
        emu.faults.clear();
        expect(failing.state.size).toBe(0);
        expect(rentsOf(emu, offer.id)).toHaveLength(1);
        await failing.host.stop(); // the command ends, and its host with it

        await nextUpTakesOver(program, "unlooked", rented.id, offer.id);
    }, 60_000);

    it("two accounts' interrupted creates of the same program: each key takes over its own instance, never the other's", async () => {
        const gpu = "TWO-ACCOUNTS";
        const machine = emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu });
        const offers = Array.from({ length: 4 }, () => emu.addOffer({ status: "running" }, 0.3, machine.id, { gpu_name: gpu, num_gpus: 1, verified: true, rentable: true, external: false }));
        const program = () => new Instance("same", { offer: { filters: { gpu_name: { eq: gpu } } }, image: "busybox" });
        const theirKey = emu.createKey(undefined, emu.otherUser.id).key;
        const onMachine = (userId = emu.demoUser.id) => emu.liveInstances(userId).filter((i) => i.machineId === machine.id);
        await upKilled(await run(), program, () => onMachine().length === 1);
        const [ours] = onMachine();
        await upKilled(await run({}, theirKey), program, () => onMachine(emu.otherUser.id).length === 1);
        const [theirs] = onMachine(emu.otherUser.id);
        const rentsBefore = emu.requestsTo("PUT", asks).length;

        const theirNext = await run({}, theirKey);
        await theirNext.up(program);
        expect(theirNext.get("same").id).toBe(String(theirs.id));
        const ourNext = await run();
        await ourNext.up(program);
        expect(ourNext.get("same").id).toBe(String(ours.id));
        expect(emu.requestsTo("PUT", asks).slice(rentsBefore)).toEqual([]);
        await theirNext.destroy();
        await ourNext.destroy();
        expect(emu.liveInstances().concat(emu.liveInstances(emu.otherUser.id)).filter((i) => offers.some((o) => o.id === i.offerId))).toEqual([]);
    });

    it("a lost create answer that the look could not settle fails the create, says what to do, and the next up takes the instance over", async () => {
        const offer = emu.addOffer();
        const program = () => new Instance("unsettled", { offerId: offer.id, image: "busybox", readyTimeoutSeconds: 30 });
        // The service makes the instance and the answer is lost; every listing after the one before the rent then fails until the look gives up.
        emu.faults.add({ method: "PUT", path: asks, times: 1, fault: { kind: "lostResponse" } });
        emu.faults.add({ method: "GET", path: LIST, times: 100_000, after: 1, fault: { kind: "status", status: 500 } });
        const failing = await run();
        const error = await failing.up(program).catch((e: Error) => e);
        emu.faults.clear();
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).toContain("Run `pulumi up` again, on any machine: with the program unchanged, it looks for the instance by the create's key");
        const [rented] = onOffer(offer.id);
        expect(rented).toBeDefined();
        await failing.host.stop(); // the command ends, and its host with it

        await nextUpTakesOver(program, "unsettled", rented.id, offer.id);
    }, 60_000);

    // Pulumi's own remedy for a create the engine reports pending: the import turns the pending
    // create into a read of the id given, with the pending create's inputs and no outputs.
    it("a dropped create comes into state by `pulumi refresh --import-pending-creates <urn> <id>`: a read from the pending create's inputs", async () => {
        const offer = emu.addOffer();
        const program = () => new Instance("pending", { offerId: offer.id, image: "busybox" });
        await upKilled(await run(), program, rentedOn(offer.id));
        const [rented] = onOffer(offer.id);

        const [registered] = await registerAsProgram(program);
        const urn = "urn:pulumi:test::vastai-test::pulumi-nodejs:dynamic:Resource::pending";
        const next = await run();
        const pending = await next.host.check(urn, {}, registered.inputs);
        const read = await next.host.read(String(rented.id), urn, {}, pending.inputs);
        expect(read.id).toBe(String(rented.id));
        expect(read.properties).toMatchObject({ instanceId: rented.id, offerId: offer.id, image: "busybox", actualStatus: expect.any(String), __provider: registered.inputs.__provider });
        expect(read.inputs).toMatchObject({ offerId: offer.id, image: "busybox", createSlot: pending.inputs.createSlot, createGeneration: 0 });
        // In state now, the next check moves on a generation: a later create of the resource never takes it over.
        expect((await next.host.check(urn, read.inputs!, registered.inputs)).inputs.createGeneration).toBe(1);
        await next.host.delete(read.id, urn, read.properties);
        expect(onOffer(offer.id)).toEqual([]);
    });
});
