import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { PERMISSION_NAMES, Permissions, permissionsSchema } from "../../schemas/permissions";
import { PermissionsBuilder } from "./permissionsBuilder";

/** An API key's arguments in a Pulumi program. Any change replaces the key. */
export interface ApiKeyArgs {
    /** Shown in the console's key list. */
    name: pulumi.Input<string>;
    /** What the key may do: a `PermissionsBuilder` or the object `{ api: { user_read: {}, ... } }`. */
    permissions: pulumi.Input<Permissions> | PermissionsBuilder;
}

/** Inputs after `check`. */
export interface ApiKeyInputs {
    name: string;
    permissions: Permissions;
}

/** Outputs: the inputs, the key's numeric id, and its secret, which the service shows only once. */
export interface ApiKeyOutputs extends ApiKeyInputs {
    keyId: number;
    /** Secret in state (`additionalSecretOutputs`); absent when its create's answer was lost (the next `up` replaces the key). */
    key?: string;
}

export const API_KEY_PROPERTIES = ["name", "permissions"] as const satisfies ReadonlyArray<keyof ApiKeyInputs>;

/** Properties the provider computes; never accepted as inputs. */
export const API_KEY_COMPUTED = ["keyId", "key"] as const satisfies ReadonlyArray<keyof ApiKeyOutputs>;

/**
 * At least one category: how the service reads an empty set is not documented, and it must not
 * turn out to mean "everything". Checked on the names as given, before `permissionsSchema`
 * checks each of them.
 */
const grantsSomething = z.looseObject({
    api: z.record(z.string(), z.unknown()).refine((api) => Object.keys(api).length > 0, "grant at least one permission category"),
});

/** What `check` validates. */
export const apiKeyArgsSchema = z.strictObject({
    name: z.string().min(1, "must not be empty"),
    permissions: grantsSomething.pipe(permissionsSchema),
});

/** For "did you mean" on a misspelt category. */
export const API_KEY_KNOWN_NAMES = { "permissions.api": PERMISSION_NAMES } as const;
