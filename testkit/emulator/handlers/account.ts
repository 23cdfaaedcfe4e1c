import { EmuResponse, fail, invalidArgs, ok } from "../response";
import { withinGrant } from "../auth";
import { HandlerContext, isObject } from "./context";

/** Permission categories (docs `permissions.mdx`). */
const PERMISSION_NAMES = new Set([
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
]);

/** Like the live one, this body carries the account's API key. */
export function currentUser(ctx: HandlerContext): EmuResponse {
    const u = ctx.caller.user;
    return ok({
        id: u.id,
        username: `user${u.id}`,
        email: u.email,
        credit: u.credit,
        balance: 0,
        ssh_key: u.ssh_key,
        api_key: u.apiKey,
        has_billing: true,
    });
}

/** `?user_id=<id>` as the contract names it, or `?owner=me` as the vendor CLI asks (docs/live-service.md "Host machines"). */
export function listMachines(ctx: HandlerContext): EmuResponse {
    const userId = ctx.query.get("user_id");
    const owner = ctx.query.get("owner");
    if (!userId && owner !== "me") return invalidArgs(owner ? 'owner must be "me"' : "user_id (or owner=me) is required");
    // Hosts see their own machines only; asking for someone else's gives an empty list.
    const own = userId ? Number(userId) === ctx.caller.user.id : true;
    const machines = own
        ? [...ctx.emu.model.machines.values()].filter((m) => m.ownerId === ctx.caller.user.id).map(({ ownerId: _o, ...m }) => m)
        : [];
    return ok({ machines });
}

export function listApiKeys(ctx: HandlerContext): EmuResponse {
    const apikeys = [...ctx.emu.model.keys.values()]
        .filter((k) => k.userId === ctx.caller.user.id && !k.revokedStatus)
        .map((k) => ({
            id: k.id,
            user_id: k.userId,
            key: null,
            key_type: "api",
            name: k.name,
            team_id: null,
            team_name: null,
            team_owner: null,
            ...(ctx.emu.options.apiKeyListing === "detailed" ? { permissions: k.permissions ?? null, created_at: k.createdAt / 1000 } : {}),
        }));
    return ok({ success: true, apikeys });
}

export function createApiKey(ctx: HandlerContext): EmuResponse {
    const body = ctx.body;
    if (!isObject(body) || typeof body.name !== "string" || body.name === "") return invalidArgs("name is required");
    const permissions = body.permissions;
    if (!isObject(permissions) || !isObject(permissions.api)) {
        return invalidArgs('permissions must be an object {"api": {<permission>: {...}}}');
    }
    // "Optional wildcard parameters for advanced keys": an object in the service's API reference, a
    // string from the vendor CLI's `--key_params`. What they do is not documented, so they are
    // checked and kept out of the way.
    const params = body.key_params;
    if (params !== undefined && typeof params !== "string" && !isObject(params)) return invalidArgs("key_params must be an object");
    const unknown = Object.keys(permissions.api).find((p) => !PERMISSION_NAMES.has(p));
    if (unknown) return invalidArgs(`unknown permission ${unknown}`);
    if (!withinGrant(ctx.caller.key, permissions.api)) {
        // 401, as the service's API reference documents a key "not authorized to create a key with the specified permissions".
        return fail(401, "permission_denied", "a key cannot grant permissions it does not hold");
    }
    const record = ctx.emu.model.addKey(ctx.caller.user.id, body.name, {
        api: permissions.api as Record<string, Record<string, unknown>>,
    });
    return ok({ id: record.id, key: record.key, permissions: record.permissions });
}

export function deleteApiKey(ctx: HandlerContext): EmuResponse {
    const record = ctx.emu.model.findKeyById(Number(ctx.params[0]));
    if (!record || record.userId !== ctx.caller.user.id || record.revokedStatus) {
        return fail(404, "not_found", `no API key ${ctx.params[0]}`);
    }
    record.revokedStatus = ctx.emu.options.revokedKeyStatus;
    // The live response as its API reference documents it: a text, not the `{success: true}` of other deletes.
    return ok("Successfully Deleted API Key");
}
