import * as pulumi from "@pulumi/pulumi";

/** The resource kinds whose implementation lives in `pulumi-vastai/runtime`. */
export type ResourceKind = "template" | "instance" | "apiKey";

/**
 * The object Pulumi serializes into every resource's `__provider` (inputs and state). It holds no
 * logic and no credentials, only `configure`. The host calls `configure` once per process, before
 * any other method, and without awaiting between caching the provider and calling it; so swapping
 * in the installed implementation's methods here, synchronously, is seen by every later call.
 * The text stays well under 2 KB, and delete and refresh run the code installed now rather than
 * code frozen into state when the resource was created (pulumi#6238, #4805).
 *
 * The host runs this text in the Pulumi project directory, with no file name, so the package is
 * resolved from there: from the program's node_modules, or, inside this repository, through the
 * package's own `exports` (self-reference).
 */
export function providerShim(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
    const shim = {
        configure(req: pulumi.dynamic.ConfigureRequest) {
            let implementation;
            try {
                implementation = require("module").createRequire(process.cwd() + "/")("pulumi-vastai/runtime")[kind];
                if (!implementation) throw new Error(`the installed version has no ${kind} resource`);
            } catch (e) {
                throw new Error(`pulumi-vastai: cannot load the provider from ${process.cwd()} (${e}); run: npm install pulumi-vastai`);
            }
            Object.assign(this, implementation);
            return implementation.configure(req);
        },
    };
    return shim as unknown as pulumi.dynamic.ResourceProvider;
}
