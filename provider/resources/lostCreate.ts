import { VastAuthError, VastConfigError } from "../client/errors";
import { Clock, ProviderContext } from "../dynamic/context";

// Finding what a create whose response was lost made, before anything is sent again: a create
// call has no idempotency key (docs/design/instance-create.md, "Lost responses").

/** Waits before each answered look that found nothing, at live speed. */
const ABSENT_LOOK_WAITS_MS = [0, 2000, 5000];
/** Backoff between failed looks, at live speed. */
const FAILED_LOOK_BACKOFF_MS = { first: 500, max: 10_000 };
/**
 * Refusals of the key in a row that end the look. The key was taken for the create a moment
 * before, so one refusal may be the service's slip, and a look given up leaves what the create
 * made outside state; a key refused this often is refused (revoked, or without `instance_read`).
 */
export const KEY_REFUSALS_TRUSTED = 3;
/** How long a lost create is looked for at least, from the loss, at live speed. */
const DEFAULT_LOOKUP_MS = 5 * 60_000;

export interface LostCreateSearch<T> {
    /** What the create was making, for messages: `instance on offer 7`, `template "trainer"`. */
    what: string;
    /** What a person would look for in the console: `an instance labelled pulumi-vastai-7-ab12`. */
    lookFor: string;
    /** One look: what the lost create made, or undefined when nothing is there (yet). */
    look: () => Promise<T | undefined>;
    /** When to stop looking (ms since the epoch), if later than `DEFAULT_LOOKUP_MS` from now, scaled. */
    deadlineAt?: number;
    /** Something was most likely made: answered looks that find nothing do not end the search, the deadline does. */
    untilFound?: boolean;
    /** What to do when the look cannot settle it, if not to remove it in the console and run `pulumi up` again. */
    whenUndecided?: string;
}

/** The lookup after a lost create could not tell, before the deadline, whether anything was made. */
export class LostCreateUndecidedError extends Error {
    constructor(search: LostCreateSearch<unknown>, lastError: unknown) {
        super(
            `vastai: the answer to the create of ${search.what} was lost, and looking for what it made could not ` +
                `settle it before the deadline (last: ${(lastError as Error)?.message ?? lastError}). It was not sent again, so ` +
                `nothing is paid twice. ${search.whenUndecided ?? `Look in the Vast.ai console for ${search.lookFor}: if there is one, remove it there; then run \`pulumi up\` again`}`,
            { cause: lastError },
        );
        this.name = "LostCreateUndecidedError";
    }
}

/** The earliest lookup deadline, from now, at the clock's time scale. */
function defaultLookupDeadline(clock: Clock): number {
    return clock.now() + clock.scaled(DEFAULT_LOOKUP_MS);
}

/**
 * Looks for what a lost create made. Returns it, or undefined once enough answered looks found
 * nothing. Throws `LostCreateUndecidedError` when looks keep failing until the deadline, at once
 * for a configuration no retry mends, and after `KEY_REFUSALS_TRUSTED` refusals of the key in a row.
 */
export async function findLostCreate<T>(ctx: Pick<ProviderContext, "clock" | "log">, search: LostCreateSearch<T>): Promise<T | undefined> {
    const { clock, log } = ctx;
    const deadlineAt = Math.max(search.deadlineAt ?? 0, defaultLookupDeadline(clock));
    let absentLooks = 0;
    let failedLooks = 0;
    let keyRefusals = 0;
    for (;;) {
        await clock.sleep(ABSENT_LOOK_WAITS_MS[absentLooks]);
        try {
            const found = await search.look();
            if (found !== undefined) return found;
            failedLooks = 0;
            keyRefusals = 0;
            if (!search.untilFound && ++absentLooks >= ABSENT_LOOK_WAITS_MS.length) return undefined;
            if (search.untilFound) {
                absentLooks = Math.min(absentLooks + 1, ABSENT_LOOK_WAITS_MS.length - 1);
                if (clock.now() + clock.scaled(ABSENT_LOOK_WAITS_MS[absentLooks]) >= deadlineAt) {
                    throw new LostCreateUndecidedError(search, new Error("it was not found before the deadline"));
                }
            }
        } catch (e) {
            if (e instanceof LostCreateUndecidedError) throw e;
            // What may have been made is still named when the look gives up.
            if (e instanceof VastConfigError) throw new LostCreateUndecidedError(search, e);
            if (e instanceof VastAuthError && ++keyRefusals >= KEY_REFUSALS_TRUSTED) throw new LostCreateUndecidedError(search, e);
            if (!(e instanceof VastAuthError)) keyRefusals = 0;
            failedLooks++;
            const backoff = Math.min(FAILED_LOOK_BACKOFF_MS.max, FAILED_LOOK_BACKOFF_MS.first * 2 ** (failedLooks - 1));
            if (clock.now() + clock.scaled(backoff) >= deadlineAt) throw new LostCreateUndecidedError(search, e);
            log.warn(`looking for ${search.lookFor} failed (${(e as Error).message}); trying again`);
            await clock.sleep(backoff);
        }
    }
}

/** The creates on their way in this process, by what their lookups match on (see `oneCreateAtATime`). */
const createsByMark = new Map<string, Promise<unknown>>();

/**
 * Runs creates whose lost answers would be looked for by the same marks (an API key's name; a
 * template's name and image) one after another in this process. A lost create looks for what
 * matches its marks and was made since it was sent: a create of the same marks still on its way
 * (made, its answer not yet back) would be taken for it, and both resources would hold one thing,
 * which deleting either deletes under the other. Different marks run side by side.
 */
export async function oneCreateAtATime<T>(mark: string, create: () => Promise<T>): Promise<T> {
    const turn = (createsByMark.get(mark) ?? Promise.resolve()).catch(() => undefined).then(create);
    createsByMark.set(mark, turn);
    try {
        return await turn;
    } finally {
        if (createsByMark.get(mark) === turn) createsByMark.delete(mark);
    }
}
