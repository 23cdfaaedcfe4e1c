import { confirmedRemoval } from "../client/api/removal";
import { VastRequestRejectedError } from "../client/errors";
import { ProviderContext } from "../dynamic/context";
import { answeredLook, lookupDeadline } from "./retriedLook";

/** How often a delete answered done looks again while the resource is still there, at live speed (the volume endpoints' pace). */
const LOOK_AGAIN_MS = 5_500;

export interface DeleteConfirmation {
    /**
     * An answer of success is believed only when `exists` agrees, looked at again while it still
     * finds the resource until this long (live) has passed; then the delete fails and the resource
     * stays in state. For what is billed while it exists (docs/resources/volume.md). Left out, the
     * answer alone is taken.
     */
    successConfirmedWithinMs?: number;
}

/**
 * A delete confirmed as `confirmedRemoval` does, its confirming read tried again while it fails,
 * as a lost create's look is (retriedLook.ts): a delete that took effect is not reported failed,
 * and what is gone not kept in state, because one read was refused. With `successConfirmedWithinMs`,
 * an answer of success is confirmed by a read too.
 */
export async function confirmedDelete(
    ctx: Pick<ProviderContext, "clock" | "log">,
    what: { operation: string; target: string },
    remove: () => Promise<{ alreadyGone: boolean }>,
    exists: () => Promise<boolean>,
    confirmation: DeleteConfirmation = {},
): Promise<{ alreadyGone: boolean }> {
    // From the first confirming read, not the delete's start: a delete's own retries may have taken minutes.
    let deadlineAt: number | undefined;
    const doing = `the read confirming ${what.operation} ${what.target}`;
    const answeredExists = () => answeredLook(ctx, exists, (deadlineAt ??= lookupDeadline(ctx.clock)), doing, (e) => e);
    const outcome = await confirmedRemoval(what, remove, answeredExists);
    if (!outcome.alreadyGone && confirmation.successConfirmedWithinMs !== undefined) await goneAfterSuccess(ctx, what, answeredExists, confirmation.successConfirmedWithinMs);
    return outcome;
}

/** After an answer of success: returns once `exists` finds nothing; throws, leaving the resource in state, when it still finds it after `withinMs` (live). */
async function goneAfterSuccess(ctx: Pick<ProviderContext, "clock" | "log">, what: { operation: string; target: string }, exists: () => Promise<boolean>, withinMs: number): Promise<void> {
    const deadlineAt = ctx.clock.now() + ctx.clock.scaled(withinMs);
    let warned = false;
    while (await exists()) {
        if (ctx.clock.now() + ctx.clock.scaled(LOOK_AGAIN_MS) > deadlineAt) {
            throw new VastRequestRejectedError(
                what,
                `the service answered that it is deleted, but a read still finds it after ${Math.round(withinMs / 1000)} s; it stays in state, and is billed while it exists. ` +
                    "Run the command again (`pulumi destroy` or `pulumi up`); should this persist, delete it in the Vast.ai console, then run `pulumi refresh`",
                "delete_unconfirmed",
            );
        }
        if (!warned) ctx.log.warn(`${what.operation} ${what.target}: the service answered that it is deleted, but a read still finds it; looking again for up to ${Math.round(withinMs / 1000)} s`);
        warned = true;
        await ctx.clock.sleep(LOOK_AGAIN_MS);
    }
}
