import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { STACK_SETTING_HINTS } from "../client/errors";
import { VastClient } from "../client/vastClient";
import { CONFIG_KEYS, resolveConfig } from "../config/providerConfig";
import { newClient } from "../config/newClient";
import { checkFunctionArgs, expected } from "./functionArgs";

/** How a function called from a Pulumi program reaches the service; every field is optional. */
export interface FunctionOptions {
    /** Used instead of `vastai:apiKey` / `VAST_API_KEY`, e.g. a scoped key for a read-only look-up. */
    apiKey?: string;
    /** Used instead of `vastai:baseUrl` / `VAST_URL`. */
    baseUrl?: string;
    /** One line per HTTP exchange (method, path, status, time); never headers, bodies or the key. */
    log?: (line: string) => void;
}

/** A string with something in it: an empty one would fall back to the stack's setting unseen. */
const setting = (option: string, what: string) =>
    z
        .string({ error: expected("a string") })
        .refine((v) => v.trim() !== "", { error: `expected ${what}, got an empty string (leave ${option} out to use the stack config or the environment)` })
        .optional();

/** Strict: `{ apikey }` (lower-case k) was ignored, and the stack's key used instead. */
const functionOptionsSchema = z.strictObject(
    {
        apiKey: setting("apiKey", "a key"),
        baseUrl: setting("baseUrl", "a URL"),
        log: z.custom<(line: string) => void>((v) => typeof v === "function", { error: expected("a function") }).optional(),
    },
    { error: (issue) => (issue.code === "invalid_type" ? expected("an object like { apiKey, baseUrl, log }")(issue) : undefined) },
);

/**
 * The client for a function running in the program's process, with the credentials its stack's
 * resources use: an explicit option, then the stack config, then the environment. `functionName`
 * is the calling function's, for messages about its options.
 *
 * The config is read with `pulumi.runtime.getConfig`, the SDK's plain look-up: `Config.get` on a
 * secret is meant to warn (the warning is switched off for now, pulumi#7127), and `getSecret`
 * gives an `Output`, which a function returning plain values cannot wait on (each function's
 * `...Output` form can). The key only goes into the client's header; it never reaches a return
 * value.
 */
export function programClient(functionName: string, options: FunctionOptions = {}): VastClient {
    const checked = checkFunctionArgs(functionName, "options", functionOptionsSchema, options);
    const explicit: Record<string, string | undefined> = {
        [CONFIG_KEYS.apiKey]: checked.apiKey,
        [CONFIG_KEYS.baseUrl]: checked.baseUrl,
    };
    const config = resolveConfig({ get: (key) => explicit[key] ?? pulumi.runtime.getConfig(key) }, process.env);
    // A key or URL given as an option wins over the stack's: a refusal names the option then.
    const settingHints = {
        key: checked.apiKey ? "pass a valid key as the apiKey option" : `${STACK_SETTING_HINTS.key}, or pass one as the apiKey option`,
        baseUrl: checked.baseUrl ? "the baseUrl option" : STACK_SETTING_HINTS.baseUrl,
    };
    // The program's own pacer, shared by its function calls only: the stack's resources call from
    // the dynamic-provider host, another process with its own pacer. Neither sees the other's
    // calls, so a 429 one causes the other is met by the retry policy like any other.
    return newClient({ ...config, settingHints }, checked.log);
}
