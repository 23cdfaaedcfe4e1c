import { Instance } from "../../provider";
import { HostCallError } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { clientFor, eventually } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

const asks = /^\/api\/v0\/asks\/\d+\/?$/;

describe("Instance failures through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 20, runningAfterMs: 150 } } });
    });
    afterAll(() => stack.stop());
    beforeEach(() => stack.emu.faults.clear());

    it("an instance that ends exited, or reports an Error, is destroyed and another started; only the last one is left", async () => {
        const { engine, emu, host } = stack;
        const offer = emu.addOffer([
            { status: "exited", statusMsg: "container exited with code 1" },
            // A machine's error (its GPU runtime), not the image's: a pull failure ends the create (instance.pullFailure.test.ts).
            { status: "loading", statusMsg: "Error response from daemon: could not select device driver \"nvidia\" with capabilities: [[gpu]]" },
            { status: "running" },
        ]);
        const summary = await engine.up(() => new Instance("retry", { offerId: offer.id, image: "busybox" }));
        expect(summary.create).toEqual(["retry"]);

        const made = [...emu.model.instances.values()].filter((i) => i.offerId === offer.id);
        expect(made).toHaveLength(3);
        const [exited, errored, final] = made;
        expect(exited.destroyed && errored.destroyed).toBe(true);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id).map((i) => i.id)).toEqual([final.id]);
        expect(engine.get("retry")).toMatchObject({ id: String(final.id), outputs: { instanceId: final.id, actualStatus: "running" } });
        expect(host.output).toEqual(
            expect.arrayContaining([
                expect.stringContaining(`instance ${exited.id} on offer ${offer.id} will not run: exited ("container exited with code 1"); destroying it`),
                expect.stringContaining(`instance ${errored.id} on offer ${offer.id} will not run: loading ("Error response from daemon`),
            ]),
        );
        await engine.destroy();
    });

    it("after maxCreateAttempts the create fails with every attempt's status, and nothing is left running", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer([{ status: "unknown" }, { status: "offline", statusMsg: "host went away" }]);
        const error = await engine
            .up(() => new Instance("doomed", { offerId: offer.id, image: "busybox", maxCreateAttempts: 2 }))
            .catch((e) => e);
        expect(error).toBeInstanceOf(Error);
        const [first, second] = [...emu.model.instances.values()].filter((i) => i.offerId === offer.id);
        expect(codeIn(error)).toBe("create_attempts_exhausted");
        expect(error.message).toContain(`create instance on offer ${offer.id} failed: no instance reached running in 2 attempts`);
        expect(error.message).toContain(`attempt 1: instance ${first.id} on offer ${offer.id} unknown`);
        expect(error.message).toContain(`attempt 2: instance ${second.id} on offer ${offer.id} offline ("host went away")`);
        // Nothing was left to track: a plain failure, no resource in state.
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
        expect(engine.state.size).toBe(0);
    });

    it("a retry that cannot take the offer again fails saying what happened to the earlier attempts", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer([{ status: "exited" }, { status: "running" }]);
        const up = engine.up(() => new Instance("offer-gone", { offerId: offer.id, image: "busybox" })).catch((e) => e);
        // Once the first instance exists, the offer is taken by someone else for the retry, for longer
        // than the provider waits for an offer it freed itself to come back.
        await eventually(async () => [...emu.model.instances.values()].some((i) => i.offerId === offer.id));
        emu.faults.add({ method: "PUT", path: asks, times: 1000, fault: { kind: "status", status: 410, body: { success: false, error: "no_such_ask", msg: "offer taken" } } });
        const error = await up;
        emu.faults.clear();
        const [first] = [...emu.model.instances.values()].filter((i) => i.offerId === offer.id);
        expect(error.message).toMatch(new RegExp(`create instance on offer ${offer.id} failed: HTTP 410 not found: offer taken`));
        expect(error.message).toContain(`(on attempt 2; nothing before it was left running: attempt 1: instance ${first.id} on offer ${offer.id} exited`);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
        expect(engine.state.size).toBe(0);
    });

    // Offer ids are short-lived: a newcomer's program pins one from yesterday's search, or one that
    // another program rented meanwhile. The service says only "no_such_ask ... is not available".
    it("an offerId that is not on the market fails saying so and what to give instead, nothing rented", async () => {
        const { engine, emu } = stack;
        const missing = 424242;
        expect(emu.model.offers.has(missing)).toBe(false);
        const error = await engine.up(() => new Instance("stale-offer", { offerId: missing, image: "busybox" })).catch((e) => e);
        expect(codeIn(error)).toBe("offer_gone");
        expect(error.message).toContain(`create instance on offer ${missing} failed: HTTP 404 not found`);
        expect(error.message).toContain(`Offer ${missing} is not on the market: an offer leaves it when it is rented, and nothing was rented here.`);
        expect(error.message).toContain("Give a current offer id (searchOffers lists them), or rent by need with `offer` (a search) instead of `offerId`");
        expect(engine.state.size).toBe(0);

        // Rented by another resource: the same answer, and the holder is untouched.
        const offer = emu.addOffer();
        await engine.up(() => new Instance("holder", { offerId: offer.id, image: "busybox" }));
        const taken = await engine
            .up(() => [new Instance("holder", { offerId: offer.id, image: "busybox" }), new Instance("late", { offerId: offer.id, image: "busybox" })])
            .catch((e) => e);
        expect(codeIn(taken)).toBe("offer_gone");
        expect(taken.message).toContain(`Offer ${offer.id} is not on the market`);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toHaveLength(1);
        expect([...engine.state.values()].map((r) => r.name)).toEqual(["holder"]);
        await engine.destroy();
    });

    // An offer this create freed (its first instance exited and was destroyed) that does not come
    // back in time: not "rented elsewhere, nothing rented" (something was), but "run up again".
    it("a pinned offer this create freed that does not come back in time says so, not that nothing was rented", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer([{ status: "exited", statusMsg: "container exited with code 1" }, { status: "running" }]);
        const answered = emu.model.instances.size;
        const program = () => new Instance("not-back", { offerId: offer.id, image: "busybox", maxCreateAttempts: 2 });
        const up = engine.up(program).catch((e) => e);
        // Once the first instance is destroyed, the offer stays off the market.
        await eventually(async () => [...emu.model.instances.values()].slice(answered).some((i) => i.offerId === offer.id && i.destroyed), 10_000, 2);
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${offer.id}/`, fault: { kind: "status", status: 404, body: { success: false, error: "no_such_ask", msg: `Instance type by id ${offer.id} is not available.` } }, times: 1000 });
        const error = await up;
        emu.faults.clear();
        expect(error.message).toContain(`Offer ${offer.id} was freed by this \`pulumi up\` (its instance destroyed) and did not come back to the market within 60 s`);
        expect(error.message).not.toContain("nothing was rented here");
        expect(error.message).toMatch(/attempt 1: instance \d+ on offer \d+ exited/);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
        expect(engine.state.size).toBe(0);
    });

    it("a deadline passed while loading fails as an init failure carrying the id: the instance stays in state, destroyable", async () => {
        const { engine, emu, host } = stack;
        const offer = emu.addOffer({ status: "loading" }); // never gets further
        const slow = { offerId: offer.id, image: "busybox", readyTimeoutSeconds: 30 };

        // The host's answer, as the engine gets it: ErrorResourceInitFailed with the id and outputs.
        const [reg] = await registerAsProgram(() => new Instance("slow", slow));
        const urn = host.urn(reg.type, reg.name);
        const error = await host.create(urn, (await host.check(urn, {}, reg.inputs)).inputs).catch((e) => e);
        const [stuck] = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(error).toBeInstanceOf(HostCallError);
        expect(error.message).toMatch(new RegExp(`instance ${stuck.id} on offer ${offer.id} did not reach running within 30 s \\(last status: loading`));
        expect(error.initFailure).toMatchObject({
            id: String(stuck.id),
            properties: { instanceId: stuck.id, actualStatus: "loading", offerId: offer.id, image: "busybox", __provider: reg.inputs.__provider },
            reasons: [error.message],
        });
        // The next `up` sends the engine's empty update for a resource with init errors: it waits again.
        emu.model.instances.get(stuck.id)!.script = { status: "running" };
        const resumed = await host.update(String(stuck.id), urn, error.initFailure.properties, error.initFailure.properties);
        expect(resumed.properties).toMatchObject({ instanceId: stuck.id, actualStatus: "running", sshPort: expect.any(Number) });
        await host.delete(String(stuck.id), urn, resumed.properties);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);

        // Through the engine: recorded as created-but-failed, not leaked, and a destroy removes it.
        await expect(engine.up(() => new Instance("slow", slow))).rejects.toThrow(/did not reach running within 30 s/);
        const [second] = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(engine.get("slow")).toMatchObject({ id: String(second.id), outputs: { actualStatus: "loading" } });
        expect(await engine.destroy()).toEqual(["slow"]);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });

    it("a create answered success: false beside its new_contract (created stopped) keeps that instance in state, rents no other, and the next up starts it", async () => {
        const { engine, emu, host } = stack;
        const offer = emu.addOffer({ status: "stopped" });
        const args = { offerId: offer.id, image: "busybox", readyTimeoutSeconds: 30 };
        await expect(engine.up(() => new Instance("stopped-at-birth", args))).rejects.toThrow(/did not reach running within 30 s \(last status: stopped/);
        const made = [...emu.model.instances.values()].filter((i) => i.offerId === offer.id);
        expect(made).toHaveLength(1);
        expect(emu.requestsTo("PUT", asks).filter((r) => r.path.includes(String(offer.id)))).toHaveLength(1);
        expect(engine.get("stopped-at-birth")).toMatchObject({ id: String(made[0].id), outputs: { instanceId: made[0].id, actualStatus: "stopped" } });
        expect(host.output).toEqual(expect.arrayContaining([expect.stringContaining(`instance ${made[0].id} on offer ${offer.id} was created stopped`)]));

        // While its machine has no room, the next `up` asks for it to run; the service queues the start.
        await expect(engine.up(() => new Instance("stopped-at-birth", args))).rejects.toThrow(/did not reach running within 30 s \(last status: stopped/);
        expect(host.output).toEqual(expect.arrayContaining([expect.stringContaining(`instance ${made[0].id}: start asked; its machine has no room for it now, so the service queued the start`)]));
        expect(engine.get("stopped-at-birth")).toMatchObject({ id: String(made[0].id), outputs: { desiredState: "running", actualStatus: "stopped" } });

        // Once its machine has room, the next `up` asks for it to run again, and waits for it.
        emu.model.instances.get(made[0].id)!.script = { status: "running" };
        const summary = await engine.up(() => new Instance("stopped-at-birth", args));
        expect(summary.update).toEqual(["stopped-at-birth"]);
        expect(engine.get("stopped-at-birth")).toMatchObject({ id: String(made[0].id), outputs: { actualStatus: "running" } });
        expect(await engine.destroy()).toEqual(["stopped-at-birth"]);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });

    it("a label too long for the create, that could not be set after it, is set by the next up: state records the label the instance has", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const long = "l".repeat(300); // the create takes 256 characters, an edit 1024
        // Every try the client makes (a label is repeatable, so a 500 is retried) fails.
        emu.faults.add({ method: "PUT", path: /^\/api\/v0\/instances\/\d+\/$/, times: 4, fault: { kind: "status", status: 500 } });

        const program = () => new Instance("labelled", { offerId: offer.id, image: "busybox", label: long });
        await expect(engine.up(program)).rejects.toThrow(/was created, then: .*label instance .* HTTP 500/);
        const [instance] = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(instance.label ?? "").toBe("");
        expect(engine.get("labelled").outputs.label).toBe("");

        const next = await engine.up(program);
        expect(next.update).toEqual(["labelled"]);
        expect(emu.model.instances.get(instance.id)!.label).toBe(long);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toHaveLength(1);
        await engine.destroy();
    });

    it.each([
        ["a 504 after it took effect", { kind: "lostResponse", status: 504 } as const],
        ["a reset after it took effect", { kind: "lostResponse" } as const],
    ])("a lost create answer (%s) leaves exactly one instance: the one it made is found by its placement token", async (_, fault) => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        emu.faults.add({ method: "PUT", path: asks, fault });
        emu.clearLog();
        await engine.up(() => new Instance("lost", { offerId: offer.id, image: "busybox", label: "mine" }));

        const live = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(live).toHaveLength(1);
        expect(emu.requestsTo("PUT", asks)).toHaveLength(1); // never sent again
        const lookups = emu.requestsTo("GET", "/api/v1/instances/").filter((r) => r.query.select_filters.includes('"label"'));
        expect(lookups.length).toBeGreaterThanOrEqual(1);
        expect(engine.get("lost").outputs).toMatchObject({ instanceId: live[0].id, label: "mine", actualStatus: "running" });
        expect(live[0].label).toBe("mine");
        await engine.destroy();
    });

    // Before: the look-up's deadline was the readiness deadline, counted from before the create was
    // sent. A create whose answer timed out (60 s live) with readyTimeoutSeconds: 30 left the look-up
    // no time at all: its first failed look ended the create, the instance running outside state.
    it("a lost create answer is looked for past a short readyTimeoutSeconds: a look that fails is tried again, and the instance is kept", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        // The create takes effect and its answer never comes; then every try of the look-up's first list call fails.
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${offer.id}/`, fault: { kind: "timeout", acted: true } });
        emu.faults.add({ method: "GET", path: "/api/v1/instances/", times: 4, fault: { kind: "status", status: 500 } });
        emu.clearLog();
        await engine.up(() => new Instance("lost-short", { offerId: offer.id, image: "busybox", readyTimeoutSeconds: 30, waitForRunning: false }));

        const live = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(live).toHaveLength(1);
        expect(emu.requestsTo("PUT", asks)).toHaveLength(1);
        expect(engine.get("lost-short").id).toBe(String(live[0].id));
        await engine.destroy();
    });

    it("a lost create's look answered by a refusal of the key is tried again: twice refused, it finds the instance; three times in a row, the create fails naming what to look for", async () => {
        const { engine, emu } = stack;
        // The key was taken for the create a moment before: one refusal may be the service's slip.
        const offer = emu.addOffer();
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${offer.id}/`, fault: { kind: "lostResponse" } });
        emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "authError404" } });
        emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "status", status: 401, body: { success: false, error: "auth_error", msg: "Invalid user key" } } });
        await engine.up(() => new Instance("refused-twice", { offerId: offer.id, image: "busybox", waitForRunning: false }));
        const live = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(live).toHaveLength(1);
        expect(engine.get("refused-twice").id).toBe(String(live[0].id));
        await engine.destroy();

        // Refused at every look: the key is taken as refused (revoked, or without instance_read).
        const other = emu.addOffer();
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${other.id}/`, fault: { kind: "lostResponse" } });
        emu.faults.add({ method: "GET", path: "/api/v1/instances/", times: 3, fault: { kind: "authError404" } });
        const failed = await engine.up(() => new Instance("refused", { offerId: other.id, image: "busybox", waitForRunning: false })).catch((e: Error) => e);
        expect(String(failed)).toMatch(/looking for what it made could not settle it .*HTTP 404/s);
        expect(emu.requestsTo("PUT", `/api/v0/asks/${other.id}/`)).toHaveLength(1);
        const [made] = emu.liveInstances().filter((i) => i.offerId === other.id);
        await clientFor(emu).instances.destroy(made.id);
    });

    it("a create that failed before the service acted (answer lost, nothing made) is sent once more, and one instance results", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        // 500 without handling: the client cannot tell it from a lost answer.
        emu.faults.add({ method: "PUT", path: asks, fault: { kind: "status", status: 500 } });
        emu.clearLog();
        await engine.up(() => new Instance("resent", { offerId: offer.id, image: "busybox" }));
        expect(emu.requestsTo("PUT", asks)).toHaveLength(2);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toHaveLength(1);
        await engine.destroy();
    });

    it("a 404 with auth_error is an auth error: refresh and destroy fail and keep the resource", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        await engine.up(() => new Instance("kept", { offerId: offer.id, image: "busybox" }));
        const id = engine.get("kept").id;

        // A refresh reads through the v1 list, and one the list leaves out by its own read: a revoked key on either keeps it.
        emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "authError404" } });
        await expect(engine.refresh()).rejects.toThrow(/list instances failed: HTTP 404 unauthorized: Invalid user key/);
        expect(engine.get("kept").id).toBe(id);
        emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "status", status: 200, body: { instances: [] } } });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: { kind: "authError404" } });
        await expect(engine.refresh()).rejects.toThrow(/show instance \d+ failed: HTTP 404 unauthorized: Invalid user key/);
        expect(engine.get("kept").id).toBe(id);

        emu.faults.add({ method: "DELETE", path: `/api/v0/instances/${id}/`, fault: { kind: "authError404" } });
        await expect(engine.destroy()).rejects.toThrow(/destroy instance \d+ failed: HTTP 404 unauthorized/);
        expect(engine.get("kept").id).toBe(id);
        expect(emu.liveInstances().map((i) => String(i.id))).toContain(id);

        // A real "gone" (destroyed elsewhere) does leave state on refresh.
        emu.model.instances.get(Number(id))!.destroyed = true;
        await engine.refresh();
        expect(engine.state.size).toBe(0);
    });

    it("a destroy answered by a not-found about something else keeps the running instance in state; one destroyed elsewhere is let go", async () => {
        const { engine, emu, host } = stack;
        const offer = emu.addOffer();
        await engine.up(() => new Instance("paid", { offerId: offer.id, image: "busybox" }));
        const id = engine.get("paid").id;

        // The service's words for a missing offer, on the destroy of an instance that is running.
        const noSuchAsk = { success: false, error: "invalid_args", msg: "error 404/3603: no_such_ask  Instance type by id 7 is not available." };
        emu.faults.add({ method: "DELETE", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 404, body: noSuchAsk } });
        const unconfirmed = await engine.destroy().catch((e) => e);
        expect(codeIn(unconfirmed)).toBe("delete_unconfirmed");
        expect(unconfirmed.message).toMatch(/destroy instance \d+ failed: the service answered that it is not found, but a read still finds it; it stays in state/);
        expect(engine.get("paid").id).toBe(id);
        expect(emu.liveInstances().map((i) => String(i.id))).toContain(id);

        // Twice, with the read that checks it failing too, until its deadline: still kept.
        emu.faults.add({ method: "DELETE", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 404, body: noSuchAsk } });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 500 }, times: 10_000 });
        await expect(engine.destroy()).rejects.toThrow(/not found, but reading it to make sure failed/);
        expect(engine.get("paid").id).toBe(id);
        emu.faults.clear();

        // Destroyed elsewhere: the destroy's not-found is confirmed by reads, and it leaves state.
        emu.model.instances.get(Number(id))!.destroyed = true;
        await engine.destroy();
        expect(engine.state.size).toBe(0);
        expect(host.output.join("\n")).toMatch(new RegExp(`instance ${id} was already gone`));
    });
    // Before: the reads that settle "gone" took any `no_such_*` for this instance, so a refresh, or a
    // destroy answered about an offer and then read back the same way, let a running instance go.
    it("reads answered by a not-found about something else keep the running instance in state, on refresh and on destroy", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        await engine.up(() => new Instance("kept", { offerId: offer.id, image: "busybox" }));
        const id = engine.get("kept").id;
        const noSuchAsk = { kind: "status" as const, status: 404, body: { success: false, error: "invalid_args", msg: "error 404/3603: no_such_ask  Instance type by id 7 is not available." } };

        emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "status", status: 200, body: { instances: [] } } });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: noSuchAsk, times: 20 });
        await expect(engine.refresh()).rejects.toThrow(/show instance \d+ failed: HTTP 404 names something other than this instance/);
        expect(engine.get("kept").id).toBe(id);
        emu.faults.clear();

        emu.faults.add({ method: "DELETE", path: `/api/v0/instances/${id}/`, fault: noSuchAsk });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: noSuchAsk, times: 10_000 });
        await expect(engine.destroy()).rejects.toThrow(/not found, but reading it to make sure failed/);
        expect(engine.get("kept").id).toBe(id);
        expect(emu.liveInstances().map((i) => String(i.id))).toContain(id);
        emu.faults.clear();
        await engine.destroy();
        expect(engine.state.size).toBe(0);
    });

    // Before: only a `no_such_*` naming something else was read as about something else. A
    // `not_found` naming something else ("user not found") read as this instance gone: a destroy
    // whose own calls failed (the service never acted) then confirmed it gone by three such reads,
    // and a running instance left state; a refresh let it go the same way.
    it("reads answered by a not_found that names something else keep the running instance in state, on refresh and on destroy", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        await engine.up(() => new Instance("kept-user", { offerId: offer.id, image: "busybox" }));
        const id = engine.get("kept-user").id;
        const userNotFound = { kind: "status" as const, status: 404, body: { success: false, error: "not_found", msg: "user not found" } };

        emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "status", status: 200, body: { instances: [] } } });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: userNotFound, times: 20 });
        await expect(engine.refresh()).rejects.toThrow(/show instance \d+ failed: HTTP 404 does not say this instance is what is missing: user not found/);
        expect(engine.get("kept-user").id).toBe(id);
        emu.faults.clear();

        emu.faults.add({ method: "DELETE", path: `/api/v0/instances/${id}/`, fault: { kind: "status", status: 500 }, times: 20 });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${id}/`, fault: userNotFound, times: 20 });
        await expect(engine.destroy()).rejects.toThrow(/destroy instance \d+ failed: HTTP 500/);
        expect(engine.get("kept-user").id).toBe(id);
        expect(emu.liveInstances().map((i) => String(i.id))).toContain(id);
        emu.faults.clear();
        await engine.destroy();
        expect(engine.state.size).toBe(0);
    });
});

