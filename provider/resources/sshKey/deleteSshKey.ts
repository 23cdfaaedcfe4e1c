/** An SshKey delete: remove the key from the account, confirmed by its listing; one already gone is fine. */
import { confirmedDelete } from "../confirmedDelete";
import { ProviderContext } from "../../dynamic/context";
import { SshKeyOutputs } from "./sshKeyArgs";
import { listedUnlessRemoved } from "./sshKeyRecords";

export async function deleteSshKey(ctx: ProviderContext, id: string, props: SshKeyOutputs): Promise<void> {
    const sshKeyId = Number(props.sshKeyId ?? id);
    const vast = ctx.client();
    const { alreadyGone } = await confirmedDelete(
        ctx,
        { operation: "delete SSH key", target: String(sshKeyId) },
        () => vast.sshKeys.delete(sshKeyId),
        async () => (await listedUnlessRemoved(ctx, sshKeyId, props.accountId)) !== undefined,
    );
    ctx.log.progress(alreadyGone ? `SSH key ${sshKeyId} was already removed` : `SSH key ${sshKeyId} removed from the account`);
}
