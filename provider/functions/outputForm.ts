import * as pulumi from "@pulumi/pulumi";
import type { FunctionOptions } from "./programClient";

/**
 * `T` with an Input allowed at every level: the whole, a field, a field's field, an element.
 * `{ filters: { gpu_name: { eq: config.require("gpu") } } }` and `{ userId: me.id }` both fit.
 */
export type DeepInput<T> = pulumi.Input<T extends object ? { [K in keyof T]: DeepInput<T[K]> } : T>;

/** `FunctionOptions` for an Output form: the key and the URL may be Inputs (a secret from config). */
export interface FunctionOutputOptions {
    /** Used instead of `vastai:apiKey` / `VAST_API_KEY`; a secret here makes the result secret. */
    apiKey?: pulumi.Input<string>;
    /** Used instead of `vastai:baseUrl` / `VAST_URL`. */
    baseUrl?: pulumi.Input<string>;
    /** One line per HTTP exchange (method, path, status, time); never headers, bodies or the key. */
    log?: (line: string) => void;
}

/**
 * The Output form of a function, the one recipe for all of them: waits for every Input in `args`
 * and `options`, at any depth, then calls the plain function, which checks them as it always does.
 * `pulumi.output` carries what Pulumi tracks: the result is secret when any input was (a key
 * from `config.requireSecret`), depends on the resources the inputs came from, and stays unknown
 * in a preview while an input is, the function not called, as Pulumi's own invokes do.
 */
export function outputForm<Args, Result>(
    call: (args: Args, options: FunctionOptions) => Promise<Result>,
    args: unknown,
    options: FunctionOutputOptions | undefined,
): pulumi.Output<Result> {
    // `pulumi.output` copies plain values and keeps functions (`log`) as they are.
    return pulumi.output({ args, options }).apply(({ args, options }) => call(args as Args, options as FunctionOptions)) as pulumi.Output<Result>;
}
