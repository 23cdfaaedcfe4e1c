/** The builder a program uses for an API key's permissions (`apiKeyPermissions("user_read")`). */
import { PermissionName, Permissions } from "../../schemas/permissions";

/**
 * What a permission category may carry: nothing (`{}`, the whole category), or rules per
 * endpoint with constraints on its parameters, passed to the service as given (docs
 * `permissions.mdx`):
 *
 *     { "api.instance.request_logs": { constraints: { id: { eq: 1227 } } } }
 */
export type PermissionRules = Record<string, { constraints?: Record<string, Record<string, unknown>>; [key: string]: unknown }>;

/**
 * Builds the permission object of a scoped key, `{ api: { user_read: {}, ... } }`, from the
 * category names the contract and the service's docs name (`PERMISSION_NAMES`):
 *
 *     apiKeyPermissions("user_read", "instance_read").grant("instance_write", {
 *         "api.instance.destroy": { constraints: { id: { eq: 1227 } } },
 *     })
 *
 * Immutable, like the filter builder; an `ApiKey` takes the builder or the object it builds.
 */
export class PermissionsBuilder {
    constructor(private readonly granted: Permissions["api"] = {}) {}

    /** Grants `category`, whole or narrowed by `rules`; granting it again replaces its rules. */
    grant(category: PermissionName, rules: PermissionRules = {}): PermissionsBuilder {
        return new PermissionsBuilder({ ...this.granted, [category]: rules });
    }

    build(): Permissions {
        return { api: JSON.parse(JSON.stringify(this.granted)) as Permissions["api"] };
    }
}

/** A permissions builder granting each of `categories` whole. */
export function apiKeyPermissions(...categories: PermissionName[]): PermissionsBuilder {
    return categories.reduce((builder, category) => builder.grant(category), new PermissionsBuilder());
}
