import { Instance } from "../../provider";
import { InstanceCreateRequest } from "../../provider/schemas/instance";
import { clientFor } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * `adopt`: an Instance that takes into the stack an instance the account already has (rented in
 * the console or with the vendor CLI), through Pulumi's host against the emulator. Pulumi's own
 * import cannot do this for a dynamic resource (test/resources/import.test.ts).
 */
describe("Instance adopt", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    /** An instance rented outside Pulumi, as the console or the vendor CLI would. */
    const rentedElsewhere = async (request: InstanceCreateRequest) => {
        const offer = stack.emu.addOffer();
        const { instanceId } = await clientFor(stack.emu).instances.create(offer.id, request);
        return instanceId;
    };
    const rents = () => stack.emu.requests.filter((r) => r.method === "PUT" && r.path.startsWith("/api/v0/asks/"));

    it("takes the instance as it is, sets the program's label and state in place, rents nothing; later it is managed and destroyed like one Pulumi rented", async () => {
        const { emu, engine } = stack;
        const id = await rentedElsewhere({ image: "busybox", label: "from-the-console", disk: 16 });
        await clientFor(emu).instances.changeState(id, "stopped");
        emu.clearLog();

        const program = (label: string) => () => new Instance("adopted", { adopt: id, image: "busybox", disk: 16, label });
        const [made] = await engine.run([{ up: program("managed") }]);
        expect(made.create).toEqual(["adopted"]);
        expect(rents()).toEqual([]);
        expect(engine.get("adopted").id).toBe(String(id));
        expect(engine.get("adopted").outputs).toMatchObject({ instanceId: id, label: "managed", desiredState: "running", actualStatus: "running", accountId: emu.demoUser.id });
        expect(emu.instanceView(id)).toMatchObject({ label: "managed", actual_status: "running" });

        // Managed from now on: an edit in place, a refresh that finds no drift, and the destroy.
        const [edited, refreshed] = await engine.run([{ up: program("renamed") }, { refresh: true }]);
        expect(edited.update).toEqual(["adopted"]);
        expect(refreshed.update ?? []).toEqual([]);
        expect(emu.instanceView(id)).toMatchObject({ label: "renamed" });
        await engine.destroy();
        expect(emu.model.instances.get(id)?.destroyed).toBe(true);
        expect(rents()).toEqual([]);
    });

    it("refuses an instance whose image, disk or bid the program says otherwise, changing nothing; and an id the account has no instance of", async () => {
        const { emu, engine } = stack;
        const id = await rentedElsewhere({ image: "busybox", label: "keep-me", disk: 16 });
        emu.clearLog();

        await expect(engine.up(() => new Instance("mismatch", { adopt: id, image: "alpine", disk: 20, price: 0.2 }))).rejects.toThrow(
            new RegExp(
                `adopt instance ${id} failed: the program disagrees with what it was created with.*\\n  image: the program says alpine, instance ${id} runs busybox` +
                    `\\n  disk: the program says 20 GB, instance ${id} has 16 GB\\n  price: the program bids \\$0.2/hour, instance ${id} is on demand: remove price`,
            ),
        );
        expect(engine.state.size).toBe(0);
        expect(emu.instanceView(id)).toMatchObject({ label: "keep-me" });
        expect(emu.model.instances.get(id)?.destroyed).toBe(false);

        await expect(engine.up(() => new Instance("nothing", { adopt: 999_999, image: "busybox" }))).rejects.toThrow(
            "adopt instance 999999 failed: the account has no instance 999999 (destroyed, another account's, or a mistyped id)",
        );
        expect(engine.state.size).toBe(0);
        expect(rents()).toEqual([]);
        emu.model.instances.get(id)!.destroyed = true;
    });

    it("check: adopt stands in for offerId and offer, and does not go with either; without any of the three, the message names all three", async () => {
        const { engine } = stack;
        await expect(engine.preview(() => new Instance("none", { image: "busybox" }))).rejects.toThrow(
            "give exactly one of offerId (an offer to rent) and offer (a search for one), or adopt (an instance the account has)",
        );
        await expect(engine.preview(() => new Instance("zero", { adopt: 0, image: "busybox" }))).rejects.toThrow("adopt: must be an instance's numeric id");
        await expect(engine.preview(() => new Instance("both", { adopt: 5, offerId: 7, image: "busybox" }))).rejects.toThrow(
            "adopt: give adopt (an instance the account has) or offerId (one to rent), not both",
        );
        await expect(engine.preview(() => new Instance("both", { adopt: 5, offer: { filters: {} }, image: "busybox" }))).rejects.toThrow(
            "adopt: give adopt (an instance the account has) or offer (one to rent), not both",
        );
        await expect(engine.preview(() => new Instance("highBid", { adopt: 5, price: 40, image: "busybox" }))).rejects.toThrow(
            "price: an adopted instance's bid is set by a bid change, which takes at most $32/hour",
        );
    });

    it("naming another instance replaces the resource: the other is adopted, then the first destroyed; the same id again changes nothing", async () => {
        const { emu, engine } = stack;
        const first = await rentedElsewhere({ image: "busybox" });
        const second = await rentedElsewhere({ image: "busybox" });
        emu.clearLog();
        const program = (adopt: number) => () => new Instance("swapped", { adopt, image: "busybox" });
        const [, swapped] = await engine.run([{ up: program(first) }, { up: program(second) }]);
        expect(swapped.replace).toEqual([{ name: "swapped", because: ["adopt"] }]);
        expect(engine.get("swapped").id).toBe(String(second));
        expect(emu.model.instances.get(first)?.destroyed).toBe(true);
        expect(emu.model.instances.get(second)?.destroyed).toBe(false);
        await engine.destroy();
        expect(emu.model.instances.get(second)?.destroyed).toBe(true);
        expect(rents()).toEqual([]);
    });
    it("a change only a new instance takes, with adopt still naming this one, is refused before anything is sent: the replacement would adopt it and then destroy it", async () => {
        const { emu, engine } = stack;
        const id = await rentedElsewhere({ image: "busybox", env: { A: "1" } });
        const program = (env: Record<string, string>) => () => new Instance("kept", { adopt: id, image: "busybox", env });
        await engine.run([{ up: program({ A: "1" }) }]);
        emu.clearLog();
        await expect(engine.preview(program({ A: "2" }))).rejects.toThrow(`env: instance ${id}, which adopt names, cannot take this change in place`);
        await expect(engine.up(program({ A: "2" }))).rejects.toThrow("a replacement would adopt that same instance and then destroy it");
        expect(emu.model.instances.get(id)?.destroyed).toBe(false);
        expect(engine.get("kept").id).toBe(String(id));
        expect(emu.requests.filter((r) => r.method !== "GET")).toEqual([]);

        // Diff sees it too where check cannot: an instance the stack rented, then named by adopt with offerId removed.
        const offer = emu.addOffer();
        await engine.run([{ up: () => new Instance("rented", { offerId: offer.id, image: "busybox" }) }]);
        const rentedId = Number(engine.get("rented").id);
        await expect(engine.up(() => new Instance("rented", { adopt: rentedId, image: "busybox" }))).rejects.toThrow(
            `offerId: instance ${rentedId}, which adopt names, cannot take this change in place`,
        );
        expect(emu.model.instances.get(rentedId)?.destroyed).toBe(false);
        await engine.destroy();
        expect(emu.model.instances.get(id)?.destroyed).toBe(true);
        expect(emu.model.instances.get(rentedId)?.destroyed).toBe(true);
    });
    it("an interruptible instance gets the program's bid, which is never read back: state says the bid it has; a bid change whose answer is lost leaves it out of state, and the next up sends it again", async () => {
        const { emu, engine } = stack;
        const id = await rentedElsewhere({ image: "busybox", price: 0.3 });
        const program = () => new Instance("bidder", { adopt: id, image: "busybox", price: 0.5 });
        emu.faults.add({ method: "PUT", path: `/api/v0/instances/bid_price/${id}/`, fault: { kind: "lostResponse" }, times: 10 });
        await expect(engine.up(program)).rejects.toThrow();
        expect(engine.state.size).toBe(0);
        emu.faults.clear();
        emu.model.instances.get(id)!.dphTotal = 0.3;
        emu.clearLog();
        await engine.run([{ up: program }]);
        expect(emu.model.instances.get(id)?.dphTotal).toBe(0.5);
        expect(engine.get("bidder").outputs).toMatchObject({ price: 0.5, dphTotal: 0.5 });
        expect(emu.requests.filter((r) => r.path === `/api/v0/instances/bid_price/${id}/`)).toHaveLength(1);
        expect(rents()).toEqual([]);
        await engine.destroy();
    });
    it("adopted, then a start or label edit that fails: the instance is in state (a failed create), the host still serves, and the next up finishes the edit", async () => {
        const { emu, engine } = stack;
        const id = await rentedElsewhere({ image: "busybox", label: "old" });
        await clientFor(emu).instances.changeState(id, "stopped");
        emu.clearLog();
        emu.faults.add({ method: "PUT", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 500 }, times: 10 });
        const program = () => new Instance("started", { adopt: id, image: "busybox", label: "new" });
        await expect(engine.up(program)).rejects.toThrow(`instance ${id}`);
        expect(engine.get("started")).toMatchObject({ id: String(id), outputs: { instanceId: id, label: "old" } });
        emu.faults.clear();
        const [again] = await engine.run([{ up: program }]);
        expect(again.update).toEqual(["started"]);
        expect(emu.instanceView(id)).toMatchObject({ label: "new", actual_status: "running" });
        await engine.destroy();
        expect(emu.model.instances.get(id)?.destroyed).toBe(true);
        expect(rents()).toEqual([]);
    });
    it("an image is compared as Docker reads it: busybox, busybox:latest and docker.io/library/busybox are one image; another tag, registry or namespace is not", async () => {
        const { emu, engine } = stack;
        const id = await rentedElsewhere({ image: "docker.io/library/busybox" });
        emu.clearLog();
        for (const image of ["busybox", "busybox:latest", "docker.io/library/busybox:latest", "index.docker.io/library/busybox"]) {
            await engine.run([{ up: () => new Instance("same", { adopt: id, image }) }]);
            engine.state.clear();
        }
        for (const image of ["busybox:1.36", "ghcr.io/library/busybox", "someone/busybox", "docker.io/someone/busybox"]) {
            await expect(engine.up(() => new Instance("other", { adopt: id, image }))).rejects.toThrow(`image: the program says ${image}, instance ${id} runs docker.io/library/busybox`);
        }
        expect(rents()).toEqual([]);
        expect(emu.model.instances.get(id)?.destroyed).toBe(false);
        emu.model.instances.get(id)!.destroyed = true;
    });
    it("an instance made from a template is compared by the hash it was made from, which need not be one the account still sees (edited or deleted since)", async () => {
        const { emu, engine } = stack;
        const template = emu.model.addTemplate(emu.demoUser.id, { name: "t", image: "busybox", tag: "latest", docker_login_repo: "", docker_login_user: "", docker_login_pass: "" });
        const madeFrom = template.hash_id;
        const id = await rentedElsewhere({ template_hash_id: madeFrom });
        template.deleted = true;
        emu.clearLog();
        await expect(engine.up(() => new Instance("other", { adopt: id, templateHashId: "0123abcd" }))).rejects.toThrow(
            `templateHashId: the program says 0123abcd, instance ${id} was created from ${madeFrom}`,
        );
        await engine.run([{ up: () => new Instance("fromTemplate", { adopt: id, templateHashId: madeFrom, image: "busybox" }) }]);
        expect(engine.get("fromTemplate").id).toBe(String(id));
        await engine.destroy();
        expect(emu.model.instances.get(id)?.destroyed).toBe(true);
        expect(rents()).toEqual([]);
    });
});
