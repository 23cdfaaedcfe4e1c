import * as pulumi from "@pulumi/pulumi";
import { VastClient } from "../client/vastClient";
import { CONFIG_KEYS, resolveConfig } from "../config/providerConfig";
import { newClient } from "../config/newClient";

/** How a function called from a Pulumi program reaches the service; every field is optional. */
export interface FunctionOptions {
    /** Used instead of `vastai:apiKey` / `VAST_API_KEY`, e.g. a scoped key for a read-only look-up. */
    apiKey?: string;
    /** Used instead of `vastai:baseUrl` / `VAST_URL`. */
    baseUrl?: string;
    /** One line per HTTP exchange (method, path, status, time); never headers, bodies or the key. */
    log?: (line: string) => void;
}

/**
 * The client for a function running in the program's process, with the credentials its stack's
 * resources use: an explicit option, then the stack config, then the environment.
 *
 * The config is read with `pulumi.runtime.getConfig`, the SDK's plain look-up: `Config.get` on a
 * secret is meant to warn (the warning is switched off for now, pulumi#7127), and `getSecret`
 * gives an `Output`, which a function returning plain values cannot wait on. The key only goes
 * into the client's header; it never reaches a return value.
 */
export function programClient(options: FunctionOptions = {}): VastClient {
    const explicit: Record<string, string | undefined> = {
        [CONFIG_KEYS.apiKey]: options.apiKey,
        [CONFIG_KEYS.baseUrl]: options.baseUrl,
    };
    const config = resolveConfig({ get: (key) => explicit[key] || pulumi.runtime.getConfig(key) }, process.env);
    // On the process-wide pacer: calls from functions and from resources share the service's limits.
    return newClient(config, options.log);
}
