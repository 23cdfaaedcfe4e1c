import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ComputedOutputs, SameKeys, computedOf, prop, propertiesOf } from "../../dynamic/properties";
import { PERMISSION_NAMES, Permissions, permissionsSchema } from "../../schemas/permissions";
import { PermissionsBuilder } from "./permissionsBuilder";

/**
 * At least one category: how the service reads an empty set is not documented, and it must not
 * turn out to mean "everything". Checked on the names as given, before `permissionsSchema`
 * checks each of them.
 */
const grantsSomething = z.looseObject({
    /**
     * The categories granted, by name (docs/resources/api-key.md lists them), each `{}` for the whole
     * category or its rules per endpoint, `{ "api.instance.destroy": { constraints: { id: { eq: 1227 } } } }`.
     */
    api: z.record(z.string(), z.unknown()).refine((api) => Object.keys(api).length > 0, "grant at least one permission category"),
});

/** An API key's properties, each declared once, with what `check` validates. A key cannot be edited: any change replaces it. */
export const apiKeyArgsSchema = z.strictObject({
    /** Shown in the console's key list. */
    name: prop(z.string().min(1, "must not be empty"), { wire: "name", onChange: "replace" }),
    /** What the key may do: a `PermissionsBuilder` or the object `{ api: { user_read: {}, ... } }`. */
    permissions: prop(grantsSomething.pipe(permissionsSchema), { wire: "permissions", onChange: "replace" }),
});

/**
 * An API key's arguments in a Pulumi program. Written out rather than derived from the schema:
 * `permissions` also takes a `PermissionsBuilder`, which the resource builds before `check` sees it.
 */
export interface ApiKeyArgs {
    /** Shown in the console's key list. */
    name: pulumi.Input<string>;
    /** What the key may do: a `PermissionsBuilder` or the object `{ api: { user_read: {}, ... } }`. */
    permissions: pulumi.Input<Permissions> | PermissionsBuilder;
}
true satisfies SameKeys<ApiKeyArgs, z.input<typeof apiKeyArgsSchema>>;

/** Inputs after `check`. */
export type ApiKeyInputs = z.output<typeof apiKeyArgsSchema>;

/** Outputs: the inputs, the key's numeric id, and its secret, which the service shows only once. */
export interface ApiKeyOutputs extends ApiKeyInputs {
    /** The service's numeric id; the Pulumi id too. */
    keyId: number;
    /** The key itself. Secret in state (`additionalSecretOutputs`); absent when its create's answer was lost (the next `up` replaces the key). */
    key?: string;
    /**
     * The account the key belongs to: the stack's key's account, asked once per process. Another
     * account's API key lists none of this account's keys, so a refresh or delete with one fails,
     * naming both accounts, instead of taking a live key as revoked. Absent when it could not be told.
     */
    accountId?: number;
}

export const API_KEY_PROPERTIES = propertiesOf(apiKeyArgsSchema);

/** Properties the provider computes, never accepted as inputs; the provider's outputs are plain, so `key` is made secret here. */
export const API_KEY_COMPUTED_OUTPUTS = { keyId: {}, key: { secret: true }, accountId: {} } as const satisfies ComputedOutputs<ApiKeyOutputs, ApiKeyInputs>;
export const API_KEY_COMPUTED = computedOf(API_KEY_COMPUTED_OUTPUTS);

/** For "did you mean" on a misspelt category. */
export const API_KEY_KNOWN_NAMES = { "permissions.api": PERMISSION_NAMES } as const;
