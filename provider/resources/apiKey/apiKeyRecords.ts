/** An API key as the account lists it, and as a resource's outputs record it. */
import { pickInputs } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { ApiKeyRecord } from "../../schemas/apiKey";
import { sharedListing } from "../batchedReads";
import { retryIfMissing } from "../retryIfMissing";
import { assertSameAccount } from "../sameAccount";
import { API_KEY_PROPERTIES, ApiKeyInputs, ApiKeyOutputs } from "./apiKeyArgs";

/** The inputs among a resource's state or arguments. */
export const inputsOf = (props: object) => pickInputs(props as Record<string, any>, API_KEY_PROPERTIES) as unknown as ApiKeyInputs;

/** Outputs with the account the key belongs to, when known. */
export function withAccount(outs: ApiKeyOutputs, accountId: number | undefined): ApiKeyOutputs {
    return accountId === undefined ? outs : { ...outs, accountId };
}

/** Key reads in this process share the account's key listing (a refresh of many keys: one call, not one each). */
const sharedKeyReader = sharedListing((vast) => vast.account.listApiKeys());

/**
 * The key as the account lists it, or undefined only when it is revoked: left out of three
 * listings a moment apart (retryIfMissing.ts), with the key of the account that made it (`accountId`,
 * sameAccount.ts). A key left out of state still works, and the next `up` makes another.
 */
export async function listedUnlessRevoked(ctx: ProviderContext, keyId: number, accountId: number | undefined): Promise<ApiKeyRecord | undefined> {
    const look = () => sharedKeyReader(ctx.client()).get(keyId);
    const record = await retryIfMissing(ctx.clock, await look(), look);
    if (!record) await assertSameAccount(ctx, `API key ${keyId}`, accountId);
    return record;
}
