import { Pacer } from "../../provider/client/pacer";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";

/**
 * The emulator enforces the live per-endpoint intervals at 1/100 speed (template search 30 ms,
 * offer search and show instance 20 ms); the client paces at the same scale. Counts, not timings,
 * are asserted.
 */
const SCALE = 0.01;

/** Few tries after a 429, so only pacing can get a burst through. */
const FEW_RETRIES = { rateLimitMaxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 };

/**
 * 200 calls at once over three endpoints with documented intervals, which the client paces from
 * the first call (an undocumented one goes unpaced until its first 429: the next test).
 */
function burst(vast: ReturnType<typeof clientFor>): Promise<PromiseSettledResult<unknown>[]> {
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < 100; i++) calls.push(vast.templates.search({ recommended: { eq: true } }));
    for (let i = 0; i < 50; i++) calls.push(vast.offers.search({ limit: 5 }));
    // No such instance: the service answers it as gone, which is an answer like any other here.
    for (let i = 0; i < 50; i++) calls.push(vast.instances.show(999_999));
    return Promise.allSettled(calls);
}

describe("pacing under the service's per-endpoint intervals", () => {
    let emu: Emulator;
    afterEach(() => emu.stop());

    it("200 parallel calls over three endpoints all succeed", async () => {
        emu = await startEmulator({ rateLimitScale: SCALE });
        const vast = clientFor(emu, { paceScale: SCALE, pacer: new Pacer(), retry: FEW_RETRIES });
        const results = await burst(vast);
        const failures = results.filter((r) => r.status === "rejected");
        expect(failures).toEqual([]);
        expect(emu.requests.filter((r) => r.status === 200)).toHaveLength(200);
    });

    // current-user has no documented interval: the client sends it unpaced until a 429 says otherwise.
    // The live service's rejections cost no turn (the client spaces a retry from the last call let
    // through); a service whose rejections do restart the interval must not fail the burst either.
    it.each([
        ["names its interval (endpoint threshold=...)", true, false],
        ["says only 'too frequent'", false, false],
        ["names its interval, on a service that counts rejected calls", true, true],
        ["says only 'too frequent', on a service that counts rejected calls", false, true],
    ])("learns an interval it was not told when the 429 %s: 429s at first, never failures", async (_, namesThreshold, countsRejections) => {
        emu = await startEmulator({
            rateLimitScale: SCALE,
            rateLimitNamesThreshold: namesThreshold,
            rateLimitCountsRejections: countsRejections,
            intervalOverrides: { "current-user": 3000 },
        });
        const pacer = new Pacer();
        // Few tries, retried at once: only the pacer's spacing can get the burst through.
        const vast = clientFor(emu, { paceScale: SCALE, pacer, retry: FEW_RETRIES });
        const results = await Promise.allSettled(Array.from({ length: 60 }, () => vast.account.currentUser()));

        expect(results.filter((r) => r.status === "rejected")).toEqual([]);
        expect(emu.rateLimiter.rejected).toBeGreaterThan(0);
        const learned = Math.max(...pacer.learnedIntervals());
        expect(learned).toBeGreaterThanOrEqual(3000 * SCALE);
        // Told, it keeps the named interval. Not told, it widens by half from the documented 2 s until it
        // is enough (3 s), and again for a call that arrives early all the same (jitter on a busy
        // machine: 4.5 s, 6.75 s), never past its cap, four times the documented interval.
        expect(learned).toBeLessThanOrEqual(namesThreshold ? 3000 * SCALE : 2000 * SCALE * 4);
    });

    it("without the pacer the same burst fails: the emulator's limits are real", async () => {
        // 429s that name no interval: a pacer at scale 0 then learns nothing, and the burst meets the limits.
        emu = await startEmulator({ rateLimitScale: SCALE, rateLimitNamesThreshold: false });
        const unpaced = clientFor(emu, { paceScale: 0, pacer: new Pacer(), retry: FEW_RETRIES });
        const results = await burst(unpaced);
        expect(results.filter((r) => r.status === "rejected").length).toBeGreaterThan(0);
    });
});
