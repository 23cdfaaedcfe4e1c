/** The ApiKey resource a program declares (its provider is apiKeyProvider.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { API_KEY_COMPUTED_OUTPUTS, ApiKeyArgs, ApiKeyOutputs, apiKeyArgsSchema } from "./apiKeyArgs";
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
    constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
        const permissions = args.permissions instanceof PermissionsBuilder ? args.permissions.build() : args.permissions;
        const resource = resourceArgs({ name: args.name, permissions }, apiKeyArgsSchema, API_KEY_COMPUTED_OUTPUTS, opts);
        super(providerShim("apiKey"), name, resource.props, resource.opts, TYPE_MODULE, TYPE_NAMES.apiKey);
    }
}

/** Its outputs, one per property of `ApiKeyOutputs` (declared there, with their docs). */
export interface ApiKey extends ResourceOutputs<ApiKeyOutputs> {}
