import { VastError, VastNetworkError, VastOutcomeUnknownError, VastRateLimitError, VastServerError } from "./errors";

/**
 * The one retry policy. Rate limits, gateway errors (502/503/504) and connection errors are worth
 * another try, with capped, jittered exponential backoff. A request that is not idempotent (a
 * create) is re-sent only when the service certainly did not act on it (a 429, or a connection
 * that was never made); otherwise its failure becomes a `VastOutcomeUnknownError`.
 */
export interface RetryOptions {
    /** Tries in all for server and network failures, the first included. */
    maxAttempts: number;
    /** Tries in all when rate limited; higher, because a 429 only ever costs time. */
    rateLimitMaxAttempts: number;
    baseDelayMs: number;
    maxDelayMs: number;
    /** The longest `Retry-After` obeyed as given; longer hints are cut to this. */
    maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
    maxAttempts: 4,
    rateLimitMaxAttempts: 12,
    baseDelayMs: 300,
    maxDelayMs: 10_000,
    maxRetryAfterMs: 120_000,
};

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; error: VastError };

const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/** Delay before try `attempt + 1`: base × 2^(attempt-1), capped, with jitter in [50%, 100%]. */
export function backoffMs(attempt: number, opts: RetryOptions, random: () => number = Math.random): number {
    const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * Decides what to do after try number `attempt` failed with `error`.
 * `idempotent`: whether sending the request twice has the same effect as sending it once.
 */
export function decideRetry(error: VastError, attempt: number, idempotent: boolean, opts: RetryOptions): RetryDecision {
    if (error instanceof VastRateLimitError) {
        if (attempt >= opts.rateLimitMaxAttempts) return { retry: false, error };
        // The pacer already widened this lane's interval; the delay only keeps retries from bunching.
        const hinted = error.retryAfterMs;
        const delayMs = hinted !== undefined ? Math.min(hinted, opts.maxRetryAfterMs) : backoffMs(1, opts);
        return { retry: true, delayMs };
    }

    const transient =
        error instanceof VastNetworkError || (error instanceof VastServerError && RETRYABLE_STATUSES.has(error.status ?? 0));
    const maybeActedOn =
        (error instanceof VastNetworkError && error.sent) || error instanceof VastServerError;

    if (!idempotent && maybeActedOn) return { retry: false, error: new VastOutcomeUnknownError(error) };
    if (!transient || attempt >= opts.maxAttempts) return { retry: false, error };
    return { retry: true, delayMs: backoffMs(attempt, opts) };
}
