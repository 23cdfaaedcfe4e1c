import { Instance } from "../../provider";
import { InstancePoller } from "../../provider/resources/instance/wait/sharedPoller";
import { LoggedRequest } from "../../testkit/emulator/server";
import { clientFor, eventually, startEmulator } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";

/** The ids a v1 list call filtered on. */
function polledIds(request: LoggedRequest): number[] {
    return (JSON.parse(request.query.select_filters).id?.in ?? []) as number[];
}

const listCalls = (requests: LoggedRequest[]) =>
    requests.filter((r) => r.method === "GET" && r.route === "instance-list" && r.status === 200 && polledIds(r).length > 0);

describe("instances waiting at once share their polls", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("ten instances waiting in one provider process: one list call per poll round, not one read per instance", async () => {
        const { engine, emu } = stack;
        // All ten stay loading until the test lets them run, so every round finds all ten waiting.
        const offers = Array.from({ length: 10 }, () => emu.addOffer({ status: "loading" }));
        emu.clearLog();
        const up = engine.up(() => offers.map((offer, i) => new Instance(`fleet-${i}`, { offerId: offer.id, image: "busybox" })));

        const ours = () => emu.liveInstances().filter((i) => offers.some((o) => o.id === i.offerId));
        const firstFull = await eventually(async () => listCalls(emu.requests).find((r) => polledIds(r).length === 10), 20_000);
        const fullFrom = emu.requests.indexOf(firstFull);
        // A few more rounds with all ten waiting.
        await eventually(async () => listCalls(emu.requests.slice(fullFrom)).length >= 4, 20_000);
        const whileAllWaiting = listCalls(emu.requests.slice(fullFrom));
        for (const instance of ours()) instance.script = { status: "running" };
        const summary = await up;
        expect(summary.create).toHaveLength(10);

        const ids = ours().map((i) => i.id).sort((a, b) => a - b);
        expect(ids).toHaveLength(10);
        // Every round while they all waited was one call carrying all ten.
        for (const call of whileAllWaiting) expect([...polledIds(call)].sort((a, b) => a - b)).toEqual(ids);
        // No instance was read on its own, and the list endpoint was never asked too often.
        expect(emu.requests.filter((r) => r.route === "instance-show")).toEqual([]);
        expect(emu.requests.filter((r) => r.route === "instance-list" && r.status === 429)).toEqual([]);

        for (const i of Array.from({ length: 10 }, (_, n) => n)) {
            expect(engine.get(`fleet-${i}`).outputs).toMatchObject({ actualStatus: "running" });
        }
        await engine.destroy();
        expect(ours()).toEqual([]);
    });
});

