import { VastAuthError, VastNotFoundError } from "../errors";

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
 * A removal that was not confirmed (its answers lost after the client's retries, or a 404 that
 * does not say what is missing) is checked by reading the resource: gone in the service's own
 * words is success, still there (or unreadable) rethrows. A lost answer is not a failure to
 * delete, and a failure is never taken for gone.
 */
export async function confirmedRemoval(
    remove: () => Promise<{ alreadyGone: boolean }>,
    exists: () => Promise<boolean>,
): Promise<{ alreadyGone: boolean }> {
    try {
        return await remove();
    } catch (e) {
        if (e instanceof VastAuthError) throw e;
        const there = await exists().catch(() => true);
        if (there) throw e;
        return { alreadyGone: false };
    }
}
