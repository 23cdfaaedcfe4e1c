import { SettingHints, VastConfigError } from "../client/errors";
import { assertSafeBaseUrl } from "../client/transport";

export const DEFAULT_BASE_URL = "https://console.vast.ai";

/** Stack config keys, and the environment variables the vendor CLI uses for the same things. */
export const CONFIG_KEYS = { apiKey: "vastai:apiKey", baseUrl: "vastai:baseUrl" } as const;
export const ENV_VARS = { apiKey: "VAST_API_KEY", baseUrl: "VAST_URL" } as const;

export interface ProviderConfig {
    apiKey: string;
    baseUrl: string;
    /** What a refused key or a wrong address tells the person to change; the stack's settings unless set. */
    settingHints?: SettingHints;
}

/** What `configure` receives from the dynamic-provider host: the whole stack config. */
export interface StackConfig {
    get(key: string): string | undefined;
}

/**
 * Stack config first (`vastai:apiKey`, a secret, and `vastai:baseUrl`), then `VAST_API_KEY` and
 * `VAST_URL`. Synchronous on purpose: the host caches the provider before `configure` resolves.
 */
export function resolveConfig(stack: StackConfig | undefined, env: NodeJS.ProcessEnv = process.env): ProviderConfig {
    const pick = (value: string | undefined) => (value && value.trim() !== "" ? value.trim() : undefined);
    const apiKey = pick(stack?.get(CONFIG_KEYS.apiKey)) ?? pick(env[ENV_VARS.apiKey]);
    if (!apiKey) {
        throw new VastConfigError(
            `no API key. Set it with \`pulumi config set --secret ${CONFIG_KEYS.apiKey} <key>\` ` +
                `or the ${ENV_VARS.apiKey} environment variable (keys: https://cloud.vast.ai/manage-keys/)`,
        );
    }
    const rawUrl = pick(stack?.get(CONFIG_KEYS.baseUrl)) ?? pick(env[ENV_VARS.baseUrl]) ?? DEFAULT_BASE_URL;
    // A base URL given with the API prefix (`.../api/v0`) is accepted; paths add it themselves.
    const baseUrl = assertSafeBaseUrl(rawUrl).toString().replace(/\/+$/, "").replace(/\/api\/v[01]$/, "");
    return { apiKey, baseUrl };
}
