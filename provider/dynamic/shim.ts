import * as pulumi from "@pulumi/pulumi";

/** The resource kinds whose implementation lives in `pulumi-vastai/runtime`. */
export type ResourceKind =
    | "template"
    | "instance"
    | "apiKey"
    | "sshKey"
    | "volume"
    | "networkVolume"
    | "endpoint"
    | "workerGroup";

/**
 * The object Pulumi serializes into every resource's `__provider` (inputs and state). It holds no
 * logic and no credentials: `configure`, which the host calls once per process before anything
 * else, loads the *installed* `pulumi-vastai/runtime` and hands every method on to it. So delete
 * and refresh run the code installed now rather than code frozen into state when the resource
 * was created (pulumi#6238, #4805), and the text stays under 1 KB.
 *
 * No method answers on its own: the host caches this object before `configure` runs, and treats
 * a missing `delete` as success. Each method therefore exists from the start and fails until the
 * installed code replaces it; if loading fails (package missing, too old, `configure` throwing),
 * every later call fails with that error, so no instance can leave state while it still runs.
 * `configure` is synchronous: calls that arrive while it runs must already see the swap.
 *
 * The host runs this text in the Pulumi project directory, with no file name, so the package is
 * resolved from there: from the program's node_modules, or, inside this repository, through the
 * package's own `exports` (self-reference).
 */
export function providerShim(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
    // Terse on purpose: this text is stored twice per resource in every state file. One function
    // stands for every method: as `configure` it loads the installed code, whose `load`
    // (runtime/index.ts) hands back the six methods that replace it; any other call reaches it
    // only when that did not happen, and `load` refuses a call that is not a `configure`. A failed
    // load is kept in `failed`, and every later call throws it.
    const shimMethod = function (this: { failed?: Error }, req: unknown) {
        if (this.failed) throw this.failed;
        try {
            Object.assign(this, require("module").createRequire(process.cwd() + "/")("pulumi-vastai/runtime").load(kind, req));
        } catch (e) {
            throw (this.failed = Error(`pulumi-vastai: cannot load from ${process.cwd()} (${e}): npm install pulumi-vastai there`));
        }
    };
    const m = shimMethod;
    return { configure: m, check: m, diff: m, create: m, read: m, update: m, delete: m } as unknown as pulumi.dynamic.ResourceProvider;
}
