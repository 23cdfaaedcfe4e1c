import { sharedPacer } from "../client/pacer";
import { DEFAULT_RETRY } from "../client/retryPolicy";
import { VastClient } from "../client/vastClient";
import { DEFAULT_TIMEOUT_MS, isLoopbackHost } from "../client/transport";

const MIN_TIMEOUT_MS = 250;
import { CONFIG_KEYS, DEFAULT_BASE_URL, ENV_VARS, ProviderConfig, StackConfig, resolveConfig } from "../config/providerConfig";

/**
 * What every resource implementation in the provider process shares: the stack configuration
 * from `configure`, one client built from it, and one pacer. Module state on purpose: this module
 * is loaded once per host process by `require`, never serialized.
 */
let stackConfig: Record<string, string | undefined> | undefined;
let cached: { key: string; client: VastClient; userId?: Promise<number> } | undefined;

/**
 * Called by the host with the whole stack config. Synchronous: the host caches the provider
 * before `configure` resolves, so anything set after an await would be missed by early calls.
 * Only the two keys this provider reads are kept.
 */
export function configure(req: { config: StackConfig }): void {
    const get = (key: string) => {
        try {
            return req.config.get(key);
        } catch {
            return undefined; // the engine sent no configuration at all
        }
    };
    stackConfig = { [CONFIG_KEYS.apiKey]: get(CONFIG_KEYS.apiKey), [CONFIG_KEYS.baseUrl]: get(CONFIG_KEYS.baseUrl) };
}

/**
 * `VASTAI_TIME_SCALE` multiplies every wait the provider makes on the service's behalf (paced
 * intervals, retry backoff, request timeouts, polling, deadlines, look-ups after a lost answer). 1 at live speed;
 * the emulator's tests run at a fraction of it, with the emulator's own clock scaled to match.
 * Below 1 it is honoured only against a loopback address: at the live service it would mean 429s
 * and deadlines that pass at once. Above 1 (slower) it is honoured anywhere.
 */
export function timeScale(baseUrl: string = configuredBaseUrl()): number {
    const raw = process.env.VASTAI_TIME_SCALE;
    const scale = raw === undefined || raw.trim() === "" ? 1 : Number(raw);
    if (!Number.isFinite(scale) || scale < 0) return 1;
    if (scale >= 1) return scale;
    try {
        return isLoopbackHost(new URL(baseUrl).hostname) ? scale : 1;
    } catch {
        return 1;
    }
}

/** The base URL this process talks to, without requiring a key. */
function configuredBaseUrl(): string {
    return stackConfig?.[CONFIG_KEYS.baseUrl] || process.env[ENV_VARS.baseUrl] || DEFAULT_BASE_URL;
}

/** Waits `ms` at live speed, scaled by `timeScale()`. */
export function sleepScaled(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms * timeScale()));
}

/**
 * A client on the process-wide pacer, its waits (paced intervals and retry backoff) scaled by
 * `timeScale()`. The one place the provider and the program-side functions build a client.
 */
export function newClient(config: ProviderConfig, log?: (line: string) => void): VastClient {
    const scale = timeScale(config.baseUrl);
    return new VastClient({
        ...config,
        // A floor, so a loaded machine at a small test scale does not time out ordinary answers.
        timeoutMs: Math.max(MIN_TIMEOUT_MS, DEFAULT_TIMEOUT_MS * scale),
        paceScale: scale,
        pacer: sharedPacer,
        retry: { baseDelayMs: DEFAULT_RETRY.baseDelayMs * scale, maxDelayMs: DEFAULT_RETRY.maxDelayMs * scale },
        log,
    });
}

/** The client for the configured account; created on first use, so `check` never needs a key. */
export function vastClient(): VastClient {
    const config: ProviderConfig = resolveConfig(
        { get: (key) => stackConfig?.[key] },
        process.env,
    );
    const key = `${config.baseUrl} ${config.apiKey}`;
    if (!cached || cached.key !== key) {
        cached = { key, client: newClient(config) };
    }
    return cached.client;
}

/**
 * The id of the account the configured key belongs to, asked once per process: templates are
 * matched on their creator, since searches include other users' public ones.
 */
export function currentUserId(): Promise<number> {
    const client = vastClient();
    const entry = cached!;
    if (!entry.userId) {
        entry.userId = client.account.currentUser().then((u) => u.id);
        entry.userId.catch(() => (entry.userId = undefined)); // a failed look-up is asked again next time
    }
    return entry.userId;
}
