import { Pacer } from "../../provider/client/pacer";

describe("Pacer", () => {
    it("lets calls in one bucket leave in order, each at least the interval after the last", async () => {
        const pacer = new Pacer();
        const left: Array<{ i: number; at: number }> = [];
        await Promise.all(Array.from({ length: 5 }, (_, i) => pacer.wait("bucket", 20).then(() => left.push({ i, at: Date.now() }))));
        expect(left.map((l) => l.i)).toEqual([0, 1, 2, 3, 4]);
        // A lower bound only: the pacer guarantees it whatever the machine's load.
        for (let k = 1; k < left.length; k++) expect(left[k].at - left[k - 1].at).toBeGreaterThanOrEqual(20);
    });

    // Before: a call already asleep at the old spacing when a 429 widened the bucket left at that
    // spacing, was turned away, and widened the bucket once more.
    it("a call asleep when a 429 widens the bucket waits out the wider interval before it leaves", async () => {
        let clock = 0;
        const sleeping: Array<() => void> = [];
        const pacer = new Pacer(
            () => clock,
            (ms) => new Promise<void>((resolve) => sleeping.push(() => ((clock += ms), resolve()))),
        );
        const flush = () => new Promise((resolve) => setImmediate(resolve));
        const a = await pacer.wait("bucket", 1000);
        const b = pacer.wait("bucket", 1000);
        await flush();
        expect(sleeping).toHaveLength(1);
        pacer.penalize("bucket", { leftAt: a, intervalMs: 1000, floorMs: 1000, maxMs: 4000 });
        sleeping.shift()!();
        await flush();
        // Woken at the old spacing, it sleeps again, to the new one.
        expect(sleeping).toHaveLength(1);
        sleeping.shift()!();
        expect((await b) - a).toBeGreaterThanOrEqual(1500);
        expect(pacer.intervalOf("bucket", 1000)).toBe(1500);
    });

    it("keeps buckets apart: a call in another bucket does not wait, the next in the same bucket does", async () => {
        let clock = 0;
        const slept: number[] = [];
        const pacer = new Pacer(
            () => clock,
            async (ms) => {
                slept.push(ms);
                clock += ms;
            },
        );
        await pacer.wait("a", 1000);
        await pacer.wait("b", 1000);
        expect(slept).toEqual([]);
        await pacer.wait("a", 1000);
        // the interval, plus the small guard band for arrival jitter
        expect(slept).toEqual([1000 * 1.02 + 5]);
    });

    /** A pacer on a clock the test moves, and a 429 for a call that left at `leftAt` (default: now). */
    function buckets() {
        let clock = 0;
        const pacer = new Pacer(() => clock);
        const turnedAway = (bucket: string, p: { maxMs?: number; thresholdMs?: number; leftAt?: number } = {}) => {
            clock += 1;
            pacer.penalize(bucket, { leftAt: p.leftAt ?? clock, intervalMs: 0, floorMs: 10, maxMs: p.maxMs ?? 100, thresholdMs: p.thresholdMs });
            return clock;
        };
        return { pacer, turnedAway };
    }

    /** A pacer on a clock that its own sleeps move, with every sleep recorded. */
    function timedPacer() {
        const clock = { now: 0 };
        const slept: number[] = [];
        const pacer = new Pacer(
            () => clock.now,
            async (ms) => {
                slept.push(ms);
                clock.now += ms;
            },
        );
        return { pacer, clock, slept };
    }

    it("after a 429 for a lone call (someone else took the turn) the next call leaves a full interval after it left, not after its answer came", async () => {
        const { pacer, clock, slept } = timedPacer();
        const leftAt = await pacer.wait("bucket", 0);
        clock.now += 80; // the round trip of the 429
        pacer.penalize("bucket", { leftAt, intervalMs: 0, floorMs: 10, maxMs: 1000, thresholdMs: 500 });
        await pacer.wait("bucket", 0);
        expect(slept).toEqual([500 * 1.02 + 5 - 80]);
    });

    it("a call turned away for an earlier call of the bucket costs no turn: the next leaves the interval after the last call let through", async () => {
        const { pacer, clock, slept } = timedPacer();
        // An unpaced burst: the first is let through, the next two are turned away (the service's rejections cost no token).
        const first = await pacer.wait("bucket", 0);
        clock.now += 30;
        const second = await pacer.wait("bucket", 0);
        const third = await pacer.wait("bucket", 0);
        clock.now += 80;
        for (const leftAt of [second, third]) pacer.penalize("bucket", { leftAt, intervalMs: 0, floorMs: 10, maxMs: 1000, thresholdMs: 500 });
        await pacer.wait("bucket", 0);
        expect(slept).toHaveLength(1);
        expect(clock.now).toBeCloseTo(first + 500 * 1.02 + 5);
    });

    it("a bucket turned away though its calls kept the interval the 429 names doubles its guard and counts rejected calls from then on", async () => {
        const { pacer, clock, slept } = timedPacer();
        await pacer.wait("bucket", 500);
        const squeezed = await pacer.wait("bucket", 500); // left 515 ms after the first, arrived early
        clock.now += 80;
        pacer.penalize("bucket", { leftAt: squeezed, intervalMs: 500, floorMs: 10, maxMs: 2000, thresholdMs: 500 });
        expect(pacer.intervalOf("bucket", 500)).toBe(500);
        await pacer.wait("bucket", 500);
        // Spaced from the turned-away call (it may have counted), with 5 ms more guard.
        expect(slept[1]).toBeCloseTo(500 * 1.02 + 5 + 5 - 80);
        // From now on a turned-away call keeps its turn even when an earlier call explains it
        // (here a 429 that names a longer interval than the two calls kept).
        const a = await pacer.wait("bucket", 500);
        const b = await pacer.wait("bucket", 500);
        pacer.penalize("bucket", { leftAt: b, intervalMs: 500, floorMs: 10, maxMs: 2000, thresholdMs: 1000 });
        expect(b - a).toBeLessThan(1000);
        await pacer.wait("bucket", 500);
        expect(clock.now - b).toBeCloseTo(1000 * 1.02 + 5 + 5);
    });

    it("a call that kept the interval and is turned away by a 429 naming none keeps its turn: the bucket widens and counts rejected calls", async () => {
        const { pacer, clock, slept } = timedPacer();
        const first = await pacer.wait("bucket", 1000);
        const second = await pacer.wait("bucket", 1000); // 1025 ms after the first: another process took the turn
        clock.now += 80;
        pacer.penalize("bucket", { leftAt: second, intervalMs: 1000, floorMs: 1000, maxMs: 4000 });
        expect(pacer.intervalOf("bucket", 1000)).toBe(1500);
        await pacer.wait("bucket", 1000);
        // Spaced from the turned-away call at the widened interval, not from the first call.
        expect(clock.now - second).toBeCloseTo(1500 * 1.02 + 5);
        expect(second - first).toBeCloseTo(1000 * 1.02 + 5);
        expect(slept).toHaveLength(2);
    });

    it("widens a bucket after a 429, within a cap", () => {
        const { pacer, turnedAway } = buckets();
        turnedAway("bucket");
        expect(pacer.intervalOf("bucket", 0)).toBe(10);
        turnedAway("bucket");
        expect(pacer.intervalOf("bucket", 0)).toBe(15);
        for (let i = 0; i < 20; i++) turnedAway("bucket");
        expect(pacer.intervalOf("bucket", 0)).toBe(100);
        expect(pacer.intervalOf("bucket", 300)).toBe(300);
    });

    it("widens once for a burst: the 429s of calls that left before the bucket learned teach nothing more", () => {
        const { pacer, turnedAway } = buckets();
        // Eight calls left at once (time 0); seven come back 429.
        for (let i = 0; i < 7; i++) turnedAway("bucket", { leftAt: 0 });
        expect(pacer.intervalOf("bucket", 0)).toBe(10);
        // A call that left under the learned interval and is still turned away widens it.
        turnedAway("bucket");
        expect(pacer.intervalOf("bucket", 0)).toBe(15);
    });

    it("takes the interval a 429 names; turned away at it again, it widens only when the 429 names none", () => {
        const { pacer, turnedAway } = buckets();
        for (let i = 0; i < 7; i++) turnedAway("bucket", { thresholdMs: 500, leftAt: 0 });
        expect(pacer.intervalOf("bucket", 0)).toBe(500);
        // Named again for a call paced at it: the interval is right and the call arrived early (the
        // guard grows, as the test above shows); the interval neither widens nor shrinks.
        turnedAway("bucket", { thresholdMs: 500, maxMs: 1000 });
        expect(pacer.intervalOf("bucket", 0)).toBe(500);
        turnedAway("bucket", { thresholdMs: 300, maxMs: 1000 });
        expect(pacer.intervalOf("bucket", 0)).toBe(500);
        // Turned away at it with no interval named: the bucket widens by half.
        turnedAway("bucket", { maxMs: 1000 });
        expect(pacer.intervalOf("bucket", 0)).toBe(750);
        // A garbled, huge threshold is not believed past a minute.
        turnedAway("other", { thresholdMs: 3_600_000 });
        expect(pacer.intervalOf("other", 0)).toBe(60_000);
    });
});