describe("InstancePoller", () => {
    it("pages more than 25 waiting instances: two list calls a round for thirty", async () => {
        const emu = await startEmulator({ instanceTimings: { loadingAfterMs: 10, runningAfterMs: 10 } });
        try {
            const vast = clientFor(emu);
            const ids: number[] = [];
            for (let i = 0; i < 30; i++) ids.push((await vast.instances.create(emu.addOffer({ status: "loading" }).id, { image: "busybox" })).instanceId);
            const lines: string[] = [];
            const poller = new InstancePoller(vast, { firstMs: 20, intervalMs: 40, reportEveryMs: 3_600_000 }, (l) => lines.push(l));
            emu.clearLog();

            const waits = ids.map((id) => poller.waitUntilRunning(id, { timeoutMs: 60_000, what: `instance ${id}` }));
            expect(poller.waiting).toBe(30);
            await eventually(async () => listCalls(emu.requests).length >= 6, 10_000);
            for (const id of ids) emu.model.instances.get(id)!.script = { status: "running" };
            const outcomes = await Promise.all(waits);

            expect(outcomes.every((o) => o.kind === "running")).toBe(true);
            expect(poller.waiting).toBe(0);
            const calls = listCalls(emu.requests);
            // Rounds alternate a page of 25 and a page of 5; no call asks for more than a page.
            expect(calls.map((c) => polledIds(c).length).slice(0, 6)).toEqual([25, 5, 25, 5, 25, 5]);
            expect(emu.requests.filter((r) => r.route === "instance-show")).toEqual([]);
            // Progress: one line per instance when first seen loading, not one per poll.
            expect(lines.filter((l) => l.startsWith(`instance ${ids[0]}:`))).toEqual([expect.stringMatching(/^instance \d+: loading \("Pulling image layers"\), \d+ s elapsed$/)]);
        } finally {
            await emu.stop();
        }
    });

    // Before: every round (due for any waiter) counted a gone look for each instance missing from the
    // list, so with others waiting beside it a new instance the list did not show yet was called gone
    // after three rounds in quick succession, not three of its own looks `firstMs` apart.
    it("calls an instance gone only after three of its own looks, each at least firstMs after the last, however often others are polled", async () => {
        const emu = await startEmulator({ instanceTimings: { loadingAfterMs: 10, runningAfterMs: 10 } });
        try {
            const vast = clientFor(emu);
            const firstMs = 300;
            const poller = new InstancePoller(vast, { firstMs, intervalMs: 20, reportEveryMs: 3_600_000 }, () => {});
            // Others that stay loading, polled every 20 ms once their first look is done.
            const others: number[] = [];
            for (let i = 0; i < 3; i++) others.push((await vast.instances.create(emu.addOffer({ status: "loading" }).id, { image: "busybox" })).instanceId);
            const otherWaits = others.map((id) => poller.waitUntilRunning(id, { timeoutMs: 60_000, what: `instance ${id}` }));
            otherWaits.forEach((w) => w.catch(() => undefined)); // awaited at the end; a failed expectation must not leave them unhandled
            await eventually(async () => listCalls(emu.requests).length >= 2, 10_000);

            // One the service does not show (yet): missing from the list, and its read answers gone.
            const { instanceId } = await vast.instances.create(emu.addOffer({ status: "loading" }).id, { image: "busybox" });
            emu.model.instances.get(instanceId)!.destroyed = true;
            const startedAt = Date.now();
            const outcome = await poller.waitUntilRunning(instanceId, { timeoutMs: 60_000, what: "hidden" });
            const settledAt = Date.now();

            expect(outcome.kind).toBe("gone");
            const shows = emu.requests.filter((r) => r.route === "instance-show" && r.path.includes(String(instanceId)));
            expect(shows).toHaveLength(3);
            // Lower bounds: its first look is due firstMs after the wait began, and each look again firstMs after the last.
            expect(settledAt - startedAt).toBeGreaterThanOrEqual(3 * firstMs);
            for (let i = 1; i < shows.length; i++) expect(shows[i].at - shows[i - 1].at).toBeGreaterThanOrEqual(firstMs);

            for (const id of others) emu.model.instances.get(id)!.script = { status: "running" };
            expect((await Promise.all(otherWaits)).map((o) => o.kind)).toEqual(["running", "running", "running"]);
        } finally {
            await emu.stop();
        }
    });

    // Before: one refusal of the key ended every wait of the round at once, so under load one
    // spoiled list answer failed every instance create waiting beside it.
    it("one refusal of the key is a failed round like any other: every wait of that round goes on", async () => {
        const emu = await startEmulator({ instanceTimings: { loadingAfterMs: 10, runningAfterMs: 10 } });
        try {
            const vast = clientFor(emu);
            const ids: number[] = [];
            for (let i = 0; i < 3; i++) ids.push((await vast.instances.create(emu.addOffer({ status: "loading" }).id, { image: "busybox" })).instanceId);
            const poller = new InstancePoller(vast, { firstMs: 20, intervalMs: 40, reportEveryMs: 3_600_000 }, () => {});
            emu.clearLog();
            emu.faults.add({ method: "GET", path: "/api/v1/instances/", fault: { kind: "authError404" } });

            const waits = ids.map((id) => poller.waitUntilRunning(id, { timeoutMs: 60_000, what: `instance ${id}` }));
            for (const id of ids) emu.model.instances.get(id)!.script = { status: "running" };

            expect((await Promise.allSettled(waits)).map((o) => (o.status === "fulfilled" ? o.value.kind : o.reason.message))).toEqual(["running", "running", "running"]);
            expect(emu.requests.filter((r) => r.path.startsWith("/api/v1/instances")).map((r) => r.status).slice(0, 2)).toEqual([404, 200]);
        } finally {
            await emu.stop();
        }
    });

    // Before: a failed round counted against every wait in it, due or not, so while new waits kept
    // coming (each with its first look soon after its create) a wait gave up after a few quick
    // rounds, not after three of its own intervals.
    it("a failed round counts only against the waits it was due for: new waits coming meanwhile do not use up another's tries", async () => {
        const emu = await startEmulator({ instanceTimings: { loadingAfterMs: 10, runningAfterMs: 10 } });
        try {
            const vast = clientFor(emu, { retry: { maxAttempts: 1 } });
            const poller = new InstancePoller(vast, { firstMs: 20, intervalMs: 2000, reportEveryMs: 3_600_000 }, () => {});
            const create = async () => (await vast.instances.create(emu.addOffer({ status: "loading" }).id, { image: "busybox" })).instanceId;
            const ids = [await create()];
            for (let i = 0; i < 4; i++) ids.push(await create());
            emu.faults.add({ method: "GET", path: "/api/v1/instances/", times: 1000, fault: { kind: "status", status: 500 } });
            const failedLists = () => emu.requests.filter((r) => r.path.startsWith("/api/v1/instances") && r.status === 500).length;

            const waits: Promise<unknown>[] = [];
            // Awaited at the end; one that fails meanwhile must not be left unhandled.
            const wait = (id: number) => waits.push(poller.waitUntilRunning(id, { timeoutMs: 60_000, what: `instance ${id}` }).catch((e: Error) => e.message));
            wait(ids[0]);
            await eventually(async () => failedLists() >= 1, 10_000);
            // Four more waits, each first looked at soon after it came: four more failed rounds.
            for (const id of ids.slice(1)) {
                const before = failedLists();
                wait(id);
                await eventually(async () => failedLists() > before, 10_000);
            }
            expect(failedLists()).toBeGreaterThanOrEqual(5);
            emu.faults.clear();
            for (const id of ids) emu.model.instances.get(id)!.script = { status: "running" };

            const outcomes = await Promise.all(waits);
            expect(outcomes.map((o) => (typeof o === "string" ? o : (o as { kind: string }).kind))).toEqual(["running", "running", "running", "running", "running"]);
        } finally {
            await emu.stop();
        }
    });

    it("two waits on one instance both settle, from one poll each round", async () => {
        const emu = await startEmulator({ instanceTimings: { loadingAfterMs: 10, runningAfterMs: 10 } });
        try {
            const vast = clientFor(emu);
            const { instanceId } = await vast.instances.create(emu.addOffer({ status: "loading" }).id, { image: "busybox" });
            const poller = new InstancePoller(vast, { firstMs: 20, intervalMs: 40, reportEveryMs: 3_600_000 }, () => {});
            emu.clearLog();

            const first = poller.waitUntilRunning(instanceId, { timeoutMs: 60_000, what: "first" });
            const second = poller.waitUntilRunning(instanceId, { timeoutMs: 60_000, what: "second" });
            expect(poller.waiting).toBe(1);
            await eventually(async () => listCalls(emu.requests).length >= 2, 10_000);
            emu.model.instances.get(instanceId)!.script = { status: "running" };

            expect((await first).kind).toBe("running");
            expect((await second).kind).toBe("running");
            expect(listCalls(emu.requests).every((c) => polledIds(c).length === 1)).toBe(true);
        } finally {
            await emu.stop();
        }
    });
});