/**
 * Unpaced (`VASTAI_TIME_SCALE=0`, the emulator at speed), an instance create goes on a kept
 * connection (connections.ts). Should the service have closed that connection, the create fails
 * as a reset with its outcome unknown, and the lost-create look-up settles it like any lost answer.
 */
describe("Instance create on a kept connection, unpaced", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ emulator: { rateLimitScale: 0 }, host: { env: { VASTAI_TIME_SCALE: "0" } } });
    });
    afterAll(() => stack.stop());

    it.each([
        ["the create arrived, its answer lost", "lostResponse"],
        ["the connection reset before the create arrived", "reset"],
    ] as const)("%s: one instance, in state", async (_, kind) => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const name = `kept-${kind}`;
        // A first up opens the connection the create is then sent on.
        const warmOffer = emu.addOffer();
        const warm = () => new Instance(`${name}-warm`, { offerId: warmOffer.id, image: "busybox", waitForRunning: false });
        await engine.up(warm);
        const before = emu.requests.length;
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${offer.id}/`, fault: { kind }, times: 1 });
        await engine.up(() => [warm(), new Instance(name, { offerId: offer.id, image: "busybox", waitForRunning: false })]);

        const [create] = emu.requests.slice(before).filter((r) => r.method === "PUT" && r.path === `/api/v0/asks/${offer.id}/`);
        expect(emu.requests.slice(0, before).some((r) => r.connection === create.connection)).toBe(true);
        const live = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(live).toHaveLength(1);
        expect(engine.get(name).id).toBe(String(live[0].id));
        await engine.destroy();
        expect(emu.liveInstances()).toEqual([]);
    });
});
