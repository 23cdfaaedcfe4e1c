import { Instance, InstanceArgs } from "../../provider";
import { TEST_TIME_SCALE, TestStack, startStack } from "../../testkit/support/stack";
import { eventually } from "../../testkit/support/fixtures";
import { registerAsProgram } from "../../testkit/host/programMocks";

describe("Instance start, stop and bid in place, through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        // Long enough in each status that the waits see them (the provider waits at 1/100 of live speed).
        stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 100, runningAfterMs: 300 } } });
    });
    afterAll(() => stack.stop());

    it("stop then start in place: the same instance, the state visible in outputs after each", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("gpu", { offerId: offer.id, image: "busybox", ...args });

        expect((await engine.up(program({}))).create).toEqual(["gpu"]);
        const instanceId = engine.get("gpu").outputs.instanceId as number;
        expect(engine.get("gpu").outputs).toMatchObject({ desiredState: "running", actualStatus: "running", intendedStatus: "running" });

        const stopped = await engine.up(program({ desiredState: "stopped" }));
        expect(stopped).toMatchObject({ update: ["gpu"], replace: [], create: [] });
        expect(engine.get("gpu").outputs).toMatchObject({ instanceId, desiredState: "stopped", actualStatus: "stopped", intendedStatus: "stopped" });
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).at(-1)!.body).toEqual({ state: "stopped" });
        expect(emu.instanceView(instanceId)).toMatchObject({ actual_status: "stopped" });

        // A refresh keeps it stopped, and the plan after it is empty.
        expect((await engine.refresh()).update).toEqual([]);
        expect((await engine.up(program({ desiredState: "stopped" }))).same).toEqual(["gpu"]);

        const started = await engine.up(program({ desiredState: "running" }));
        expect(started).toMatchObject({ update: ["gpu"], replace: [], create: [] });
        expect(engine.get("gpu").outputs).toMatchObject({ instanceId, desiredState: "running", actualStatus: "running", intendedStatus: "running" });
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).at(-1)!.body).toEqual({ state: "running" });
        expect(emu.liveInstances().map((i) => i.id)).toEqual([instanceId]);

        await engine.destroy();
        expect(emu.liveInstances()).toHaveLength(0);
    });

    // Before: a start waited for running whatever waitForRunning said.
    it("a start with waitForRunning false returns once the service took it, as a create does; an up that waits then waits", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("quick-start", { offerId: offer.id, image: "busybox", ...args });
        await engine.up(program({ desiredState: "stopped" }));
        const instanceId = engine.get("quick-start").outputs.instanceId as number;

        emu.clearLog();
        await engine.up(program({ desiredState: "running", waitForRunning: false }));
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).map((r) => r.body)).toEqual([{ state: "running" }]);
        expect(engine.get("quick-start").outputs).toMatchObject({ desiredState: "running", intendedStatus: "running" });
        expect(engine.get("quick-start").outputs.actualStatus).not.toBe("running");
        expect(emu.requestsTo("GET", "/api/v1/instances/")).toEqual([]);

        await engine.up(program({ desiredState: "running" }));
        expect(engine.get("quick-start").outputs).toMatchObject({ desiredState: "running", actualStatus: "running" });
        await engine.destroy();
    });

    // Before: a start or stop that failed partway left state as it was, so a program put back as
    // before showed no change while the instance stayed as the failed call left it.
    it("a start whose answers were lost, or a stop whose wait failed, is recorded as asked: putting the program back undoes it", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (desiredState: "running" | "stopped") => () => new Instance("flip", { offerId: offer.id, image: "busybox", desiredState });
        await engine.up(program("stopped"));
        const id = Number(engine.get("flip").id);

        // The start takes effect each time; every answer is lost (a gateway's 504), on each of the client's tries.
        emu.faults.add({ method: "PUT", path: `/api/v0/instances/${id}/`, fault: { kind: "lostResponse", status: 504 }, times: 4 });
        await expect(engine.up(program("running"))).rejects.toThrow(/504/);
        emu.faults.clear();
        expect(engine.get("flip")).toMatchObject({ initFailed: true, outputs: { desiredState: "running" } });
        expect(await engine.up(program("stopped"))).toMatchObject({ update: ["flip"] });
        expect(emu.instanceView(id)).toMatchObject({ actual_status: "stopped" });

        await engine.up(program("running"));
        // The stop is taken; every read of the wait after it fails, on each of the client's tries.
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 500 }, times: 4 });
        await expect(engine.up(program("stopped"))).rejects.toThrow(/500/);
        emu.faults.clear();
        expect(engine.get("flip")).toMatchObject({ initFailed: true, outputs: { desiredState: "stopped" } });
        expect(await engine.up(program("running"))).toMatchObject({ update: ["flip"] });
        expect(emu.instanceView(id)).toMatchObject({ actual_status: "running" });
        await engine.destroy();
    });

    // Before: with the failed start recorded as asked, an instance created stopped (no status, as
    // one that never ran may show) was never sent the start again: the next up waited for it, or
    // went green with it stopped.
    it("a start refused before the service acted, on an instance created stopped, is sent again by the next up", async () => {
        const { engine, emu } = stack;
        for (const waitForRunning of [true, false]) {
            const offer = emu.addOffer();
            const program = (desiredState: "running" | "stopped") => () => new Instance("cs", { offerId: offer.id, image: "busybox", desiredState, waitForRunning });
            await engine.up(program("stopped"));
            const id = Number(engine.get("cs").id);
            emu.faults.add({ method: "PUT", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 500 }, times: 10 });
            await expect(engine.up(program("running"))).rejects.toThrow(/500/);
            emu.faults.clear();
            emu.clearLog();
            await engine.up(program("running"));
            expect(emu.requestsTo("PUT", `/api/v0/instances/${id}/`).map((r) => r.body)).toEqual([{ state: "running" }]);
            await engine.destroy();
        }
    });

    // Before: the status it ended with was dropped, so state still said stopped and every later up
    // sent the start again (a batch job run again each time), with no word that it had ended.
    it.each([
        ["exited", "job finished"],
        ["loading", "Error: OCI runtime create failed"],
        // The container made but never started, as dstack reads it: the message alone says so.
        ["created", "OCI runtime create failed: runc create failed"],
    ])("an instance that ends on its own right after a start (%s, %s) is recorded as ended: the next up sends no start, waits for nothing, and warns", async (status, statusMsg) => {
        const { emu, engine } = stack;
        const offer = emu.addOffer();
        const program = (desiredState: "running" | "stopped") => () => new Instance("exits", { offerId: offer.id, image: "busybox", desiredState });
        await engine.up(program("stopped"));
        const id = Number(engine.get("exits").id);
        emu.clearLog();
        const started = engine.up(program("running")).then(() => "ok", (e: Error) => e.message);
        // As soon as the start arrives: it runs, and ends on its own (a batch job done, or a crash).
        await eventually(async () => emu.requestsTo("PUT", `/api/v0/instances/${id}/`).length === 1, 10_000, 2);
        const instance = emu.model.instances.get(id)!;
        instance.stateChange = undefined;
        instance.script = { status: status as "exited" | "loading" | "created", statusMsg };
        expect(await started).toMatch(/it will not reach running/);
        expect(engine.get("exits")).toMatchObject({ initFailed: true, outputs: { actualStatus: status, intendedStatus: "running", statusMsg } });

        emu.clearLog();
        const from = stack.host.output.length;
        await engine.up(program("running"));
        expect(emu.requestsTo("PUT", `/api/v0/instances/${id}/`)).toEqual([]);
        expect(stack.host.output.slice(from)).toEqual(expect.arrayContaining([expect.stringContaining(`instance ${id} has ended: ${status} (${JSON.stringify(statusMsg)})`)]));
        await engine.destroy();
    });

    // The same without reaching into the emulator: created stopped on an offer whose instances exit,
    // the start ends exited as the create would have (contract §3: exited never reaches running).
    it("an instance created stopped on an offer whose instances exit: the start ends exited, recorded as ended, and the next up sends no start", async () => {
        const { emu, engine } = stack;
        const offer = emu.addOffer({ status: "exited", statusMsg: "container exited with code 1" });
        const program = (desiredState: "running" | "stopped") => () => new Instance("badstart", { offerId: offer.id, image: "busybox", desiredState });
        await engine.up(program("stopped"));
        const id = Number(engine.get("badstart").id);
        await expect(engine.up(program("running"))).rejects.toThrow(/it will not reach running/);
        expect(engine.get("badstart")).toMatchObject({ initFailed: true, outputs: { actualStatus: "exited", intendedStatus: "running" } });
        expect(emu.instanceView(id)).toMatchObject({ actual_status: "exited" });
        emu.clearLog();
        await engine.up(program("running"));
        expect(emu.requestsTo("PUT", `/api/v0/instances/${id}/`)).toEqual([]);
        await engine.destroy();
    });

    // Before: a refresh kept the program's desiredState for a frozen instance (intended_status
    // "frozen" was not read back), so a program saying "stopped" planned no change while its GPUs
    // were billed, and one saying "running" never saw it paused.
    it("an instance frozen in the web console shows as drift at refresh, with a warning; the next up starts it, or stops it when the program says stopped", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("paused", { offerId: offer.id, image: "busybox", ...args });
        await engine.up(program({}));
        const instanceId = engine.get("paused").outputs.instanceId as number;
        const warnings = (from: number) => stack.host.output.slice(from).filter((l) => l.includes(`warning: instance ${instanceId} is frozen`));

        for (const desiredState of ["running", "stopped"] as const) {
            if (desiredState === "stopped") await engine.up(program({ desiredState: "running" }));
            emu.consoleFreezeInstance(instanceId);
            let from = stack.host.output.length;
            expect((await engine.refresh()).update).toEqual(["paused"]);
            expect(engine.get("paused").outputs).toMatchObject({ desiredState: "frozen", actualStatus: "frozen", intendedStatus: "frozen" });
            expect(warnings(from)).toEqual([expect.stringContaining(`vastai: warning: instance ${instanceId} is frozen (paused, its memory kept): its GPUs are still billed`)]);

            emu.clearLog();
            from = stack.host.output.length;
            expect(await engine.up(program({ desiredState }))).toMatchObject({ update: ["paused"], replace: [], create: [] });
            expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).map((r) => r.body)).toEqual([{ state: desiredState }]);
            expect(engine.get("paused").outputs).toMatchObject({ instanceId, desiredState, actualStatus: desiredState, intendedStatus: desiredState });
            expect(emu.instanceView(instanceId)).toMatchObject({ actual_status: desiredState });
            expect(emu.liveInstances().map((i) => i.id)).toContain(instanceId);
            expect(warnings(from)).toEqual([]);
        }
        await engine.destroy();
        expect(emu.liveInstances().filter((i) => i.id === instanceId)).toEqual([]);
    });

    // Before: only intended_status was read back, so an instance frozen in actual_status alone (the
    // service does not document which a freeze sets) was recorded as meant to run, with a
    // warning, and the next up planned no change while its GPUs were billed.
    it("an instance frozen in actual_status only is recorded as frozen, and the next up starts it", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = () => new Instance("half-frozen", { offerId: offer.id, image: "busybox" });
        await engine.up(program);
        const instanceId = engine.get("half-frozen").outputs.instanceId as number;
        emu.consoleFreezeInstance(instanceId, { intendedShown: "running" });
        await engine.refresh();
        expect(engine.get("half-frozen").outputs).toMatchObject({ desiredState: "frozen", actualStatus: "frozen", intendedStatus: "running" });
        emu.clearLog();
        expect(await engine.up(program)).toMatchObject({ update: ["half-frozen"] });
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).map((r) => r.body)).toEqual([{ state: "running" }]);
        expect(emu.instanceView(instanceId)).toMatchObject({ actual_status: "running" });
        await engine.destroy();
    });

    // Before: check refused the "frozen" a refresh recorded, which the engine hands back as the
    // program's own for `ignoreChanges: ["desiredState"]` (it copies ignored old inputs into the new
    // before check), so every later up of such a program failed.
    it("a program that ignores changes to desiredState leaves a frozen instance frozen: check keeps the value the engine hands back, and a label edit neither starts nor stops it", async () => {
        const { engine, emu, host } = stack;
        const offer = emu.addOffer();
        const program = (label: string) => () => new Instance("ignored", { offerId: offer.id, image: "busybox", label });
        await engine.up(program("a"));
        const instanceId = engine.get("ignored").outputs.instanceId as number;
        emu.consoleFreezeInstance(instanceId);
        await engine.refresh();
        const entry = engine.get("ignored");
        expect(entry.inputs).toMatchObject({ desiredState: "frozen" });

        const [reg] = await registerAsProgram(program("b"));
        const urn = host.urn(reg.type, reg.name);
        // What the engine sends check for `ignoreChanges: ["desiredState"]`: the old value in the new inputs.
        const checked = await host.check(urn, entry.inputs, { ...reg.inputs, desiredState: "frozen" });
        expect(checked.failures).toEqual([]);
        expect(checked.inputs).toMatchObject({ desiredState: "frozen", label: "b" });
        // A program cannot ask for "frozen" itself.
        const asked = await host.check(urn, { ...entry.inputs, desiredState: "running" }, { ...reg.inputs, desiredState: "frozen" });
        expect(asked.failures).toEqual([expect.objectContaining({ property: "desiredState" })]);

        expect(await host.diff(entry.id, urn, entry.outputs, checked.inputs)).toMatchObject({ changes: "some", replaces: [] });
        emu.clearLog();
        await host.update(entry.id, urn, entry.outputs, checked.inputs);
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).map((r) => r.body)).toEqual([{ label: "b" }]);
        expect(emu.instanceView(instanceId)).toMatchObject({ actual_status: "frozen", label: "b" });
        await engine.destroy();
    });

    // Before: a refresh recorded "exited" and every later `up` went green in silence, the disk still billed.
    it("an instance that ended on its own is warned about at the refresh that sees it and at each up while it stays so; never once its owner restarted it, nor one stopped on purpose", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("batch", { offerId: offer.id, image: "busybox", ...args });
        await engine.up(program({}));
        const instanceId = engine.get("batch").outputs.instanceId as number;
        const instance = emu.model.instances.get(instanceId)!;
        const warnings = (from: number) => stack.host.output.slice(from).filter((l) => l.includes(`instance ${instanceId} has ended`));

        instance.script = { status: "exited", statusMsg: "job finished" };
        let from = stack.host.output.length;
        expect((await engine.refresh()).update).toEqual(["batch"]);
        expect(engine.get("batch").outputs).toMatchObject({ actualStatus: "exited" });
        expect(warnings(from)).toEqual([
            expect.stringContaining(`vastai: warning: instance ${instanceId} has ended: exited ("job finished"). It stays on the account, its disk billed, until it is destroyed`),
        ]);
        // Pinned by offerId: `pulumi up --replace` would make the new one first, on the offer the old one holds.
        expect(warnings(from)[0]).toContain("give it another offerId (its offer holds it)");
        expect(warnings(from)[0]).not.toContain("--replace");
        // Nothing in the program changed: the up changes nothing (no restart, no destroy) but says it again.
        from = stack.host.output.length;
        emu.clearLog();
        expect((await engine.up(program({}))).same).toEqual(["batch"]);
        expect(warnings(from)).toHaveLength(1);
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`)).toEqual([]);

        // Restarted by its owner since: state still says exited, the look finds it running, no warning.
        instance.script = { status: "running" };
        from = stack.host.output.length;
        expect((await engine.up(program({}))).same).toEqual(["batch"]);
        expect(warnings(from)).toEqual([]);

        // Stopped on purpose: stopped is no ending.
        await engine.up(program({ desiredState: "stopped" }));
        from = stack.host.output.length;
        await engine.refresh();
        await engine.up(program({ desiredState: "stopped" }));
        expect(warnings(from)).toEqual([]);
        await engine.destroy();
    });

    // Before: the failed start's state said "asked to run, last seen stopped", and the next `up`
    // neither started it nor waited: it succeeded with the instance not running.
    it("a start that ran out of time is waited for by the next up, and one that did not take is asked again", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (args: Partial<InstanceArgs>) => () => new Instance("slow-start", { offerId: offer.id, image: "busybox", ...args });
        await engine.up(program({}));
        const instanceId = engine.get("slow-start").outputs.instanceId as number;
        await engine.up(program({ desiredState: "stopped" }));

        // A second of live time is 10 ms here: the start is asked, and the wait gives up.
        await expect(engine.up(program({ readyTimeoutSeconds: 1 }))).rejects.toThrow(/did not reach running within 1 s/);
        expect(engine.get("slow-start").outputs.actualStatus).not.toBe("running");
        await engine.up(program({}));
        expect(engine.get("slow-start").outputs).toMatchObject({ instanceId, desiredState: "running", actualStatus: "running" });
        expect(emu.instanceView(instanceId)).toMatchObject({ actual_status: "running" });

        // A start the service did not act on (its answer never came): stopped again, the next `up` asks again.
        await engine.up(program({ desiredState: "stopped" }));
        emu.faults.add({ method: "PUT", path: `/api/v0/instances/${instanceId}/`, fault: { kind: "status", status: 503 }, times: 4 });
        await expect(engine.up(program({}))).rejects.toThrow(/503/);
        await engine.up(program({}));
        expect(emu.instanceView(instanceId)).toMatchObject({ actual_status: "running" });
        await engine.destroy();
    });

    it("created stopped: never run (target_state in the create), and a stop asked after it all the same", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        await engine.up(() => new Instance("cold", { offerId: offer.id, image: "busybox", desiredState: "stopped" }));
        const instanceId = engine.get("cold").outputs.instanceId as number;
        // Stopped as soon as it is meant to be and has not run: it may show no status yet (isStopped).
        expect(engine.get("cold").outputs).toMatchObject({ desiredState: "stopped", intendedStatus: "stopped" });
        expect([undefined, "created", "stopped"]).toContain(engine.get("cold").outputs.actualStatus);
        expect(emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`).map((r) => r.body)).toEqual([expect.objectContaining({ target_state: "stopped" })]);
        // Stopped from its creation on: it never ran, so its GPUs were never billed.
        expect(emu.model.instances.get(instanceId)!.stateChange).toMatchObject({ to: "stopped", from: null });
        // Should the service ever ignore target_state, the stop sent after the create stops it.
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).map((r) => r.body)).toContainEqual({ state: "stopped" });
        await engine.destroy();
    });

    it("a new bid is set in place; gaining or losing the bid replaces", async () => {
        const { engine, emu, host } = stack;
        const offer = emu.addOffer();
        const program = (price?: number) => () => new Instance("spot", { offerId: offer.id, image: "busybox", price });

        await engine.up(program(0.3));
        const instanceId = engine.get("spot").outputs.instanceId as number;
        expect(engine.get("spot").outputs).toMatchObject({ price: 0.3, dphTotal: 0.3 });

        const rebid = await engine.up(program(0.35));
        expect(rebid).toMatchObject({ update: ["spot"], replace: [], create: [] });
        expect(emu.requestsTo("PUT", `/api/v0/instances/bid_price/${instanceId}/`).at(-1)!.body).toEqual({ client_id: "me", price: 0.35 });
        expect(engine.get("spot").outputs).toMatchObject({ instanceId, price: 0.35, dphTotal: 0.35 });
        expect(emu.instanceView(instanceId)).toMatchObject({ dph_total: 0.35, is_bid: true });

        // The service's ceilings: $128/hour in a create, refused in check; $32 in a bid change, so a
        // higher new bid replaces the instance. Pinned to its offer, that replacement would destroy it
        // before renting the offer again: refused in check, saying so. Rented by search, the new one
        // is made first: a replace, named in the preview.
        const entryNow = engine.get("spot");
        expect((await host.check(entryNow.urn, entryNow.inputs, { ...entryNow.inputs, price: 129 })).failures).toEqual([
            { property: "price", reason: expect.stringMatching(/at most \$128\/hour/) },
        ]);
        expect((await host.check(entryNow.urn, entryNow.inputs, { ...entryNow.inputs, price: 40 })).failures).toEqual([
            { property: "price", reason: expect.stringMatching(/only up to \$32\/hour; .*on the same offer .*destroying it/) },
        ]);
        // Also when the program writes env as a flag string, which state keeps as a map: the same env, no replacement by it.
        const withEnv = { ...entryNow.inputs, env: { A: "1" } };
        expect((await host.check(entryNow.urn, withEnv, { ...withEnv, env: "-e A=1", price: 40 })).failures).toEqual([
            { property: "price", reason: expect.stringMatching(/only up to \$32\/hour/) },
        ]);
        const { offerId: _pinned, ...bySearch } = entryNow.inputs;
        const searched = { ...bySearch, offer: { filters: { gpu_name: { eq: "RTX 4090" } }, type: "bid" } };
        const highBid = await host.check(entryNow.urn, searched, { ...searched, price: 40 });
        expect(highBid.failures).toEqual([]);
        const { offerId: _rented, ...withoutOffer } = entryNow.outputs as Record<string, unknown>;
        const searchedOutputs = { ...withoutOffer, offer: highBid.inputs.offer };
        expect(await host.diff(entryNow.id, entryNow.urn, searchedOutputs, highBid.inputs)).toMatchObject({ replaces: ["price"], deleteBeforeReplace: false });
        const lowerBid = await host.check(entryNow.urn, entryNow.inputs, { ...entryNow.inputs, price: 0.4 });
        expect((await host.diff(entryNow.id, entryNow.urn, entryNow.outputs, lowerBid.inputs)).replaces).toEqual([]);

        // On demand ↔ interruptible is another rental: a replace, naming price.
        const entry = engine.get("spot");
        const { price: _bid, ...withoutBid } = entry.inputs;
        const onDemand = await host.check(entry.urn, entry.inputs, withoutBid);
        expect((await host.diff(entry.id, entry.urn, entry.outputs, onDemand.inputs)).replaces).toEqual(["price"]);
        const { price: _oldBid, ...fromOnDemand } = entry.outputs;
        expect((await host.diff(entry.id, entry.urn, fromOnDemand, entry.inputs)).replaces).toEqual(["price"]);
        await engine.destroy();
    });

    it("the emulator refuses a bid for an on-demand instance", async () => {
        const { emu } = stack;
        const offer = emu.addOffer();
        const res = await fetch(`${emu.url}/api/v0/asks/${offer.id}/`, {
            method: "PUT",
            headers: { Authorization: `Bearer ${emu.demoKey}`, "Content-Type": "application/json" },
            body: JSON.stringify({ client_id: "me", image: "busybox" }),
        });
        const { new_contract } = (await res.json()) as { new_contract: number };
        // Bids are paced per key (5.5 s live): the earlier tests' last one may be that recent.
        await new Promise((resolve) => setTimeout(resolve, 5500 * TEST_TIME_SCALE));
        const bid = await fetch(`${emu.url}/api/v0/instances/bid_price/${new_contract}/`, {
            method: "PUT",
            headers: { Authorization: `Bearer ${emu.demoKey}`, "Content-Type": "application/json" },
            body: JSON.stringify({ client_id: "me", price: 0.5 }),
        });
        expect(bid.status).toBe(400);
        expect(await bid.json()).toMatchObject({ msg: expect.stringMatching(/on demand/) });
        emu.model.instances.get(new_contract)!.destroyed = true;
    });
});
