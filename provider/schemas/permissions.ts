import { z } from "zod";

/**
 * Permission categories a scoped API key can hold (docs `permissions.mdx`; the contract names
 * `misc`, `user_read`, `instance_read` and `instance_write`).
 */
export const PERMISSION_NAMES = [
    "instance_read",
    "instance_write",
    "user_read",
    "user_write",
    "billing_read",
    "billing_write",
    "machine_read",
    "machine_write",
    "misc",
    "team_read",
    "team_write",
] as const;

export type PermissionName = (typeof PERMISSION_NAMES)[number];

export const permissionNameSchema = z.enum(PERMISSION_NAMES);

/**
 * The permission object of a scoped key: `{ api: { user_read: {}, instance_write: { constraints: ... } } }`.
 * Each category maps to an object that may carry constraints; they are passed through untouched.
 */
/**
 * One endpoint's rule in a category: `{ constraints: { <parameter>: { <operator>: value } } }`.
 * Only the shape is checked (a constraint that is not an object would fail at the service, after
 * the preview said nothing); the rest goes through as given.
 */
const endpointRuleSchema = z.looseObject({
    constraints: z
        .record(z.string(), z.record(z.string(), z.unknown(), "must be an object of operators, e.g. { eq: 1227 }"), "must be an object of parameters, e.g. { id: { eq: 1227 } }")
        .optional(),
});

export const permissionsSchema = z.strictObject({
    api: z.partialRecord(permissionNameSchema, z.record(z.string(), endpointRuleSchema, "must be an object of endpoint rules, e.g. {} or { \"api.instance.destroy\": { constraints: { id: { eq: 1227 } } } }")),
});

export type Permissions = z.infer<typeof permissionsSchema>;
