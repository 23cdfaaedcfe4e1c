import {
    VastInvalidArgsError,
    VastNetworkError,
    VastNotFoundError,
    VastOutcomeUnknownError,
    VastRateLimitError,
    VastServerError,
    VastUnexpectedResponseError,
} from "../../provider/client/errors";
import { DEFAULT_RETRY, backoffMs, decideRetry } from "../../provider/client/retryPolicy";

const ctx = { operation: "create instance", target: "on offer 1" };
const server = (status: number) => new VastServerError({ ...ctx, status }, `HTTP ${status}`);
const sent = new VastNetworkError(ctx, "reset", true, "ECONNRESET");
const notSent = new VastNetworkError(ctx, "refused", false, "ECONNREFUSED");
const limited = new VastRateLimitError({ ...ctx, status: 429 }, "429");

describe("decideRetry: one policy for every call", () => {
    it.each([
        ["429", limited, true],
        ["502", server(502), true],
        ["503", server(503), true],
        ["504", server(504), true],
        ["reset", sent, true],
        ["refused", notSent, true],
        ["500", server(500), true],
        ["2xx that cannot be read", new VastUnexpectedResponseError({ ...ctx, status: 200 }, "not JSON"), true],
        ["524 from a front end", server(524), true],
        ["400", new VastInvalidArgsError({ ...ctx, status: 400 }, "bad"), false],
        ["404", new VastNotFoundError({ ...ctx, status: 404 }, "gone"), false],
    ])("an idempotent call retries a %s: %p", (_name, error, retried) => {
        expect(decideRetry(error, 1, true, DEFAULT_RETRY).retry).toBe(retried);
    });

    it.each([
        ["502", server(502)],
        ["500", server(500)],
        ["reset after sending", sent],
        ["524 from a front end", server(524)],
        ["2xx that cannot be read", new VastUnexpectedResponseError({ ...ctx, status: 200 }, "not JSON")],
    ])("a create is never re-sent after a %s: its outcome is unknown", (_name, error) => {
        const decision = decideRetry(error, 1, false, DEFAULT_RETRY);
        expect(decision.retry).toBe(false);
        expect(!decision.retry && decision.error).toBeInstanceOf(VastOutcomeUnknownError);
    });

    it("a create is retried after a 429 or a connection that was never made", () => {
        expect(decideRetry(limited, 1, false, DEFAULT_RETRY).retry).toBe(true);
        expect(decideRetry(notSent, 1, false, DEFAULT_RETRY).retry).toBe(true);
    });

    it("stops at the caps", () => {
        expect(decideRetry(server(503), DEFAULT_RETRY.maxAttempts, true, DEFAULT_RETRY).retry).toBe(false);
        expect(decideRetry(limited, DEFAULT_RETRY.rateLimitMaxAttempts, true, DEFAULT_RETRY).retry).toBe(false);
        expect(decideRetry(limited, DEFAULT_RETRY.rateLimitMaxAttempts - 1, true, DEFAULT_RETRY).retry).toBe(true);
    });

    // Before: 12 tries, however soon: stacks sharing a key, each pacing only its own calls, ran out.
    it("retries 429s past the count while the call is within its rate-limit budget", () => {
        const budget = { ...DEFAULT_RETRY, rateLimitBudgetMs: 120_000 };
        expect(decideRetry(limited, 30, false, budget, 119_000).retry).toBe(true);
        expect(decideRetry(limited, 30, false, budget, 120_000).retry).toBe(false);
        // The count still holds when the budget is spent early: at least 12 tries.
        expect(decideRetry(limited, 3, false, budget, 500_000).retry).toBe(true);
        // A 5xx is not a 429: its own cap, whatever the budget.
        expect(decideRetry(server(503), DEFAULT_RETRY.maxAttempts, true, budget, 1_000).retry).toBe(false);
    });

    it("obeys Retry-After when given", () => {
        const hinted = new VastRateLimitError({ ...ctx, status: 429 }, "429", 7000);
        expect(decideRetry(hinted, 1, true, DEFAULT_RETRY)).toEqual({ retry: true, delayMs: 7000 });
    });

    // Before: cut to 120 s and retried twelve times, a quota spent for hours held an `up` for 22 minutes, then failed.
    it("fails at once when Retry-After asks for longer than it waits", () => {
        const quota = new VastRateLimitError({ ...ctx, status: 429 }, "429", 3 * 3600_000);
        expect(decideRetry(quota, 1, true, DEFAULT_RETRY)).toEqual({ retry: false, error: quota });
    });

    it("backs off exponentially, capped, with jitter between half and all of the step", () => {
        const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
        expect(backoffMs(1, opts, () => 1)).toBe(100);
        expect(backoffMs(3, opts, () => 1)).toBe(400);
        expect(backoffMs(3, opts, () => 0)).toBe(200);
        expect(backoffMs(10, opts, () => 1)).toBe(1000);
    });
});
