import { Instance, InstanceArgs } from "../../provider";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * An update that makes several changes (label, bid, start or stop) and fails part-way: what the
 * service already took must be in state, or a program put back as before plans no change while the
 * instance keeps what the failed `up` left it with.
 */
describe("Instance update that fails after some of its changes took, through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 100, runningAfterMs: 300 } } });
    });
    afterAll(() => stack.stop());

    /** An interruptible instance `name` bidding $0.3/hour, and its program at any bid. */
    async function bidding(name: string) {
        const offer = stack.emu.addOffer();
        const program = (price: number) => () => new Instance(name, { offerId: offer.id, image: "busybox", price });
        await stack.engine.up(program(0.3));
        return { program, id: Number(stack.engine.get(name).id) };
    }

    // Before: the bid change was taken, the read of the new price after it failed, and update threw
    // a plain error, so state kept the old bid. Putting the program back planned no change: the
    // instance kept paying the new bid.
    it("a bid change the service took, then a failed read-back: state holds the new bid, and putting the program back sends the old one", async () => {
        const { engine, emu } = stack;
        const { program, id } = await bidding("rebid");

        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 500 }, times: 10 });
        await expect(engine.up(program(0.5))).rejects.toThrow(/500/);
        emu.faults.clear();
        expect(emu.instanceView(id)).toMatchObject({ dph_total: 0.5 });
        expect(engine.get("rebid")).toMatchObject({ initFailed: true, outputs: { price: 0.5 } });

        emu.clearLog();
        await engine.up(program(0.3));
        expect(emu.requestsTo("PUT", `/api/v0/instances/bid_price/${id}/`).map((r) => r.body)).toEqual([{ client_id: "me", price: 0.3 }]);
        expect(emu.instanceView(id)).toMatchObject({ dph_total: 0.3 });
        await engine.destroy();
    });

    // Before: the label edit was taken, the bid change after it failed, and state kept the old
    // label. Putting the program back planned no change: the instance kept the new label.
    it("a label edit the service took, then a failed bid change (500): state holds the new label and the old bid; the same program retries the bid, the old one restores the label", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("relabel", { offerId: offer.id, image: "busybox", ...args });
        await engine.up(program({ label: "a", price: 0.3 }));
        const id = Number(engine.get("relabel").id);

        const refuseBids = () => emu.faults.add({ method: "PUT", path: `/api/v0/instances/bid_price/${id}/`, fault: { kind: "status", status: 500 }, times: 10 });
        refuseBids();
        await expect(engine.up(program({ label: "b", price: 0.5 }))).rejects.toThrow(/500/);
        emu.faults.clear();
        expect(emu.instanceView(id)).toMatchObject({ label: "b", dph_total: 0.3 });
        expect(engine.get("relabel")).toMatchObject({ initFailed: true, outputs: { label: "b", price: 0.3 } });

        // The same program again: the bid is sent, the label is not.
        emu.clearLog();
        await engine.up(program({ label: "b", price: 0.5 }));
        expect(emu.requestsTo("PUT", `/api/v0/instances/bid_price/${id}/`).map((r) => r.body)).toEqual([{ client_id: "me", price: 0.5 }]);
        expect(emu.requestsTo("PUT", `/api/v0/instances/${id}/`)).toEqual([]);

        // Failed the same way once more, then the program put back as before: the old label returns.
        refuseBids();
        await expect(engine.up(program({ label: "c", price: 0.3 }))).rejects.toThrow(/500/);
        emu.faults.clear();
        await engine.up(program({ label: "b", price: 0.5 }));
        expect(emu.instanceView(id)).toMatchObject({ label: "b", dph_total: 0.5 });
        await engine.destroy();
    });

    // A failure before any start or stop was sent leaves the desired state in state as it was: a
    // program that keeps the stop and puts the label back must still stop the instance.
    it("a refused label edit before a stop: state keeps running, and the next up stops it even with the label put back", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("relabel-stop", { offerId: offer.id, image: "busybox", ...args });
        await engine.up(program({ label: "a" }));
        const id = Number(engine.get("relabel-stop").id);

        emu.faults.add({ method: "PUT", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 500 }, times: 10 });
        await expect(engine.up(program({ label: "b", desiredState: "stopped" }))).rejects.toThrow(/500/);
        emu.faults.clear();
        expect(emu.instanceView(id)).toMatchObject({ label: "a", intended_status: "running" });
        expect(engine.get("relabel-stop")).toMatchObject({ initFailed: true, outputs: { label: "a", desiredState: "running" } });

        emu.clearLog();
        await engine.up(program({ label: "a", desiredState: "stopped" }));
        expect(emu.requestsTo("PUT", `/api/v0/instances/${id}/`).map((r) => r.body)).toEqual([{ state: "stopped" }]);
        expect(emu.instanceView(id)).toMatchObject({ intended_status: "stopped" });
        await engine.destroy();
    });

    // Before: a bid change the service made but whose answer was lost (after the retries) kept the
    // old bid in state, and the bid is not read back: a program put back as before planned no
    // change, and the instance kept paying the bid the failed up sent.
    it("a bid change whose answer was lost: state marks it unconfirmed, and the next up sends the program's bid whatever it is, after a refresh too", async () => {
        const { engine, emu } = stack;
        const { program, id } = await bidding("lost-bid");
        const bids = () => emu.requestsTo("PUT", `/api/v0/instances/bid_price/${id}/`).map((r) => r.body);

        emu.faults.add({ method: "PUT", path: `/api/v0/instances/bid_price/${id}/`, fault: { kind: "lostResponse", status: 500 }, times: 10 });
        await expect(engine.up(program(0.5))).rejects.toThrow(/500/);
        emu.faults.clear();
        expect(emu.instanceView(id)).toMatchObject({ dph_total: 0.5 });
        expect(engine.get("lost-bid")).toMatchObject({ initFailed: true, outputs: { price: 0.3, bidUnconfirmed: 0.5 } });

        // A refresh keeps it unconfirmed; the program put back as before sends its bid.
        await engine.refresh();
        expect(engine.get("lost-bid").outputs).toMatchObject({ price: 0.3, bidUnconfirmed: 0.5 });
        emu.clearLog();
        await engine.up(program(0.3));
        expect(bids()).toEqual([{ client_id: "me", price: 0.3 }]);
        expect(emu.instanceView(id)).toMatchObject({ dph_total: 0.3 });
        expect(engine.get("lost-bid").outputs.bidUnconfirmed).toBeUndefined();

        // Confirmed: the next up sends nothing.
        emu.clearLog();
        await engine.up(program(0.3));
        expect(bids()).toEqual([]);
        await engine.destroy();
    });

    it("a bid change refused outright leaves no mark: the bid is what it was", async () => {
        const { engine, emu } = stack;
        const { program, id } = await bidding("refused-bid");
        emu.faults.add({ method: "PUT", path: `/api/v0/instances/bid_price/${id}/`, fault: { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: "bid refused" } }, times: 1 });
        await expect(engine.up(program(0.5))).rejects.toThrow(/bid refused/);
        emu.faults.clear();
        expect(emu.instanceView(id)).toMatchObject({ dph_total: 0.3 });
        expect(engine.get("refused-bid").outputs).toMatchObject({ price: 0.3 });
        expect(engine.get("refused-bid").outputs.bidUnconfirmed).toBeUndefined();
        await engine.destroy();
    });

    // A label edit whose answer was lost (after its retries) may have been made or not; the label
    // is read back, so state says which, and a program put back as before restores the old one.
    it("a label edit whose answer was lost: state holds the label the instance has, read back", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (label: string) => () => new Instance("lost-label", { offerId: offer.id, image: "busybox", label });
        await engine.up(program("a"));
        const id = Number(engine.get("lost-label").id);

        emu.faults.add({ method: "PUT", path: `/api/v0/instances/${id}/`, fault: { kind: "lostResponse", status: 500 }, times: 10 });
        await expect(engine.up(program("b"))).rejects.toThrow(/500/);
        emu.faults.clear();
        expect(emu.instanceView(id)).toMatchObject({ label: "b" });
        expect(engine.get("lost-label")).toMatchObject({ initFailed: true, outputs: { label: "b" } });

        emu.clearLog();
        await engine.up(program("a"));
        expect(emu.requestsTo("PUT", `/api/v0/instances/${id}/`).map((r) => r.body)).toEqual([{ label: "a" }]);
        expect(emu.instanceView(id)).toMatchObject({ label: "a" });
        await engine.destroy();
    });

    // Before: the read-back's failure was swallowed and state kept the old label, unmarked: the
    // program put back as before sent nothing, and the instance kept the failed edit's label.
    it("a label edit whose answer was lost and whose read-back failed: marked unsure, and the next up sends the program's label whatever it is", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (label: string) => () => new Instance("unsure-label", { offerId: offer.id, image: "busybox", label });
        await engine.up(program("a"));
        const id = Number(engine.get("unsure-label").id);
        const path = `/api/v0/instances/${id}/`;

        emu.faults.add({ method: "PUT", path, fault: { kind: "lostResponse", status: 504 }, times: 20 });
        emu.faults.add({ method: "GET", path, fault: { kind: "status", status: 500 }, times: 200 });
        await expect(engine.up(program("b"))).rejects.toThrow();
        emu.faults.clear();
        expect(emu.instanceView(id)).toMatchObject({ label: "b" });
        expect(engine.get("unsure-label").outputs).toMatchObject({ label: "a", labelUnconfirmed: true });

        emu.clearLog();
        await engine.up(program("a"));
        expect(emu.requestsTo("PUT", path).map((r) => r.body)).toEqual([{ label: "a" }]);
        expect(emu.instanceView(id)).toMatchObject({ label: "a" });
        expect(engine.get("unsure-label").outputs.labelUnconfirmed).toBeUndefined();
        await engine.destroy();
    });

    // Before: the update failed with the bare 404 ("label instance N failed: HTTP 404 not found"),
    // not saying what to do.
    it.each<[string, Partial<InstanceArgs>]>([
        ["a label edit", { label: "b" }],
        ["a stop", { desiredState: "stopped" }],
        ["a bid change", { price: 0.5 }],
    ])("%s of an instance destroyed outside Pulumi fails saying that a refresh removes it; the refresh does", async (_what, change) => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("destroyed-elsewhere", { offerId: offer.id, image: "busybox", label: "a", price: 0.3, ...args });
        await engine.up(program({}));
        const id = Number(engine.get("destroyed-elsewhere").id);
        emu.model.instances.get(id)!.destroyed = true;
        await expect(engine.up(program(change))).rejects.toThrow(`If instance ${id} was destroyed outside Pulumi, \`pulumi refresh\` removes it from the stack`);
        expect((await engine.refresh()).delete).toEqual(["destroyed-elsewhere"]);
    });
});
