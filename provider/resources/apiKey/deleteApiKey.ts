/** An ApiKey delete: revoke the key, confirmed by the account's listing; one already revoked is fine. */
import { confirmedDelete } from "../confirmedDelete";
import { ProviderContext } from "../../dynamic/context";
import { ApiKeyOutputs } from "./apiKeyArgs";
import { listedUnlessRevoked } from "./apiKeyRecords";

export async function deleteApiKey(ctx: ProviderContext, id: string, props: ApiKeyOutputs): Promise<void> {
    const keyId = Number(props.keyId ?? id);
    const vast = ctx.client();
    const { alreadyGone } = await confirmedDelete(
        ctx,
        { operation: "delete API key", target: String(keyId) },
        () => vast.account.deleteApiKey(keyId),
        async () => (await listedUnlessRevoked(ctx, keyId, props.accountId)) !== undefined,
    );
    ctx.log.progress(alreadyGone ? `API key ${keyId} was already revoked` : `API key ${keyId} revoked`);
}
