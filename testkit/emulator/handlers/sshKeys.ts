import { EmuResponse, fail, ok } from "../response";
import { EmuSshKey } from "../model";
import { HandlerContext, isObject } from "./context";

/**
 * The account's SSH keys (docs/live-service.md "SSH keys"). The listing is a bare array of records.
 *
 * The same key twice is refused with a 400: the notes do not say what the live service does, but
 * the console lists keys by their text and an account's keys are a set, so a duplicate is most
 * likely refused rather than stored again. A client that adopts by key text needs it to be unique.
 */
function view(key: EmuSshKey): Record<string, unknown> {
    return { id: key.id, user_id: key.userId, public_key: key.publicKey, created_at: key.createdAt / 1000 };
}

function ownKeys(ctx: HandlerContext): EmuSshKey[] {
    return [...ctx.emu.model.sshKeys.values()].filter((k) => k.userId === ctx.caller.user.id);
}

export function listSshKeys(ctx: HandlerContext): EmuResponse {
    return ok(ownKeys(ctx).map(view));
}

export function createSshKey(ctx: HandlerContext): EmuResponse {
    const text = isObject(ctx.body) && typeof ctx.body.ssh_key === "string" ? ctx.body.ssh_key.trim() : "";
    if (text === "") return fail(400, "no_ssh_key", "ssh_key is required");
    if (ownKeys(ctx).some((k) => k.publicKey === text)) return fail(400, "duplicate_ssh_key", "this SSH key is already on the account");
    const key = ctx.emu.model.addSshKey(ctx.caller.user.id, text, ctx.now);
    return ok({ success: true, key: view(key) });
}

export function deleteSshKey(ctx: HandlerContext): EmuResponse {
    const key = ctx.emu.model.sshKeys.get(Number(ctx.params[0]));
    // The service's API reference: a key not found, or not the account's, is a 400 `no_ssh_key`, not a
    // 404. Before, the emulator answered 404 not_found, a "gone" the live service never says here.
    if (!key || key.userId !== ctx.caller.user.id) return fail(400, "no_ssh_key", "No ssh key provided");
    ctx.emu.model.sshKeys.delete(key.id);
    return ok({ success: true });
}
