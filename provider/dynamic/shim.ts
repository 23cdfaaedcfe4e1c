import * as pulumi from "@pulumi/pulumi";

/** The resource kinds whose implementation lives in `pulumi-vastai/runtime`. */
export type ResourceKind = "template" | "instance" | "apiKey" | "sshKey";

/**
 * The object Pulumi serializes into every resource's `__provider` (inputs and state). It holds no
 * logic and no credentials: `configure`, which the host calls once per process before anything
 * else, loads the *installed* `pulumi-vastai/runtime` and hands every method on to it. So delete
 * and refresh run the code installed now rather than code frozen into state when the resource
 * was created (pulumi#6238, #4805), and the text stays about 1 KB.
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
    // Until `configure` has loaded the installed code, every method fails: with the load's error
    // once it failed, so a later delete can never report success for an instance still running.
    const notLoaded = function (this: { failed?: Error }) {
        throw this.failed ?? new Error("pulumi-vastai: not loaded, or this call is missing: npm install pulumi-vastai");
    };
    const shim = {
        configure(this: Record<string, unknown>, req: unknown) {
            let impl;
            try {
                impl = require("module").createRequire(process.cwd() + "/")("pulumi-vastai/runtime")[kind];
                if (!impl) throw new Error(`the installed version has no ${kind} resource`);
                impl.configure(req);
            } catch (e) {
                throw (this.failed = new Error(`pulumi-vastai: cannot load the provider from ${process.cwd()} (${e}): install pulumi-vastai in the program's directory`));
            }
            for (const m of ["check", "diff", "create", "read", "update", "delete"]) if (impl[m]) this[m] = impl[m].bind(impl);
        },
        check: notLoaded,
        diff: notLoaded,
        create: notLoaded,
        read: notLoaded,
        update: notLoaded,
        delete: notLoaded,
    };
    return shim as unknown as pulumi.dynamic.ResourceProvider;
}
