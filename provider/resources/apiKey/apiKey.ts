import * as pulumi from "@pulumi/pulumi";
import { providerShim } from "../../dynamic/shim";
import { Permissions } from "../../schemas/permissions";
import { ApiKeyArgs } from "./apiKeyArgs";
import { PermissionsBuilder } from "./permissionsBuilder";

/**
 * A Vast.ai API key, usually a scoped one. The service shows the secret once, at creation; it is
 * kept in state as a secret. Any change to `name` or `permissions` makes a new key (before the
 * old one is revoked, so a rotation never leaves a gap); deleting the resource revokes the key.
 *
 *     const reader = new vast.ApiKey("ci-reader", {
 *         name: "ci-reader",
 *         permissions: vast.apiKeyPermissions("user_read"),
 *     });
 *     export const readerKey = reader.key; // secret
 */
export class ApiKey extends pulumi.dynamic.Resource {
    declare readonly name: pulumi.Output<string>;
    declare readonly permissions: pulumi.Output<Permissions>;
    /** The service's numeric id; the Pulumi id too. */
    declare readonly keyId: pulumi.Output<number>;
    /** The key itself. Secret. */
    declare readonly key: pulumi.Output<string>;

    constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
        const permissions = args.permissions instanceof PermissionsBuilder ? args.permissions.build() : args.permissions;
        const props = { name: args.name, permissions, keyId: undefined, key: undefined };
        // The provider's outputs are plain; only this option makes the engine encrypt `key` in state.
        const secretOutputs = [...(opts?.additionalSecretOutputs ?? []), "key"];
        super(providerShim("apiKey"), name, props, { ...opts, additionalSecretOutputs: secretOutputs }, "vastai", "ApiKey");
    }
}
