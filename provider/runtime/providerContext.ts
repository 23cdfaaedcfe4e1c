import { createHash } from "node:crypto";
import { VastAuthError } from "../client/errors";
import { assertSafeBaseUrl } from "../client/transport";
import { proxyFor, proxyFromEnvironment } from "../client/proxy";
import { suggestion } from "../schemas/nearestName";
import { VastClient } from "../client/vastClient";
import { newClient, timeScale as scaleFor } from "../config/newClient";
import { CONFIG_KEYS, DEFAULT_BASE_URL, ENV_VARS, ProviderConfig, StackConfig, resolveConfig } from "../config/providerConfig";
import { ProviderContext } from "../dynamic/context";
import { KEY_REFUSALS_TRUSTED } from "../resources/retriedLook";
import { progress, warn } from "./log";

/**
 * What every resource implementation in the provider process shares: the stack configuration
 * from `configure`, one client built from it, and one pacer. Module state on purpose: this module
 * is loaded once per host process by `require`, never serialized.
 */
let stackConfig: Record<string, string | undefined> | undefined;
let cached:
    | { key: string; from: readonly unknown[]; client: VastClient; userId?: Promise<number>; mark?: string; userRefusals?: number }
    | undefined;

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
    warnAboutConfig((req.config as { rawConfig?: unknown }).rawConfig);
}

let configToldAbout = false;

/**
 * Mistakes in the stack config that would only show at the first call, told now, in
 * `pulumi preview`: a `vastai:` key this provider does not read, close to one it does
 * (`vastai:apikey`), and a base URL
 * the key would be refused to. `rawConfig`: every key the engine sent (the host's Config keeps them
 * there); nothing is said when it is not an object.
 */
function warnAboutConfig(rawConfig: unknown): void {
    // Once per process: the host configures each resource type's provider with the same config.
    if (configToldAbout) return;
    configToldAbout = true;
    const known: readonly string[] = Object.values(CONFIG_KEYS);
    if (rawConfig && typeof rawConfig === "object") {
        // Only a near miss: a project named `vastai` has `vastai:` keys of its own.
        for (const key of Object.keys(rawConfig).filter((k) => k.startsWith("vastai:") && !known.includes(k))) {
            const near = suggestion(key, known);
            if (near) warn(`${key} is not a setting of this provider (it reads ${known.join(" and ")})${near}`);
        }
    }
    warnAboutProxy(configuredBaseUrl());
    const baseUrl = stackConfig?.[CONFIG_KEYS.baseUrl] || process.env[ENV_VARS.baseUrl];
    if (!baseUrl) return;
    try {
        assertSafeBaseUrl(baseUrl.trim());
    } catch (e) {
        warn(`${stackConfig?.[CONFIG_KEYS.baseUrl] ? CONFIG_KEYS.baseUrl : ENV_VARS.baseUrl}: ${(e as Error).message.replace(/^vastai: /, "")}`);
    }
}

/** An `HTTPS_PROXY` that is no proxy URL fails the first call to the service: told in `pulumi preview` too. */
function warnAboutProxy(baseUrl: string): void {
    let target: URL;
    try {
        target = new URL(baseUrl.trim());
    } catch {
        return; // the base URL's own warning says what is wrong
    }
    try {
        proxyFor(target, proxyFromEnvironment());
    } catch (e) {
        warn((e as Error).message.replace(/^vastai: /, ""));
    }
}

/** The base URL this process talks to, without requiring a key. */
function configuredBaseUrl(): string {
    return stackConfig?.[CONFIG_KEYS.baseUrl] || process.env[ENV_VARS.baseUrl] || DEFAULT_BASE_URL;
}

/** This process's time scale (see `timeScale` in config/newClient.ts), for its base URL unless told another. */
export function timeScale(baseUrl: string = configuredBaseUrl()): number {
    return scaleFor(baseUrl);
}

/**
 * The client for the configured account; created on first use, so `check` never needs a key.
 * Asked for by every operation: the configuration is resolved again (and the URL parsed) only
 * when what it is resolved from changed, the stack config `configure` set or the two variables.
 */
export function vastClient(): VastClient {
    const from = [stackConfig, process.env[ENV_VARS.apiKey], process.env[ENV_VARS.baseUrl]] as const;
    if (cached && cached.from.every((value, i) => value === from[i])) return cached.client;
    const config: ProviderConfig = resolveConfig({ get: (key) => stackConfig?.[key] }, process.env);
    const key = `${config.baseUrl} ${config.apiKey}`;
    if (!cached || cached.key !== key) {
        cached = { key, from, client: newClient(config) };
    } else {
        cached.from = from;
    }
    return cached.client;
}

/**
 * The id of the account the configured key belongs to, asked once per process: templates are
 * matched on their creator, since searches include other users' public ones, and what a key made
 * is told from what it cannot see (resources/sameAccount.ts). A look-up that failed is asked again
 * next time, unless the key was refused for good: a refusal that names the missing `user_read`,
 * or refusals `KEY_REFUSALS_TRUSTED` times in a row. One other refusal (a 401, the 404
 * `auth_error` a revoked key gets) may be the service's slip, as a lost create's look takes it:
 * kept, it would fail every later operation of the process that needs the account, and the
 * look's own tries would all meet it without asking again.
 */
export function currentUserId(): Promise<number> {
    const client = vastClient();
    const entry = cached!;
    if (!entry.userId) {
        const asked = client.account.currentUser().then((u) => u.id);
        entry.userId = asked;
        asked.then(
            () => (entry.userRefusals = 0),
            (e) => {
                const refused = e instanceof VastAuthError;
                entry.userRefusals = refused ? (entry.userRefusals ?? 0) + 1 : 0;
                const forGood = refused && (e.missingPermission !== undefined || entry.userRefusals >= KEY_REFUSALS_TRUSTED);
                if (!forGood && entry.userId === asked) entry.userId = undefined;
            },
        );
    }
    return entry.userId;
}

/** The configured key's mark (ProviderContext.keyMark): the key never leaves this module's client. */
export function keyMark(): string {
    vastClient();
    const entry = cached!;
    entry.mark ??= createHash("sha256").update(`pulumi-vastai key mark ${entry.key}`).digest("hex").slice(0, 8);
    return entry.mark;
}

/** The context every resource implementation in this process is given. */
export const processContext: ProviderContext = {
    client: vastClient,
    currentUserId,
    keyMark,
    clock: {
        now: () => Date.now(),
        sleep: (liveMs) => new Promise((resolve) => setTimeout(resolve, liveMs * timeScale())),
        scaled: (liveMs) => liveMs * timeScale(),
    },
    log: { progress, warn },
};
