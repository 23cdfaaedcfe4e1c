import {
    VastError,
    VastNetworkError,
    VastOutcomeUnknownError,
    VastRateLimitError,
    VastServerError,
    VastUnexpectedResponseError,
} from "./errors";
import { PROXY_AUTH_REQUIRED } from "./errorClassification";

/**
 * The one retry policy: what happens after each kind of failure, for each kind of call.
 *
 * | failure                                   | repeatable call (GET, DELETE, label) | create or edit          |
 * |-------------------------------------------|--------------------------------------|-------------------------|
 * | 429 rate limited                          | retry                                | retry                   |
 * | never sent (refused, DNS, certificate)    | retry                                | retry                   |
 * | reset or timeout after sending            | retry                                | outcome unknown         |
 * | any 5xx, 408                              | retry                                | outcome unknown         |
 * | 2xx whose body is not the expected JSON   | retry                                | outcome unknown         |
 * | anything else (other 4xx, auth, proxy 407)| fail                                 | fail                    |
 *
 * Why: a 429, an unmade connection and a refused certificate mean the service did not act, so anything may be sent again.
 * Otherwise the service may have acted. A repeatable call (a read; a delete, whose repeat finds
 * nothing left; a label, which sets the same value) is safe to send again. A create or an edit is
 * not: sent twice it makes two instances or two hashes, so it fails with `VastOutcomeUnknownError`
 * and the caller first looks for what it may have made (see `lostCreate.ts`).
 * Retries are capped (`maxAttempts`, more for 429s, which only ever cost time) with capped,
 * jittered exponential backoff, and `Retry-After` obeyed when sent (one asking for longer than
 * `maxRetryAfterMs` fails the call at once: the message says how long the service asks to wait).
 * 429s are also retried for as long as `rateLimitBudgetMs` from the call's start, whatever their
 * number: programs sharing a key (the same program's stacks, deployed together) each pace only
 * their own calls, and together meet more 429s than a count allows for.
 */
export interface RetryOptions {
    /** Tries in all for server, network and unreadable-answer failures, the first included. */
    maxAttempts: number;
    /** Tries in all when rate limited; higher, because a 429 only ever costs time. */
    rateLimitMaxAttempts: number;
    /** How long from a call's start its 429s are retried past `rateLimitMaxAttempts`, ms; 0: the count alone. */
    rateLimitBudgetMs: number;
    baseDelayMs: number;
    maxDelayMs: number;
    /** The longest `Retry-After` waited for; a 429 asking for longer (a quota spent for hours) fails at once, saying so. */
    maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
    maxAttempts: 4,
    rateLimitMaxAttempts: 12,
    // The provider's clients (newClient) take RATE_LIMIT_BUDGET_MS, scaled; a client built alone counts tries.
    rateLimitBudgetMs: 0,
    baseDelayMs: 300,
    maxDelayMs: 10_000,
    maxRetryAfterMs: 120_000,
};

/** The provider's `rateLimitBudgetMs` at live speed: long enough for a few stacks sharing a key to take turns at the slowest documented interval (instance create, 4.5 s). */
export const RATE_LIMIT_BUDGET_MS = 120_000;

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; error: VastError };

/** A failure as the table above sorts it. */
export type FailureKind = "rate-limited" | "not-sent" | "maybe-acted" | "final";

type CallKind = "repeatable" | "create";
type Action = "retry" | "outcome-unknown" | "fail";

const POLICY: Record<FailureKind, Record<CallKind, Action>> = {
    "rate-limited": { repeatable: "retry", create: "retry" },
    "not-sent": { repeatable: "retry", create: "retry" },
    "maybe-acted": { repeatable: "retry", create: "outcome-unknown" },
    final: { repeatable: "fail", create: "fail" },
};

export function failureKind(error: VastError): FailureKind {
    if (error instanceof VastRateLimitError) return "rate-limited";
    // The proxy wants credentials HTTPS_PROXY does not give: sending again cannot help.
    if (error instanceof VastNetworkError && error.errorCode === PROXY_AUTH_REQUIRED) return "final";
    if (error instanceof VastNetworkError) return error.sent ? "maybe-acted" : "not-sent";
    // Any 5xx, and a 408, may come after the service acted (a front end timing out on the origin).
    if (error instanceof VastServerError || error.status === 408) return "maybe-acted";
    if (error instanceof VastUnexpectedResponseError) return "maybe-acted";
    return "final";
}

/**
 * Whether a call that failed with `error` may have been carried out all the same (its response lost:
 * a reset, a timeout, a 5xx, an unreadable response, after any retries), rather than refused.
 */
export function mayHaveActed(error: unknown): boolean {
    return error instanceof VastOutcomeUnknownError || (error instanceof VastError && failureKind(error) === "maybe-acted");
}

/** Delay before try `attempt + 1`: base × 2^(attempt-1), capped, with jitter in [50%, 100%]. */
export function backoffMs(attempt: number, opts: RetryOptions, random: () => number = Math.random): number {
    const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling * (0.5 + random() / 2));
}

/**
 * Decides what to do after a try failed with `error`, `elapsedMs` after the call's start.
 * `attempt`: how many of the call's tries failed so far the way this one did, rate limited or
 * otherwise, this one included: 429s, which only cost time, never use up the tries a 5xx or a
 * reset gets (stacks sharing a key meet many). `idempotent`: whether sending the request twice has
 * the same effect as sending it once.
 */
export function decideRetry(error: VastError, attempt: number, idempotent: boolean, opts: RetryOptions, elapsedMs = 0): RetryDecision {
    const kind = failureKind(error);
    const action = POLICY[kind][idempotent ? "repeatable" : "create"];
    if (action === "fail") return { retry: false, error };
    if (action === "outcome-unknown") return { retry: false, error: new VastOutcomeUnknownError(error) };

    if (kind === "rate-limited") {
        if (attempt >= opts.rateLimitMaxAttempts && elapsedMs >= opts.rateLimitBudgetMs) return { retry: false, error };
        // The pacer already widened this bucket's interval; the delay only keeps retries from bunching.
        const hinted = (error as VastRateLimitError).retryAfterMs;
        // Waiting out hours in a `pulumi up`, twelve times over, only hides the response.
        if (hinted !== undefined && hinted > opts.maxRetryAfterMs) return { retry: false, error };
        return { retry: true, delayMs: hinted ?? backoffMs(1, opts) };
    }
    if (attempt >= opts.maxAttempts) return { retry: false, error };
    return { retry: true, delayMs: backoffMs(attempt, opts) };
}
