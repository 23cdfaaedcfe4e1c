import { sharedPacer } from "../client/pacer";
import { DEFAULT_RETRY, RATE_LIMIT_BUDGET_MS, RetryOptions } from "../client/retryPolicy";
import { isLoopbackHost } from "../client/hosts";
import { DEFAULT_TIMEOUT_MS } from "../client/transport";
import { VastClient } from "../client/vastClient";
import { ProviderConfig } from "./providerConfig";

/** A floor, so a loaded machine at a small test scale does not time out ordinary answers. */
const MIN_TIMEOUT_MS = 250;

/**
 * `VASTAI_TIME_SCALE` multiplies every wait the provider makes on the service's behalf (paced
 * intervals, retry backoff, request timeouts, polling, deadlines, look-ups after a lost answer).
 * 1 at live speed; the emulator's tests run at a fraction of it, with the emulator's own clock
 * scaled to match. Below 1 it is honoured only against a loopback address: at the live service it
 * would mean 429s and deadlines that pass at once. Above 1 (slower) it is honoured anywhere.
 * The one place it is read.
 */
export function timeScale(baseUrl: string, env: NodeJS.ProcessEnv = process.env): number {
    const raw = env.VASTAI_TIME_SCALE;
    const scale = raw === undefined || raw.trim() === "" ? 1 : Number(raw);
    if (!Number.isFinite(scale) || scale < 0) return 1;
    if (scale >= 1) return scale;
    try {
        return isLoopbackHost(new URL(baseUrl).hostname) ? scale : 1;
    } catch {
        return 1;
    }
}

/** The retries of the provider's clients: DEFAULT_RETRY's delays, and 429s retried for RATE_LIMIT_BUDGET_MS, scaled. */
export function scaledRetry(scale: number): Partial<RetryOptions> {
    return { baseDelayMs: DEFAULT_RETRY.baseDelayMs * scale, maxDelayMs: DEFAULT_RETRY.maxDelayMs * scale, rateLimitBudgetMs: RATE_LIMIT_BUDGET_MS * scale };
}

/**
 * A client on the process-wide pacer, its waits (paced intervals, retry backoff, timeouts) scaled
 * by `timeScale`. The one place the provider and the program-side functions build a client.
 */
export function newClient(config: ProviderConfig, log?: (line: string) => void): VastClient {
    const scale = timeScale(config.baseUrl);
    return new VastClient({
        ...config,
        timeoutMs: Math.max(MIN_TIMEOUT_MS, DEFAULT_TIMEOUT_MS * scale),
        paceScale: scale,
        pacer: sharedPacer,
        retry: scaledRetry(scale),
        log,
    });
}
