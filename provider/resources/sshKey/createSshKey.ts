/** An SshKey create, its steps in order: refuse a text the account has, send the add, recover a lost response, map the response to outputs. */
import { keyTarget } from "../../client/api/sshKeys";
import { ProviderContext } from "../../dynamic/context";
import { SshKeyRecord } from "../../schemas/sshKey";
import { oneCreateAtATime } from "../lostCreate";
import { SshKeyInputs, SshKeyOutputs } from "./sshKeyArgs";
import { inputsOf, outputsOf } from "./sshKeyRecords";
import { alreadyOnAccount, createdHere, recoverFailedAdd } from "./createRecovery";

export async function createSshKey(ctx: ProviderContext, inputs: SshKeyInputs): Promise<{ id: string; outs: SshKeyOutputs }> {
    const { publicKey } = inputsOf(inputs);
    // One text at a time: a lost create must not take the key a create of the same text is
    // still waiting for the response to; after it, the next one's listing shows that key.
    return oneCreateAtATime(`SSH key ${publicKey}`, async () => {
        const vast = ctx.client();
        // One listing before the create: a key its lost response made is one not listed here
        // (docs/design/key-lost-create.md). If it cannot be read, nothing is sent.
        const listed = await vast.sshKeys.list();
        const existing = listed.find((k) => k.public_key.trim() === publicKey);
        if (existing) throw alreadyOnAccount(publicKey, existing);
        const before = new Set(listed.map((k) => k.id));
        const sentAt = ctx.clock.now();
        let created: SshKeyRecord;
        try {
            created = await vast.sshKeys.create(publicKey);
        } catch (e) {
            created = await recoverFailedAdd(ctx, vast, e, publicKey, sentAt, before);
        }
        createdHere.add(created.id);
        ctx.log.progress(`SSH key ${created.id} ${keyTarget(publicKey)} added to the account`);
        return { id: String(created.id), outs: outputsOf(publicKey, created.id, created.user_id ?? undefined) };
    });
}
