import { ProviderContext } from "../dynamic/context";

/**
 * Before something counts as gone: the API key is the account's that made it (`owner`, kept in
 * state). Another account's key does not see a private template, and a refresh would drop it from
 * state (a delete call it done) while it is still there. Asked only then (the current user, once
 * per process); nothing to compare when state does not know the owner. A template's is in state
 * (`creatorId`); an instance's is not yet, so instances do not use it.
 */
export async function assertSameAccount(ctx: Pick<ProviderContext, "currentUserId">, what: string, owner: number | undefined): Promise<void> {
    if (owner === undefined) return;
    const me = await ctx.currentUserId();
    if (me === owner) return;
    throw new Error(
        `vastai: ${what} was made by account ${owner}, but the API key in use is account ${me}'s, which cannot see it: ` +
            `it is not taken as deleted. Set vastai:apiKey (or VAST_API_KEY) to a key of account ${owner}`,
    );
}
