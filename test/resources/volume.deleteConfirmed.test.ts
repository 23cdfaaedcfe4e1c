import { PROGRAM_PATHS, ProgramPath, declareOn } from "../../testkit/host/pluginResource";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

/**
 * A volume delete answered `success: true` is confirmed by the account's listing before the
 * volume leaves state (docs/resources/volume.md): a service that answers success and keeps the
 * volume must not leave it billed and out of state. Through both front doors, for both kinds.
 */
const DELETE = "/api/v0/volumes/";

describe.each<ProgramPath>(PROGRAM_PATHS)("a volume delete answered success through the %s path", (path) => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: path === "plugin" } });
    });
    afterAll(() => stack.stop());
    beforeEach(() => stack.emu.clearLog());
    afterEach(async () => {
        stack.emu.faults.clear();
        await stack.engine.destroy();
    });

    it.each(["volume", "networkVolume"] as const)("%s: still listed, it fails naming the volume and stays in state; the next destroy deletes it", async (kind) => {
        const { emu, engine } = stack;
        const offer = emu.addVolumeOffer({ diskSpace: 100, network: kind === "networkVolume" });
        const name = `kept_${kind}_${path}`;
        await engine.up(() => declareOn(path, kind, "kept", { offerId: offer.id, sizeGb: 10, name }));
        const { id } = engine.get("kept");
        const what = kind === "networkVolume" ? "network volume" : "volume";

        emu.faults.add({ method: "DELETE", path: DELETE, fault: { kind: "successIgnored" } });
        const refused = await engine.destroy().catch((e) => e);
        expect(codeIn(refused)).toBe("delete_unconfirmed");
        expect(refused.message).toContain(`delete ${what} ${id} (${name}) failed: the service answered that it is deleted, but a read still finds it`);
        expect(emu.requestsTo("DELETE", DELETE)).toHaveLength(1); // not sent again: the answer was success
        expect(engine.get("kept").id).toBe(id);
        expect(emu.liveVolumes().map((v) => String(v.id))).toEqual([id]);

        // Once the service really deletes it, the next destroy takes it out of state.
        expect(await engine.destroy()).toEqual(["kept"]);
        expect(emu.liveVolumes()).toEqual([]);
        expect(() => engine.get("kept")).toThrow("no resource named kept in state");
    });

    it("a listing that leaves it out a moment after the answer: the delete waits for it and succeeds", async () => {
        const { emu, engine } = stack;
        const offer = emu.addVolumeOffer({ diskSpace: 100 });
        await engine.up(() => declareOn(path, "volume", "lagging", { offerId: offer.id, sizeGb: 10, name: `lagging_${path}` }));
        const volume = emu.model.volumes.get(Number(engine.get("lagging").id))!;

        emu.faults.add({ method: "DELETE", path: DELETE, fault: { kind: "successIgnored" } });
        // The service finishes the delete after its answer and one listing that still has it, within the wait (30 s live, 300 ms here).
        const listedAfterDelete = () => {
            const deleted = emu.requests.findIndex((r) => r.method === "DELETE");
            return deleted >= 0 && emu.requests.slice(deleted).some((r) => r.route === "volume-list" && !r.rateLimited);
        };
        const finishing = setInterval(() => {
            if (!listedAfterDelete()) return;
            volume.deleted = true;
            clearInterval(finishing);
        }, 2);
        try {
            expect(await engine.destroy()).toEqual(["lagging"]);
        } finally {
            clearInterval(finishing);
        }
        expect(stack.host.output.join("\n")).toContain("the service answered that it is deleted, but a read still finds it; looking again");
        expect(emu.requestsTo("DELETE", DELETE)).toHaveLength(1);
        expect(emu.liveVolumes()).toEqual([]);
    });
});
