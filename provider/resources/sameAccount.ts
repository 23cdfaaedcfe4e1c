import { VastAuthError, VastConfigError } from "../client/errors";
import { ProviderContext } from "../dynamic/context";

/**
 * The one home of "whose key is this". Another account's key does not see a private template, an
 * instance, an SSH key or an API key: to it they look deleted. A refresh would drop them from
 * state (a delete call it done) while they are still there, an instance still billed, an API key
 * still working. So the account a resource was made by is kept in state (a template's `creatorId`,
 * the others' `accountId`), and compared with the key's account before anything counts as gone.
 */

/**
 * Before something counts as gone: the API key is the account's that made it (`owner`, kept in
 * state). Asked only then (the current user, once per process). When state does not know the
 * owner (an instance's create records the key's mark only, to stay one call, until another key
 * of the account reads it; a key without `user_read` never tells it), it may know that key's mark
 * (`keyMark`): the same key sees what it made, so only another key's "not found" is doubted,
 * since nothing tells the account it was made with. Nothing to compare when state knows neither
 * (state from before either was kept).
 */
export async function assertSameAccount(
    ctx: Pick<ProviderContext, "currentUserId" | "keyMark">,
    what: string,
    owner: number | undefined,
    madeWithKey?: string,
): Promise<void> {
    if (owner === undefined) {
        if (madeWithKey === undefined || madeWithKey === ctx.keyMark()) return;
        throw new VastConfigError(
            `${what} was made (or last read) with another API key (mark ${madeWithKey}; this one's is ${ctx.keyMark()}), whose account state does not record yet, ` +
                "and the key in use cannot see it: it is not taken as deleted, since another account's key sees nothing either. " +
                "Set vastai:apiKey (or VAST_API_KEY) to that key, whose \"not found\" is believed. " +
                "If it is really gone and that key is no more, `pulumi state delete` the resource",
            "key_of_other_account",
        );
    }
    let me: number;
    try {
        me = await ctx.currentUserId();
    } catch (e) {
        if (!(e instanceof VastAuthError)) throw e;
        throw new VastConfigError(
            `${what} was made by account ${owner}, and the API key in use cannot see it nor tell its own account (${e.message}): ` +
                `it is not taken as deleted. Set vastai:apiKey (or VAST_API_KEY) to a key of account ${owner} with the "user_read" permission`,
            "key_of_other_account",
        );
    }
    if (me === owner) return;
    // A VastConfigError: what fixes it is the key, not running the command again.
    throw new VastConfigError(
        `${what} was made by account ${owner}, but the API key in use is account ${me}'s, which cannot see it: ` +
            `it is not taken as deleted. Set vastai:apiKey (or VAST_API_KEY) to a key of account ${owner}`,
        "key_of_other_account",
    );
}

/**
 * How long a create that has made its resource (or a read that found one) still waits for the key's account: 5 s at live
 * speed, and never less than 1 s of real time, so that at a test's or the bench's small time scale
 * an ordinary answer that is a moment late is still recorded.
 */
const ACCOUNT_WAIT_MS = 5000;
const ACCOUNT_WAIT_FLOOR_MS = 1000;

/**
 * The key's account, to record beside what it makes; undefined when it cannot be told (a key
 * without `user_read`, or the look-up failed), which only leaves that resource without the check.
 * Asked once per process.
 */
export async function keyAccount(ctx: Pick<ProviderContext, "currentUserId">): Promise<number | undefined> {
    try {
        return await ctx.currentUserId();
    } catch {
        return undefined;
    }
}

/** What state knows of who made a resource: its account, or else the mark of the key that made it. */
export interface CreatedBy {
    accountId?: number;
    keyMark?: string;
}

/**
 * Who made a resource, for its state: the key's account (`accountOnceMade`), or, when that cannot
 * be told, the key's mark, so that only another key's "not found" is doubted (`assertSameAccount`).
 */
export async function createdBy(ctx: Pick<ProviderContext, "clock" | "keyMark">, account: Promise<number | undefined>): Promise<CreatedBy> {
    const accountId = await accountOnceMade(ctx, account);
    return accountId === undefined ? { keyMark: ctx.keyMark() } : { accountId };
}

/**
 * The account `keyAccount` tells, for a create that has made its resource or a read that found
 * one: undefined when the look-up has not answered within ACCOUNT_WAIT_MS. What was made (a billed
 * instance, a live key) reaches state now rather than after the look-up's retries (minutes when it
 * goes unanswered), and a refresh is not held up by them; a later refresh records the account then.
 */
export async function accountOnceMade(ctx: Pick<ProviderContext, "clock">, account: Promise<number | undefined>): Promise<number | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(ctx.clock.scaled(ACCOUNT_WAIT_MS), ACCOUNT_WAIT_FLOOR_MS))));
    try {
        return await Promise.race([account, waited]);
    } finally {
        clearTimeout(timer);
    }
}
