import { confirmedRemoval } from "../client/api/removal";
import { ProviderContext } from "../dynamic/context";
import { answeredLook, lookupDeadline } from "./retriedLook";

/**
 * A delete confirmed as `confirmedRemoval` does, its confirming read tried again while it fails,
 * as a lost create's look is (retriedLook.ts): a delete that took effect is not reported failed,
 * and what is gone not kept in state, because one read was refused.
 */
export function confirmedDelete(
    ctx: Pick<ProviderContext, "clock" | "log">,
    what: { operation: string; target: string },
    remove: () => Promise<{ alreadyGone: boolean }>,
    exists: () => Promise<boolean>,
): Promise<{ alreadyGone: boolean }> {
    // From the first confirming read, not the delete's start: a delete's own retries may have taken minutes.
    let deadlineAt: number | undefined;
    const doing = `the read confirming ${what.operation} ${what.target}`;
    return confirmedRemoval(what, remove, () => answeredLook(ctx, exists, (deadlineAt ??= lookupDeadline(ctx.clock)), doing, (e) => e));
}
