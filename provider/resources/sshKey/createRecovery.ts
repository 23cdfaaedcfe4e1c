/** What a failed SSH key add leaves: the key a lost or unreadable response made, adopted; or the refusal explained. */
import { keyTarget } from "../../client/api/sshKeys";
import { VastInvalidArgsError, VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { ProviderContext } from "../../dynamic/context";
import { SshKeyRecord } from "../../schemas/sshKey";
import { findLostCreate } from "../lostCreate";
import { ProviderError } from "../../errors/providerError";

/** Keys this process made: a lost create of another resource never takes them for its own. */
export const createdHere = new Set<number>();

/**
 * After a create whose response was lost: the key with our text that the account did not list
 * just before the create (`before`); the account holds a key text once (docs/design/key-lost-create.md).
 */
async function findLostKey(ctx: ProviderContext, vast: VastClient, publicKey: string, sentAt: number, before: ReadonlySet<number>): Promise<SshKeyRecord | undefined> {
    return findLostCreate(ctx, {
        what: `SSH key ${keyTarget(publicKey)}`,
        lookFor: `an SSH key ${keyTarget(publicKey)} that the account did not list just before the create (sent ${new Date(sentAt).toISOString()})`,
        look: async () => (await vast.sshKeys.list()).find((k) => k.public_key.trim() === publicKey && !before.has(k.id) && !createdHere.has(k.id)),
    });
}

/** A key that cannot be added because the account has its text already: which one, and what to do (an import cannot reach a dynamic resource). */
export function alreadyOnAccount(publicKey: string, existing: SshKeyRecord): Error {
    // Removing it would take it from the SshKey that holds it; two resources cannot hold one text.
    if (createdHere.has(existing.id)) {
        return new ProviderError(
            "already_on_account",
            `vastai: add SSH key ${keyTarget(publicKey)} failed: another SshKey of this program holds this key text already (SSH key ${existing.id}), ` +
                "and the account holds a key text once: keep one SshKey for it (one that replaces another of the same text, a renamed resource, needs `aliases` with the old name, or `deleteBeforeReplace: true`)",
        );
    }
    return new ProviderError(
        "already_on_account",
        `vastai: add SSH key ${keyTarget(publicKey)} failed: the account has this key already, as SSH key ${existing.id}, and holds a key text once. ` +
            "If another SshKey (of this stack or another) holds it, keep that one and leave this SshKey out of the program: the instances get the account's keys either way. " +
            `If this SshKey replaces one of the same text (a renamed resource, or \`--replace\`), give it \`aliases\` with the old name, or the option \`deleteBeforeReplace: true\`. ` +
            `Otherwise remove SSH key ${existing.id} in the Vast.ai console (or \`vastai delete ssh-key ${existing.id}\`) and run \`pulumi up\` again`,
    );
}

/**
 * "SSH key could not be retrieved." (a 400, the service's API reference calls it a "retrieval
 * failure"): the key may have been added and only reading it back failed, so it is looked for.
 */
function madeButNotReadBack(e: unknown): boolean {
    return e instanceof VastInvalidArgsError && /ssh key could not be retrieved/i.test(`${e.serviceCode ?? ""} ${e.serviceMessage ?? ""}`);
}

/** After a failed add: the key it made when its response was lost or unreadable; otherwise throws what to do. */
export async function recoverFailedAdd(ctx: ProviderContext, vast: VastClient, e: unknown, publicKey: string, sentAt: number, before: ReadonlySet<number>): Promise<SshKeyRecord> {
    // Made, but its response lost or unreadable: the key it made is looked for, and adopted.
    const lost = e instanceof VastOutcomeUnknownError || madeButNotReadBack(e) ? await findLostKey(ctx, vast, publicKey, sentAt, before) : undefined;
    if (lost) {
        ctx.log.progress(`the answer to adding SSH key ${keyTarget(publicKey)} was lost or could not be read back; found it on the account as key ${lost.id}`);
        return lost;
    }
    if (e instanceof VastOutcomeUnknownError) {
        throw new ProviderError("lost_create_not_made", `${e.message}. No such key was found on the account afterwards; run \`pulumi up\` again`, { cause: e });
    }
    if (e instanceof VastInvalidArgsError) {
        // Most likely added meanwhile by hand (or by another stack): say which.
        const added = (await vast.sshKeys.list().catch(() => [])).find((k) => k.public_key.trim() === publicKey);
        if (!added) throw e;
        throw Object.assign(alreadyOnAccount(publicKey, added), { cause: e });
    }
    throw e;
}
