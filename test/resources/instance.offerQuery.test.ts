import { Instance } from "../../provider";
import { MAX_TAKEN_OFFERS } from "../../provider/resources/instance/create/attempts";
import { Fault } from "../../testkit/emulator/faults";
import { clientFor } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

const asks = /^\/api\/v0\/asks\/\d+\/?$/;

/**
 * Renting by need through Pulumi's host: an Instance with an `offer` search instead of an
 * `offerId`. Each test lists offers of a GPU model of its own on machines of its own, so the
 * emulator's other offers never match.
 */
describe("Instance rented by offer search", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());
    afterEach(async () => {
        stack.emu.faults.clear();
        await stack.engine.destroy();
    });

    /** A machine of its own for each offer, with the GPU model `gpu`, at these prices ($/hour). */
    function market(gpu: string, offers: Array<{ price: number; status?: "running" | "exited" }>) {
        return offers.map(({ price, status }) => {
            const machine = stack.emu.model.addMachine(stack.emu.otherUser.id, { gpu_name: gpu });
            return stack.emu.addOffer({ status: status ?? "running" }, price, machine.id, { gpu_name: gpu, verified: true, rentable: true, external: false });
        });
    }
    const byPrice = (gpu: string, extra: Record<string, unknown> = {}) => ({
        filters: { gpu_name: { eq: gpu } },
        order: [["dph_total", "asc"]] as Array<["dph_total", "asc"]>,
        ...extra,
    });

    it("rents the cheapest match and records what it rented", async () => {
        const { emu, engine } = stack;
        const [, cheap] = market("QT-CHEAPEST", [{ price: 0.9 }, { price: 0.3 }, { price: 0.6 }]);
        await engine.up(() => new Instance("cheapest", { offer: byPrice("QT-CHEAPEST"), image: "busybox" }));
        const [instance] = emu.liveInstances().filter((i) => i.offerId === cheap.id);
        expect(instance).toBeDefined();
        expect(engine.get("cheapest").outputs).toMatchObject({ rentedOfferId: cheap.id, machineId: cheap.machineId, gpuName: "QT-CHEAPEST", numGpus: 1, actualStatus: "running" });
        // The search chooses at create: an edit of it changes nothing on the running instance.
        const edited = await engine.up(() => new Instance("cheapest", { offer: byPrice("QT-CHEAPEST", { maxPricePerHour: 0.5 }), image: "busybox" }));
        expect(edited.replace).toEqual([]);
        expect(engine.get("cheapest").id).toBe(String(instance.id));
    });

    it("a taken offer, a refused rental and an instance that exits each move on to another machine", async () => {
        const { emu, engine } = stack;
        const [taken, refused, exits, good] = market("QT-FALLBACK", [{ price: 0.1 }, { price: 0.2 }, { price: 0.3, status: "exited" }, { price: 0.4 }]);
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${taken.id}/`, fault: { kind: "status", status: 410, body: { success: false, error: "no_such_ask", msg: "offer taken" } } });
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${refused.id}/`, fault: { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: "machine refused the rental" } } });
        await engine.up(() => new Instance("fallback", { offer: byPrice("QT-FALLBACK"), image: "busybox", maxCreateAttempts: 4 }));
        const live = emu.liveInstances().filter((i) => [taken, refused, exits, good].some((o) => o.id === i.offerId));
        expect(live.map((i) => i.offerId)).toEqual([good.id]);
        // The taken and the refused offer made no instance; the one that exited was destroyed.
        const made = [...emu.model.instances.values()].filter((i) => [taken, refused, exits, good].some((o) => o.id === i.offerId));
        expect(made.map((i) => i.offerId)).toEqual([exits.id, good.id]);
        expect(new Set([taken, refused, exits, good].map((o) => o.machineId)).size).toBe(4);
        expect([...emu.model.instances.values()].filter((i) => i.offerId === exits.id).every((i) => i.destroyed)).toBe(true);
        expect(engine.get("fallback").outputs).toMatchObject({ rentedOfferId: good.id, machineId: good.machineId });
        expect(stack.host.output.join("\n")).toMatch(new RegExp(`offer ${taken.id} was taken since the search; trying the next match`));
        expect(stack.host.output.join("\n")).toMatch(new RegExp(`offer ${refused.id} could not be rented`));
    });

    // Before: the lookup after the refused re-send ran to its deadline, and the create failed
    // undecided, leaving a journal entry that warned at every later command of an instance that
    // never existed.
    it("a lost rent whose re-send finds the offer taken by another create's instance is settled as not made, and the next match rented", async () => {
        const { emu, engine } = stack;
        const [contested, next] = market("QT-SETTLED", [{ price: 0.1 }, { price: 0.2 }]);
        const contestedPath = `/api/v0/asks/${contested.id}/`;
        // The first rent's response is a 500 that made nothing; its first look is slow enough for another create to take the offer.
        emu.faults.add({ method: "PUT", path: contestedPath, fault: { kind: "status", status: 500 } });
        emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "slow", delayMs: 300 } });
        const up = engine.up(() => new Instance("settled", { offer: byPrice("QT-SETTLED"), image: "busybox" }));
        while (emu.requestsTo("PUT", contestedPath).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        const other = await clientFor(emu).instances.create(contested.id, { image: "busybox", env: { PULUMI_VASTAI_PLACEMENT: `${contested.id}-0another0create` } });
        await up;

        expect(engine.get("settled").outputs).toMatchObject({ rentedOfferId: next.id });
        expect(emu.liveInstances().filter((i) => i.offerId === contested.id).map((i) => i.id)).toEqual([other.instanceId]);
        expect(stack.host.output.join("\n")).toContain(`offer ${contested.id} is held by instance ${other.instanceId}, another create's: this create made none there`);
        // Nothing left to warn of: the next command names no interrupted create.
        const quiet = await engine.up(() => new Instance("settled", { offer: byPrice("QT-SETTLED"), image: "busybox" }));
        expect(quiet.replace).toEqual([]);
        expect(stack.host.output.join("\n")).not.toMatch(/interrupted|cut short|could not settle/);
        await clientFor(emu).instances.destroy(other.instanceId);
    });

    // Before: every later `up` took the exited instance for a job that ended on its own, warned
    // "has ended" and left it there, its disk billed.
    it("a fallback cut short by a refused destroy is finished by the next up: destroyed, and the next machine rented, not the failed one", async () => {
        const { emu, engine } = stack;
        const [exits, good] = market("QT-UNFINISHED", [{ price: 0.1, status: "exited" }, { price: 0.2 }]);
        const program = () => new Instance("unfinished", { offer: byPrice("QT-UNFINISHED"), image: "busybox" });
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/instances\/\d+\/?$/, fault: { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: "destroy refused" } } });
        await expect(engine.up(program)).rejects.toThrow(/would not run .*destroying it before the next attempt failed.*the next `pulumi up` finishes the create/s);
        const [exited] = emu.liveInstances().filter((i) => i.offerId === exits.id);
        expect(engine.get("unfinished")).toMatchObject({ id: String(exited.id), outputs: { actualStatus: "exited", unfinishedCreate: { failedMachineIds: [exits.machineId] } } });

        // The next `up` in a process of its own; the failed machine now lists the cheapest offer, which is not rented.
        const sameMachine = emu.addOffer({ status: "running" }, 0.05, exits.machineId, { gpu_name: "QT-UNFINISHED", verified: true, rentable: true, external: false });
        await stack.freshHost();
        const finished = await engine.up(program);
        expect(finished.replace).toEqual([{ name: "unfinished", because: ["unfinishedCreate"] }]);
        expect(emu.model.instances.get(exited.id)!.destroyed).toBe(true);
        const live = emu.liveInstances().filter((i) => [exits.id, good.id, sameMachine.id].includes(i.offerId));
        expect(live.map((i) => i.offerId)).toEqual([good.id]);
        expect(engine.get("unfinished").outputs).toMatchObject({ rentedOfferId: good.id, actualStatus: "running" });
        expect(engine.get("unfinished").outputs).not.toHaveProperty("unfinishedCreate");
        expect(stack.host.output.join("\n")).toMatch(new RegExp(`instance ${exited.id} never reached running \\(exited\\) before its create was cut short`));
        expect(stack.host.output.join("\n")).not.toMatch(new RegExp(`instance ${exited.id} has ended`));
    });

    // Found by a review: the mark outlived the instance running, so a job that ended on its own
    // later was taken for a create to finish, destroyed and rented again.
    it("an unfinished create whose instance runs since loses its mark: when it ends on its own later, it is not replaced", async () => {
        const { emu, engine } = stack;
        const [exits] = market("QT-RAN-SINCE", [{ price: 0.1, status: "exited" }, { price: 0.2 }]);
        const program = () => new Instance("ran-since", { offer: byPrice("QT-RAN-SINCE"), image: "busybox" });
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/instances\/\d+\/?$/, fault: { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: "destroy refused" } } });
        await expect(engine.up(program)).rejects.toThrow(/the next `pulumi up` finishes the create/);
        const [instance] = emu.liveInstances().filter((i) => i.offerId === exits.id);
        expect(engine.get("ran-since").outputs).toHaveProperty("unfinishedCreate");

        // Its machine came back: it runs. The next up keeps it, and the mark goes.
        instance.script = { status: "running" };
        await stack.freshHost();
        const kept = await engine.up(program);
        expect(kept.replace).toEqual([]);
        expect(engine.get("ran-since").outputs).not.toHaveProperty("unfinishedCreate");

        // Later its job ends on its own: warned of, not destroyed and rented again.
        instance.script = { status: "exited" };
        await stack.freshHost();
        const ended = await engine.up(program);
        expect(ended.replace).toEqual([]);
        expect(emu.model.instances.get(instance.id)!.destroyed).toBe(false);
        expect(engine.get("ran-since").id).toBe(String(instance.id));
    });

    // Before: the fallback went on through the list of the search made before the wait, and
    // failed once ten offers it chose had been taken since, though the market had others.
    it("a fallback after a wait searches again: offers taken during the wait are not tried, a new one is rented", async () => {
        const { emu, engine } = stack;
        const [exits, ...soonTaken] = market("QT-STALE", [{ price: 0.1, status: "exited" }, ...Array.from({ length: MAX_TAKEN_OFFERS }, (_, i) => ({ price: 0.11 + i / 100 }))]);
        // The first attempt's destroy is slow enough for the market to move meanwhile.
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/instances\/\d+\/?$/, fault: { kind: "slow", delayMs: 300 } });
        const up = engine.up(() => new Instance("stale", { offer: byPrice("QT-STALE"), image: "busybox" }));
        while (emu.requestsTo("DELETE", /^\/api\/v0\/instances\/\d+\/?$/).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        for (const offer of soonTaken) offer.freeAt = Infinity;
        const [fresh] = market("QT-STALE", [{ price: 0.5 }]);
        await up;

        expect(engine.get("stale").outputs).toMatchObject({ rentedOfferId: fresh.id });
        expect(soonTaken.flatMap((o) => emu.requestsTo("PUT", `/api/v0/asks/${o.id}/`))).toEqual([]);
        expect(emu.requestsTo("PUT", `/api/v0/asks/${exits.id}/`)).toHaveLength(1);
        for (const offer of soonTaken) offer.freeAt = 0;
    });

    // Found by a review: any instance with another token on the offer settled the lost rent, even
    // one listed from before the send (say, the one a replacement just destroyed, listed a while yet).
    it("an instance on the offer from before the lost send settles nothing: the look goes on to its deadline", async () => {
        const { emu, engine } = stack;
        const [held] = market("QT-HELD-BEFORE", [{ price: 0.1 }]);
        const before = await clientFor(emu).instances.create(held.id, { image: "busybox", env: { PULUMI_VASTAI_PLACEMENT: `${held.id}-0older0create0` } });
        emu.model.instances.get(before.instanceId)!.createdAt -= 60_000; // made a minute before the send
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${held.id}/`, fault: { kind: "status", status: 500 } });
        const error = await engine.up(() => new Instance("held-before", { offerId: held.id, image: "busybox", readyTimeoutSeconds: 1 })).catch((e) => e);
        expect(codeIn(error)).toBe("lost_create_undecided");
        expect(error.message).toMatch(/could not settle it before the deadline/);
        expect(stack.host.output.join("\n")).not.toContain(`is held by instance ${before.instanceId}`);
        expect(emu.liveInstances().filter((i) => i.offerId === held.id).map((i) => i.id)).toEqual([before.instanceId]);
        await clientFor(emu).instances.destroy(before.instanceId);
    });

    // Before: each taken offer counted as one of maxCreateAttempts, so stacks renting by the same
    // search at once, the best matches taken by each other, failed after three taken offers.
    it("taken offers are not attempts: the next match is tried past maxCreateAttempts, up to 10 taken in one create", async () => {
        const { emu, engine } = stack;
        const takenAnswer: Fault = { kind: "status", status: 410, body: { success: false, error: "no_such_ask", msg: "offer taken" } };
        const offers = market("QT-CONTENDED", [0.1, 0.2, 0.3, 0.4, 0.5].map((price) => ({ price })));
        for (const taken of offers.slice(0, 4)) emu.faults.add({ method: "PUT", path: `/api/v0/asks/${taken.id}/`, fault: takenAnswer });
        await engine.up(() => new Instance("contended", { offer: byPrice("QT-CONTENDED"), image: "busybox", maxCreateAttempts: 1 }));
        expect(engine.get("contended").outputs).toMatchObject({ rentedOfferId: offers[4].id });
        await engine.destroy();

        // The bound: 10 taken in a row fail the create, naming them, with nothing rented.
        const many = market("QT-CROWDED", Array.from({ length: 12 }, (_, i) => ({ price: 0.1 + i / 100 })));
        for (const taken of many) emu.faults.add({ method: "PUT", path: `/api/v0/asks/${taken.id}/`, fault: takenAnswer });
        emu.clearLog();
        const error = await engine.up(() => new Instance("crowded", { offer: byPrice("QT-CROWDED"), image: "busybox" })).catch((e) => e);
        expect(error.message).toContain(`${MAX_TAKEN_OFFERS} offers it chose were taken since the search, and nothing was rented`);
        expect(emu.requestsTo("PUT", asks)).toHaveLength(MAX_TAKEN_OFFERS);
        expect(engine.state.size).toBe(0);
        expect(emu.liveInstances().filter((i) => many.some((o) => o.id === i.offerId))).toEqual([]);

        // An offer refused for another reason, which may refuse every offer (no credit), is still an attempt.
        const broke = market("QT-BROKE", [0.1, 0.2, 0.3].map((price) => ({ price })));
        for (const o of broke) emu.faults.add({ method: "PUT", path: `/api/v0/asks/${o.id}/`, fault: { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: "Your account lacks credit" } } });
        emu.clearLog();
        const refused = await engine.up(() => new Instance("broke", { offer: byPrice("QT-BROKE"), image: "busybox", maxCreateAttempts: 1 })).catch((e) => e);
        expect(refused.message).toContain("lacks credit");
        expect(emu.requestsTo("PUT", asks)).toHaveLength(1);
        emu.faults.clear();
    });

    it("a machine whose instance failed is not tried again, and the bound leaves nothing rented", async () => {
        const { emu, engine } = stack;
        const [onA, onB] = market("QT-BOUND", [{ price: 0.05, status: "exited" }, { price: 0.2, status: "exited" }, { price: 0.3 }]);
        // A second offer on the first machine, cheaper than the rest: once that machine failed, it is skipped.
        const againOnA = emu.addOffer({ status: "running" }, 0.1, onA.machineId, { gpu_name: "QT-BOUND", verified: true, rentable: true, external: false });
        const error = await engine.up(() => new Instance("bounded", { offer: byPrice("QT-BOUND"), image: "busybox", maxCreateAttempts: 2 })).catch((e) => e);
        expect(codeIn(error)).toBe("create_attempts_exhausted");
        expect(error.message).toMatch(/no instance reached running in 2 attempts, and none was left behind/);
        const made = [...emu.model.instances.values()].filter((i) => [onA, onB, againOnA].some((o) => o.id === i.offerId));
        expect(made.map((i) => i.offerId)).toEqual([onA.id, onB.id]);
        expect(made.every((i) => i.destroyed)).toBe(true);
        expect(engine.state.size).toBe(0);
    });

    // Before: a create request the client would not send (the template's env with the program's
    // over the service's limit, unseen by check while the template could not be read) was taken
    // for the offer refusing the rental, and the next matches were tried with the same request.
    it("a request refused before sending fails once, naming why: no offer is taken for refusing it", async () => {
        const { emu, engine } = stack;
        const big = Array.from({ length: 140 }, (_, i) => `-e K${i}=${"v".repeat(230)}`).join(" ");
        const template = emu.model.addTemplate(emu.demoUser.id, { name: "bigenv", image: "busybox", env: big, docker_login_repo: "", docker_login_user: "", docker_login_pass: "" });
        market("QT-NOTSENT", [{ price: 0.1 }, { price: 0.2 }, { price: 0.3 }]);
        const env = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`P${i}`, "p".repeat(250)]));
        // The template cannot be read while check runs, so check cannot add its env to the program's.
        emu.faults.add({ method: "GET", path: "/api/v0/template/", times: 4, fault: { kind: "status", status: 503 } });
        emu.clearLog();
        const error = await engine.up(() => new Instance("not-sent", { offer: byPrice("QT-NOTSENT"), templateHashId: template.hash_id, env })).catch((e) => e);
        expect(error.message).toMatch(/invalid request \(not sent\): env/);
        expect(error.message).not.toMatch(/attempt 2|could not be rented/);
        expect(emu.requestsTo("PUT", asks)).toEqual([]);
        expect(engine.state.size).toBe(0);
    });

    // Before: the message said only "was created, then: destroy ... failed", and state lacked the
    // status the instance ended with.
    it("an attempt's instance that will not run and cannot be destroyed stays in state with its status, the error saying what happened and what to do", async () => {
        const { emu, engine } = stack;
        const [exits, runs] = market("QT-NODESTROY", [{ price: 0.1, status: "exited" }, { price: 0.2 }]);
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/instances\/\d+\/?$/, times: 20, fault: { kind: "notFoundPage", shape: "detail" } });
        const error = await engine.up(() => new Instance("no-destroy", { offer: byPrice("QT-NODESTROY"), image: "busybox" })).catch((e) => e);
        emu.faults.clear();
        expect(error.message).toMatch(/was created, then it would not run \(.*exited.*\), and destroying it before the next attempt failed: .*It is kept in state: the next `pulumi up` finishes the create \(destroys it and rents on another machine\), `pulumi destroy` removes it/s);
        const [made] = [...emu.model.instances.values()].filter((i) => i.offerId === exits.id);
        expect(engine.get("no-destroy")).toMatchObject({ id: String(made.id), outputs: { actualStatus: "exited" } });
        expect([...emu.model.instances.values()].filter((i) => i.offerId === runs.id)).toEqual([]);
    });

    it("nothing is rented above maxPricePerHour: the error names the cheapest matching price", async () => {
        const { emu, engine } = stack;
        market("QT-PRICEY", [{ price: 2.5 }, { price: 1.75 }]);
        emu.clearLog();
        const error = await engine.up(() => new Instance("pricey", { offer: byPrice("QT-PRICEY", { maxPricePerHour: 1 }), image: "busybox" })).catch((e) => e);
        expect(codeIn(error)).toBe("price_above_ceiling");
        expect(error.message).toMatch(/at or below maxPricePerHour \$1\/hour; the cheapest match is \$1\.75\/hour\. Nothing was rented/);
        expect(emu.requestsTo("PUT", asks)).toEqual([]);
    });

    it("a search nothing on the market matches fails saying so and what to try, nothing rented", async () => {
        const { emu, engine } = stack;
        emu.clearLog();
        const error = await engine.up(() => new Instance("no-match", { offer: byPrice("QT-NO-SUCH-GPU"), image: "busybox" })).catch((e) => e);
        // Before: "no offer matching the search is left to try", as though some had been tried.
        expect(codeIn(error)).toBe("no_offer_matches");
        expect(error.message).toContain("create instance failed: no offer on the market matches the search, and nothing was rented.");
        expect(error.message).toContain("Widen its filters (the vendor CLI's defaults apply too: verified, rentable, not rented, not external; `defaults: false` drops them), or see what it finds with searchOffers");
        expect(error.message).not.toContain("left to try");
        expect(emu.requestsTo("PUT", asks)).toEqual([]);
        expect(engine.state.size).toBe(0);

        // Without the defaults, the message does not say they apply.
        const bare = await engine.up(() => new Instance("no-match", { offer: byPrice("QT-NO-SUCH-GPU", { defaults: false }), image: "busybox" })).catch((e) => e);
        expect(bare.message).toContain("Widen its filters, or see what it finds with searchOffers");
        expect(engine.state.size).toBe(0);
    });

    it("maxPricePerHour goes in the search: a cheap match below dearer ones ranked first is found, however small the limit", async () => {
        const { emu, engine } = stack;
        const machine = (gpu: string) => stack.emu.model.addMachine(stack.emu.otherUser.id, { gpu_name: gpu }).id;
        const extra = { gpu_name: "QT-CEILING", verified: true, rentable: true, external: false };
        // The service's ranking (score) puts the fast, dear offer first.
        emu.addOffer({ status: "running" }, 3.0, machine("QT-CEILING"), { ...extra, dlperf: 100000 });
        const cheap = emu.addOffer({ status: "running" }, 0.3, machine("QT-CEILING"), { ...extra, dlperf: 10 });
        emu.clearLog();
        await engine.up(() => new Instance("ceiling", { offer: { filters: { gpu_name: { eq: "QT-CEILING" } }, limit: 1, maxPricePerHour: 1 }, image: "busybox" }));
        expect(engine.get("ceiling").outputs).toMatchObject({ rentedOfferId: cheap.id });
        const [search] = emu.requestsTo("GET", "/api/v0/bundles/");
        expect(JSON.parse(search.query.q)).toMatchObject({ gpu_name: { eq: "QT-CEILING" }, dph_total: { lte: 1 }, limit: 1 });
    });

    // The emulator rented an offer kept off the market (rentable: false) until a review; the live
    // service answers it no_such_ask. A search without the CLI's defaults can find one.
    it("defaults: false finds an offer kept off the market too; its refusal moves on to the next match", async () => {
        const { emu, engine } = stack;
        const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: "QT-OFFMARKET" });
        const off = emu.addOffer({ status: "running" }, 0.1, machine.id, { gpu_name: "QT-OFFMARKET", verified: true, rentable: false, external: false });
        const [good] = market("QT-OFFMARKET", [{ price: 0.2 }]);
        await engine.up(() => new Instance("offmarket", { offer: byPrice("QT-OFFMARKET", { defaults: false }), image: "busybox" }));
        expect(engine.get("offmarket").outputs).toMatchObject({ rentedOfferId: good.id });
        expect([...emu.model.instances.values()].filter((i) => i.offerId === off.id)).toEqual([]);
    });

    it("a taken offer does not rule out its machine: the next offer there is tried", async () => {
        const { emu, engine } = stack;
        const [taken] = market("QT-TAKEN", [{ price: 0.1 }, { price: 0.9 }]);
        const sameMachine = emu.addOffer({ status: "running" }, 0.2, taken.machineId, { gpu_name: "QT-TAKEN", verified: true, rentable: true, external: false });
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${taken.id}/`, fault: { kind: "status", status: 410, body: { detail: "gone" } } });
        await engine.up(() => new Instance("taken", { offer: byPrice("QT-TAKEN"), image: "busybox" }));
        expect(engine.get("taken").outputs).toMatchObject({ rentedOfferId: sameMachine.id, machineId: taken.machineId });
    });

    // Before: it replaced, destroying the running instance and its disk to rent the same offer again.
    it("pinning by offerId the offer the search rented keeps the instance; pinning another offer replaces", async () => {
        const { emu, engine } = stack;
        const [, other] = market("QT-PIN", [{ price: 0.1 }, { price: 0.2 }]);
        await engine.up(() => new Instance("pin", { offer: byPrice("QT-PIN"), image: "busybox" }));
        const { id, outputs } = engine.get("pin");
        const rented = outputs.rentedOfferId as number;
        const pinned = await engine.up(() => new Instance("pin", { offerId: rented, image: "busybox" }));
        expect(pinned).toMatchObject({ replace: [], update: ["pin"] });
        expect(engine.get("pin")).toMatchObject({ id, outputs: { offerId: rented, rentedOfferId: rented } });
        expect(emu.liveInstances().filter((i) => i.offerId === rented).map((i) => String(i.id))).toEqual([id]);
        expect((await engine.up(() => new Instance("pin", { offerId: rented, image: "busybox" }))).same).toEqual(["pin"]);

        // Back to the search (the pin reverted): the search chooses only at create, so nothing is rented.
        const unpinned = await engine.up(() => new Instance("pin", { offer: byPrice("QT-PIN"), image: "busybox" }));
        expect(unpinned.replace).toEqual([]);
        expect(engine.get("pin").id).toBe(id);

        const moved = await engine.up(() => new Instance("pin", { offerId: other.id, image: "busybox" }));
        expect(moved.replace).toEqual([{ name: "pin", because: ["offerId"] }]);
    });

    // Before: check could not see the pin (its olds are inputs), so the guard against a too-high bid
    // on the same offer never fired; diff replaced delete-first, destroying the instance and its disk.
    it("pinning the rented offer with a bid above what changes in place is refused, the instance kept", async () => {
        const { emu, engine } = stack;
        const [offer] = market("QT-PINBID", [{ price: 0.1 }]);
        await engine.up(() => new Instance("pin-bid", { offer: { ...byPrice("QT-PINBID"), type: "bid" }, price: 10, image: "busybox" }));
        const { id } = engine.get("pin-bid");
        await expect(engine.up(() => new Instance("pin-bid", { offerId: offer.id, price: 40, image: "busybox" }))).rejects.toThrow(
            /price: a bid is changed in place only up to \$32\/hour/,
        );
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id).map((i) => String(i.id))).toEqual([id]);
    });

    it("check: a bid goes with a bid search, and never above the ceiling", async () => {
        const { engine } = stack;
        const noBid = await engine.up(() => new Instance("no-bid", { offer: byPrice("X", { type: "bid" }), image: "busybox" })).catch((e) => e);
        expect(noBid.message).toMatch(/price: a search for interruptible offers .* needs the bid/);
        const onDemand = await engine.up(() => new Instance("on-demand", { offer: byPrice("X"), price: 0.2, image: "busybox" })).catch((e) => e);
        expect(onDemand.message).toMatch(/price: a bid goes with a search for interruptible offers/);
        const above = await engine.up(() => new Instance("above", { offer: byPrice("X", { type: "bid", maxPricePerHour: 0.1 }), price: 0.2, image: "busybox" })).catch((e) => e);
        expect(above.message).toMatch(/price: the bid \$0.2\/hour is above offer.maxPricePerHour \$0.1\/hour/);
    });

    it("check: a misspelt offer field in offer.filters suggests the near one, as a misspelt property does", async () => {
        const { engine } = stack;
        const error = await engine.up(() => new Instance("typo", { offer: { filters: { gpu_nam: { eq: "RTX 4090" } } } as never, image: "busybox" })).catch((e) => e);
        expect(error.message).toContain('offer.filters.gpu_nam: unknown property "gpu_nam"; did you mean "gpu_name"?');
        expect(engine.state.size).toBe(0);
    });

    it("check: a misspelt operator in offer.filters names the operators there are", async () => {
        const { engine } = stack;
        const error = await engine.up(() => new Instance("op-typo", { offer: { filters: { gpu_ram: { ge: 24000 } } } as never, image: "busybox" })).catch((e) => e);
        expect(error.message).toContain('offer.filters.gpu_ram.ge: "ge" is not a search operator: expected one of eq, neq, lt, lte, gt, gte, in, notin');
        expect(engine.state.size).toBe(0);
        // Told at once beside a bad value in the same condition, not after it is mended.
        const both = await engine.up(() => new Instance("op-typo", { offer: { filters: { gpu_ram: { gte: "24GB", ge: 1 } } } as never, image: "busybox" })).catch((e) => e);
        expect(both.message).toContain("offer.filters.gpu_ram.gte: Invalid input: expected number");
        expect(both.message).toContain('offer.filters.gpu_ram.ge: "ge" is not a search operator');
    });

    it("check: exactly one of offerId and offer", async () => {
        const { engine } = stack;
        const both = await engine.up(() => new Instance("both", { offerId: 1, offer: byPrice("X"), image: "busybox" })).catch((e) => e);
        expect(both.message).toMatch(/offerId: give exactly one of offerId .* and offer/);
        const neither = await engine.up(() => new Instance("neither", { image: "busybox" })).catch((e) => e);
        expect(neither.message).toMatch(/offerId: give exactly one of offerId .* and offer/);
    });
});
