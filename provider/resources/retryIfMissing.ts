import { Clock } from "../dynamic/context";

/** Waits before each retry, at live speed: the first read and two more, three seconds in all. */
const RETRY_WAITS_MS = [1000, 2000];

/**
 * The one home of "is it really gone" on a read. A resource that a read found missing leaves
 * state, and one that still exists does not come back: a running instance would be paid for
 * outside Pulumi, a template's next create would be answered with the one still there, and an API
 * or SSH key would stay on the account, held by no stack (an API key still working). So a read
 * that found nothing (`first` undefined) is retried twice, a moment apart; only when every read found nothing is it gone. Reads that fail throw, as any read does.
 */
export async function retryIfMissing<T>(clock: Clock, first: T | undefined, look: () => Promise<T | undefined>): Promise<T | undefined> {
    let found = first;
    for (const waitMs of RETRY_WAITS_MS) {
        if (found !== undefined) return found;
        await clock.sleep(waitMs);
        found = await look();
    }
    return found;
}
