import { VastAuthError, VastConfigError } from "../client/errors";
import { Clock, ProviderContext } from "../dynamic/context";

// A look that must be answered before anything is decided (what a lost create made; whether a
// deleted resource is gone): a failed look proves nothing, so it is tried again until a deadline.

/** Backoff between failed looks, at live speed. */
const FAILED_LOOK_BACKOFF_MS = { first: 500, max: 10_000 };
/**
 * Refusals of the key in a row that end the look. The key was used a moment before, so one
 * refusal may be the service's slip; a key refused this often is refused (revoked, or without the
 * permission the look needs).
 */
export const KEY_REFUSALS_TRUSTED = 3;
/** How long a look is tried at least, at live speed. */
const DEFAULT_LOOKUP_MS = 5 * 60_000;

/** The earliest deadline of a look begun now, at the clock's time scale. */
export function lookupDeadline(clock: Clock): number {
    return clock.now() + clock.scaled(DEFAULT_LOOKUP_MS);
}

/**
 * `look`'s answer, the look tried again with backoff while it fails. It gives up, throwing
 * `giveUp(error)`, at once on a configuration no retry mends, after `KEY_REFUSALS_TRUSTED`
 * refusals of the key in a row, and when the next try would come after `deadlineAt`.
 * `doing`: the look, in the warning each failure prints ("looking for …").
 */
export async function answeredLook<T>(
    ctx: Pick<ProviderContext, "clock" | "log">,
    look: () => Promise<T>,
    deadlineAt: number,
    doing: string,
    giveUp: (error: unknown) => unknown,
): Promise<T> {
    const { clock, log } = ctx;
    let failedLooks = 0;
    let keyRefusals = 0;
    for (;;) {
        try {
            return await look();
        } catch (e) {
            if (e instanceof VastConfigError) throw giveUp(e);
            keyRefusals = e instanceof VastAuthError ? keyRefusals + 1 : 0;
            if (keyRefusals >= KEY_REFUSALS_TRUSTED) throw giveUp(e);
            failedLooks++;
            const backoff = Math.min(FAILED_LOOK_BACKOFF_MS.max, FAILED_LOOK_BACKOFF_MS.first * 2 ** (failedLooks - 1));
            if (clock.now() + clock.scaled(backoff) >= deadlineAt) throw giveUp(e);
            log.warn(`${doing} failed (${(e as Error).message}); trying again`);
            await clock.sleep(backoff);
        }
    }
}
