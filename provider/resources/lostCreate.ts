import { ProviderContext } from "../dynamic/context";
import { answeredLook, lookupDeadline } from "./retriedLook";
import { ProviderError } from "../errors/providerError";

// Finding what a create whose response was lost made, before anything is sent again: a create
// call has no idempotency key (docs/design/instance-create.md, "Lost responses").

/** Waits before each answered look that found nothing, at live speed. */
const ABSENT_LOOK_WAITS_MS = [0, 2000, 5000];

export interface LostCreateSearch<T> {
    /** What the create was making, for messages: `instance on offer 7`, `template "trainer"`. */
    what: string;
    /** What a person would look for in the console: `an instance labelled pulumi-vastai-7-ab12`. */
    lookFor: string;
    /** One look: what the lost create made, or undefined when nothing is there (yet). */
    look: () => Promise<T | undefined>;
    /** When to stop looking (ms since the epoch), if later than retriedLook.ts's own deadline. */
    deadlineAt?: number;
    /** Something was most likely made: answered looks that find nothing do not end the search, the deadline does. */
    untilFound?: boolean;
    /** What to do when the look cannot settle it, if not to remove it in the console and run `pulumi up` again. */
    whenUndecided?: string;
}

/** The lookup after a lost create could not tell, before the deadline, whether anything was made. */
export class LostCreateUndecidedError extends ProviderError {
    constructor(search: LostCreateSearch<unknown>, lastError: unknown) {
        super(
            "lost_create_undecided",
            `vastai: the answer to the create of ${search.what} was lost, and looking for what it made could not ` +
                `settle it before the deadline (last: ${(lastError as Error)?.message ?? lastError}). It was not sent again, so ` +
                `nothing is paid twice. ${search.whenUndecided ?? `Look in the Vast.ai console for ${search.lookFor}: if there is one, remove it there; then run \`pulumi up\` again`}`,
            { cause: lastError },
        );
    }
}

/**
 * Looks for what a lost create made. Returns it, or undefined once enough answered looks found
 * nothing. Throws `LostCreateUndecidedError` when a look cannot be answered (see `answeredLook`).
 */
export async function findLostCreate<T>(ctx: Pick<ProviderContext, "clock" | "log">, search: LostCreateSearch<T>): Promise<T | undefined> {
    const { clock } = ctx;
    const deadlineAt = Math.max(search.deadlineAt ?? 0, lookupDeadline(clock));
    const undecided = (e: unknown) => new LostCreateUndecidedError(search, e);
    let absentLooks = 0;
    // Every try waits its turn, a failed one's retry too: the service may still be making it.
    const look = async () => {
        await clock.sleep(ABSENT_LOOK_WAITS_MS[absentLooks]);
        return search.look();
    };
    for (;;) {
        const found = await answeredLook(ctx, look, deadlineAt, `looking for ${search.lookFor}`, undecided);
        if (found !== undefined) return found;
        if (!search.untilFound && ++absentLooks >= ABSENT_LOOK_WAITS_MS.length) return undefined;
        if (search.untilFound) {
            absentLooks = Math.min(absentLooks + 1, ABSENT_LOOK_WAITS_MS.length - 1);
            if (clock.now() + clock.scaled(ABSENT_LOOK_WAITS_MS[absentLooks]) >= deadlineAt) throw undecided(new ProviderError("lost_create_undecided", "it was not found before the deadline"));
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
