/** An SSH key as the account lists it, and as a resource's outputs record it. */
import { pickInputs } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { SshKeyRecord } from "../../schemas/sshKey";
import { sharedListing } from "../batchedReads";
import { retryIfMissing } from "../retryIfMissing";
import { assertSameAccount } from "../sameAccount";
import { SSH_KEY_PROPERTIES, SshKeyInputs, SshKeyOutputs } from "./sshKeyArgs";

/** The inputs among a resource's state or arguments. */
export const inputsOf = (props: object) => pickInputs(props as Record<string, any>, SSH_KEY_PROPERTIES) as unknown as SshKeyInputs;

/** Outputs: the key, its id, and the account holding it when known. */
export function outputsOf(publicKey: string, sshKeyId: number, accountId: number | undefined): SshKeyOutputs {
    return accountId === undefined ? { publicKey, sshKeyId } : { publicKey, sshKeyId, accountId };
}

/** Key reads in this process share the account's key listing (a refresh of many keys: one call, not one each). */
const sharedKeyReader = sharedListing((vast) => vast.sshKeys.list());

/**
 * The key as the account lists it, or undefined only when it is removed: left out of three
 * listings a moment apart (retryIfMissing.ts), with the key of the account that holds it (`accountId`,
 * sameAccount.ts). A key left out of state stays on the account, added to every new instance.
 */
export async function listedUnlessRemoved(ctx: ProviderContext, sshKeyId: number, accountId: number | undefined): Promise<SshKeyRecord | undefined> {
    const look = () => sharedKeyReader(ctx.client()).get(sshKeyId);
    const record = await retryIfMissing(ctx.clock, await look(), look);
    if (!record) await assertSameAccount(ctx, `SSH key ${sshKeyId}`, accountId);
    return record;
}
