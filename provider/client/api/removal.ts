import { VastNotFoundError } from "../errors";

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
