import { CheckFailure } from "../dynamic/checkFailures";
import { isUnknown } from "../dynamic/unknowns";
import { assertSafeBaseUrl } from "../client/transport";
import { CONFIG_KEYS } from "../config/providerConfig";
import { StackConfig } from "../config/providerConfig";
import { suggestion } from "../schemas/nearestName";
import { Props } from "./wire";

// The provider's own inputs (`vastai:apiKey`, `vastai:baseUrl` in stack config, or the arguments of
// an explicit `vastai.Provider`), as CheckConfig and Configure receive them.

/** Provider input → the stack config key the dynamic path reads it under. */
const SETTINGS = { apiKey: CONFIG_KEYS.apiKey, baseUrl: CONFIG_KEYS.baseUrl } as const;
const SETTING_NAMES = Object.keys(SETTINGS);
/** What the engine adds to every provider's inputs beside the schema's. */
const ENGINE_INPUTS = ["version", "pluginDownloadURL"];

/** CheckConfig: every setting a string (or not known yet), a base URL the key may be sent to, no unknown setting. */
export function checkConfig(news: Props): CheckFailure[] {
    const failures: CheckFailure[] = [];
    for (const [name, value] of Object.entries(news)) {
        if (ENGINE_INPUTS.includes(name) || value === undefined || value === null || isUnknown(value)) continue;
        if (!SETTING_NAMES.includes(name)) {
            failures.push({ property: name, reason: `is not a setting of this provider (it takes ${SETTING_NAMES.join(" and ")})${suggestion(name, SETTING_NAMES)}` });
        } else if (typeof value !== "string") {
            failures.push({ property: name, reason: `expected a string, got ${typeof value}` });
        } else if (name === "baseUrl" && value.trim() !== "") {
            try {
                assertSafeBaseUrl(value.trim());
            } catch (e) {
                failures.push({ property: name, reason: (e as Error).message.replace(/^vastai: /, "") });
            }
        }
    }
    // The key is never quoted: a failure names it only.
    return failures.map((f) => (f.property === "apiKey" ? { property: f.property, reason: "expected a string" } : f));
}

/**
 * The settings as the runtime's `configure` reads stack config. Configure's arguments carry them
 * by input name; its variables, the older form, as `vastai:config:<name>`. A value not known yet
 * (a key made by another resource, during a preview) is left out.
 */
export function stackConfigOf(args: Props, variables: ReadonlyMap<string, string> | Map<string, string>): StackConfig & { rawConfig: Props } {
    const values: Record<string, string | undefined> = {};
    const rawConfig: Props = {};
    for (const [name, key] of Object.entries(SETTINGS)) {
        const given = args[name] ?? variables.get(`vastai:config:${name}`) ?? variables.get(key);
        if (typeof given === "string" && !isUnknown(given)) values[key] = rawConfig[key] = given;
    }
    return { get: (key: string) => values[key], rawConfig };
}
