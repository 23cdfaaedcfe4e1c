import { VastAuthError, VastConfigError, VastNotFoundError, VastRequestRejectedError } from "../errors";

/**
 * Runs a delete or destroy. One whose target is already gone (a not-found answer) has done what
 * was asked: reported, not thrown. Anything else, an auth error included, is thrown.
 */
export async function removal(call: () => Promise<unknown>): Promise<{ alreadyGone: boolean }> {
    try {
        await call();
        return { alreadyGone: false };
    } catch (e) {
        if (e instanceof VastNotFoundError) return { alreadyGone: true };
        throw e;
    }
}

/**
 * A removal checked by reading the resource (`exists`) whenever its response does not prove it done:
 * - answers lost after the client's retries: gone in the service's own words is success, still
 *   there (or unreadable) rethrows. A lost response is not a failure to delete.
 * - a not-found answer: it may be about something else (a 404 naming another resource, a proxy's
 *   page), so it is believed only when a read agrees. Still there (or unreadable) throws, and the
 *   resource stays in state: a running instance is never let go on one response.
 * A failure is never taken for gone. A read that fails on the configuration (the key is not the
 * resource's account's) fails the removal with its own message: the key is what to change.
 */
export async function confirmedRemoval(
    what: { operation: string; target: string },
    remove: () => Promise<{ alreadyGone: boolean }>,
    exists: () => Promise<boolean>,
): Promise<{ alreadyGone: boolean }> {
    let outcome: { alreadyGone: boolean };
    try {
        outcome = await remove();
    } catch (e) {
        if (e instanceof VastAuthError) throw e;
        const there = await exists().catch((readError: Error) => {
            if (readError instanceof VastConfigError) throw readError;
            return true;
        });
        if (there) throw e;
        return { alreadyGone: false };
    }
    if (!outcome.alreadyGone) return outcome;
    let readError: Error | undefined;
    const there = await exists().catch((e: Error) => {
        if (e instanceof VastConfigError) throw e;
        readError = e;
        return true;
    });
    if (!there) return outcome;
    const check = readError ? `reading it to make sure failed (${readError.message})` : "a read still finds it";
    throw new VastRequestRejectedError(
        what,
        `the service answered that it is not found, but ${check}; it stays in state. ` +
            "Run the command again; should this persist, remove it in the Vast.ai console, then run `pulumi refresh`",
        "delete_unconfirmed",
    );
}
