import { VastClient } from "../client/vastClient";

/**
 * Reads of one kind in one provider process share their calls. The engine reads many resources at
 * once (a refresh above all), and the service paces each endpoint per key (a template search every
 * 3 s), so reading them one by one is what makes a large refresh slow.
 *
 * Two ways of sharing:
 * - Rounds: every id asked for while a call is on its way waits for the next one, which fetches
 *   all of them at once (`id in [...]`). At most one call is in flight: the engine's parallel reads
 *   gather behind it, and a round costs one call whatever its size, up to `maxIds`.
 * - Read-ahead: the engine never has more than its parallelism of reads outstanding, so rounds
 *   alone still cost one call per handful of resources (25 paced searches for 200 templates). When
 *   a round follows one of several reads (a burst) and no read-ahead is usable, it asks instead
 *   for what the account has of this kind in one call (all its templates; a page of its
 *   instances), and later reads are answered from that as they come.
 * - Next pages: when reads go on missing a read-ahead that has a next page, and its last page
 *   answered at least as many reads as the round would ask by id, the round takes the next page
 *   instead (200 instances: 9 list calls, not 24). A page that answers fewer (an account with many
 *   instances outside the stack) ends the paging: by id is then the cheaper way.
 *
 * Between rounds of a burst, the next round waits a moment (`GATHER_MS`) for the engine to send as
 * many reads as the last round answered: the engine sends its next reads one by one as it gets
 * the answers, and a round started on the first of them would leave the rest to wait a whole
 * call behind it (a refresh of 200 instances made 45 list calls where 25 rounds of 8 would do).
 *
 * A read-ahead record answers a read only when it cannot be older than what a call would say, as
 * far as this process can tell: it is the first read of that id in the process (a second read,
 * say the refresh after an edit made elsewhere, asks the service again), it was taken less than
 * `READ_AHEAD_FRESH_MS` ago, and the client has sent no write since (nor had one on its way when
 * it was taken). A record missing from a read-ahead says nothing: that id is asked for by id,
 * whose answer alone may say it is gone.
 */

/** How long a read-ahead answers reads. Real time, not scaled: it bounds staleness, it is not a wait. */
export const READ_AHEAD_FRESH_MS = 10_000;
/**
 * A round that starts this soon after one of several reads ended is part of a burst: the engine
 * is reading many resources at once. Real time.
 */
const BURST_GAP_MS = 1_000;
/**
 * After a round of several reads, how long the next round waits for as many reads to gather
 * before it goes with what it has. Real time; a fraction of any round trip to the service.
 */
const GATHER_MS = 20;

export interface ReadSource<R> {
    /** The records found among `ids`, by id; an id left out has no record. */
    byIds(ids: number[]): Promise<Map<number, R>>;
    /** Ids asked for in one `byIds` call. */
    maxIds: number;
    /**
     * What the account has of this kind, as much as one call answers (`after`: the page after the
     * one whose `next` that is); undefined when it cannot be asked (`owner`, from the reads of the
     * round, is not known).
     */
    ahead?(owner: number | undefined, after?: string): Promise<AheadPage<R> | undefined>;
    /** The client's write mark (`VastClient.writeMark`). */
    writeMark(): number | undefined;
}

/** One call's worth of what the account has; `next` when there is more, for the next page. */
export interface AheadPage<R> {
    records: R[];
    next?: string;
}

interface Waiting<R> {
    resolve(record: R | undefined): void;
    reject(error: unknown): void;
}

/** A page taken, and how many reads it answered. */
interface TakenPage<R> {
    records: Map<number, R>;
    takenAt: number;
    answered: number;
}

interface ReadAhead<R> {
    /** Its pages in the order taken, each answering reads while it is fresh. */
    pages: TakenPage<R>[];
    /** The write mark every page was taken under. */
    mark: number;
    /** Where the next page starts, when there is one. */
    next?: string;
    owner: number | undefined;
}

export class BatchedReads<R extends { id: number }> {
    private readonly asked = new Map<number, Waiting<R>[]>();
    /** The owner a read passed, per asked id (templates: the creator state keeps). */
    private readonly owners = new Map<number, number>();
    /** Every id read in this process: only a first read may be answered by a read-ahead. */
    private readonly readBefore = new Set<number>();
    /**
     * Asked ids whose read is the first of that id: a page that came while they waited (taken
     * for the round before) may answer them when their round starts.
     */
    private readonly firstReads = new Set<number>();
    /** Ids a read-ahead page did not find: their next round takes the next page, or asks by id. */
    private readonly byIdOnly = new Set<number>();
    /** A round is on its way, or about to start. */
    private inFlight = false;
    /** After a round of several reads: how many reads the next round waits for, and its timer. */
    private gathering?: { want: number; since: number; timer?: ReturnType<typeof setTimeout> };
    /** When the last round of more than one read ended. */
    private lastSharedRoundEndedAt = -Infinity;
    private readAhead?: ReadAhead<R>;

    constructor(
        private readonly source: ReadSource<R>,
        private readonly now: () => number = Date.now,
        /** GATHER_MS; a test on a busy machine, whose event-loop turns can take longer, gives more. */
        private readonly gatherMs: number = GATHER_MS,
    ) {}

    /** The record with this id, or undefined when the service has none by that id. */
    get(id: number, owner?: number): Promise<R | undefined> {
        const first = !this.readBefore.has(id);
        this.readBefore.add(id);
        const ahead = first ? this.fromReadAhead(id) : undefined;
        if (ahead) return Promise.resolve(ahead);
        if (first) this.firstReads.add(id);
        return new Promise((resolve, reject) => {
            const waiting = this.asked.get(id);
            if (waiting) waiting.push({ resolve, reject });
            else this.asked.set(id, [{ resolve, reject }]);
            if (owner !== undefined) this.owners.set(id, owner);
            this.schedule();
        });
    }

    /**
     * Starts the next round unless one is on its way (it starts the next when it ends) or reads are
     * still gathering after a round of several. Reads the engine sends together arrive in the same
     * turn of the event loop: the round starts on the next turn, with all of them.
     */
    private schedule(): void {
        if (this.inFlight || this.asked.size === 0) return;
        const gathering = this.gathering;
        // Reads that come later than that are not the engine's answer to the round: no more waiting.
        const stale = gathering !== undefined && gathering.timer === undefined && this.now() - gathering.since > this.gatherMs;
        if (gathering && !stale && this.asked.size < Math.min(gathering.want, this.source.maxIds)) {
            gathering.timer ??= setTimeout(() => {
                this.gathering = undefined;
                this.schedule();
            }, this.gatherMs);
            return;
        }
        if (gathering?.timer) clearTimeout(gathering.timer);
        this.gathering = undefined;
        this.inFlight = true;
        setImmediate(() => void this.round());
    }

    /** The read-ahead while it may answer reads: no write since, and its last page fresh. */
    private usableReadAhead(): ReadAhead<R> | undefined {
        const ra = this.readAhead;
        const last = ra?.pages[ra.pages.length - 1];
        return ra && last && this.fresh(last) && this.source.writeMark() === ra.mark ? ra : undefined;
    }

    private fresh(page: { takenAt: number }): boolean {
        return this.now() - page.takenAt < READ_AHEAD_FRESH_MS;
    }

    /** The record a fresh page of the usable read-ahead holds for `id`, counted as an answer of that page. */
    private fromReadAhead(id: number): R | undefined {
        for (const page of this.usableReadAhead()?.pages ?? []) {
            const record = this.fresh(page) ? page.records.get(id) : undefined;
            if (record) {
                page.answered++;
                return record;
            }
        }
        return undefined;
    }

    /** Answers the first reads that waited while the page that holds them was on its way. */
    private answerFromReadAhead(): void {
        for (const id of this.firstReads) {
            const record = this.fromReadAhead(id);
            if (!record) continue;
            for (const w of this.asked.get(id) ?? []) w.resolve(record);
            this.asked.delete(id);
            this.owners.delete(id);
            this.firstReads.delete(id);
        }
    }

    /**
     * Whether a round of `size` reads that the read-ahead could not answer takes its next page
     * rather than asking by id: only while its last page answered at least as many reads.
     */
    private nextPageWorthIt(size: number): boolean {
        const ra = this.usableReadAhead();
        return ra?.next !== undefined && ra.pages[ra.pages.length - 1].answered >= size;
    }

    private async round(): Promise<void> {
        this.answerFromReadAhead();
        if (this.asked.size === 0) {
            this.inFlight = false;
            return;
        }
        const ids = [...this.asked.keys()].slice(0, this.source.maxIds);
        const round = ids.map((id) => [id, this.asked.get(id)!] as const);
        const owner = ids.map((id) => this.owners.get(id)).find((o) => o !== undefined);
        for (const id of ids) {
            this.asked.delete(id);
            this.owners.delete(id);
            this.firstReads.delete(id);
        }
        const inBurst = this.now() - this.lastSharedRoundEndedAt < BURST_GAP_MS;
        let tookReadAhead = false;
        try {
            let found: TakenPage<R> | undefined;
            if (inBurst) {
                // A usable read-ahead already answered what it could: these are reads it cannot
                // answer, unless its next page does (an id a page lacked may be on a later one).
                // A fresh read-ahead is not taken for an id one lacked: that would go round for ever.
                if (!this.usableReadAhead() && ids.every((id) => !this.byIdOnly.has(id))) found = await this.takeReadAhead(owner);
                else if (this.nextPageWorthIt(ids.length)) found = await this.takeNextPage();
                tookReadAhead = found !== undefined;
            }
            if (found) {
                for (const [id, waiting] of round) {
                    const record = found.records.get(id);
                    if (record) {
                        found.answered++;
                        this.byIdOnly.delete(id);
                        for (const w of waiting) w.resolve(record);
                    } else {
                        // Not in this page: the next page, or by id, in the next round.
                        this.byIdOnly.add(id);
                        this.asked.set(id, [...waiting, ...(this.asked.get(id) ?? [])]);
                    }
                }
            } else {
                // The client retries what can be retried; a failure that remains fails every read of the round.
                const byId = await this.source.byIds(ids);
                for (const id of ids) this.byIdOnly.delete(id);
                for (const [id, waiting] of round) for (const w of waiting) w.resolve(byId.get(id));
            }
        } catch (e) {
            for (const [, waiting] of round) for (const w of waiting) w.reject(e);
        } finally {
            if (ids.length > 1) this.lastSharedRoundEndedAt = this.now();
            // After a read-ahead, the next reads are answered from it as they come: nothing to gather for.
            if (ids.length > 1 && !tookReadAhead) this.gathering = { want: ids.length, since: this.now() };
            this.inFlight = false;
            this.schedule();
        }
    }

    /** A read-ahead, kept for later reads when no write of this client could have overtaken it; undefined when none could be asked. */
    private async takeReadAhead(owner: number | undefined): Promise<TakenPage<R> | undefined> {
        if (!this.source.ahead) return undefined;
        const mark = this.source.writeMark();
        if (mark === undefined) return undefined;
        const takenAt = this.now();
        const page = await this.source.ahead(owner);
        if (!page) return undefined;
        const taken = { records: new Map(page.records.map((r) => [r.id, r])), takenAt, answered: 0 };
        if (this.source.writeMark() === mark) this.readAhead = { pages: [taken], mark, next: page.next, owner };
        return taken;
    }

    /** The read-ahead's next page, added to it when no write could have overtaken it. */
    private async takeNextPage(): Promise<TakenPage<R> | undefined> {
        const ra = this.readAhead!;
        const takenAt = this.now();
        const page = await this.source.ahead!(ra.owner, ra.next);
        if (!page) return undefined;
        const taken = { records: new Map(page.records.map((r) => [r.id, r])), takenAt, answered: 0 };
        if (this.readAhead === ra && this.source.writeMark() === ra.mark) {
            ra.pages.push(taken);
            ra.next = page.next;
        }
        return taken;
    }
}

/** One `BatchedReads` per client and kind, so every read in the process on one account shares the rounds. */
export function sharedPerClient<R extends { id: number }>(make: (vast: VastClient) => BatchedReads<R>): (vast: VastClient) => BatchedReads<R> {
    const readers = new WeakMap<VastClient, BatchedReads<R>>();
    return (vast) => {
        let reader = readers.get(vast);
        if (!reader) {
            reader = make(vast);
            readers.set(vast, reader);
        }
        return reader;
    };
}

/**
 * Reads of a kind whose one listing holds all the account has of it (API keys, SSH keys): every
 * round is that listing, and so is the read-ahead. A record a listing that answered leaves out is
 * not on the account.
 */
export function sharedListing<R extends { id: number }>(list: (vast: VastClient) => Promise<R[]>): (vast: VastClient) => BatchedReads<R> {
    return sharedPerClient<R>(
        (vast) =>
            new BatchedReads({
                byIds: async (ids) => byId(await list(vast), ids),
                maxIds: Number.MAX_SAFE_INTEGER,
                ahead: async () => ({ records: await list(vast) }),
                writeMark: () => vast.writeMark(),
            }),
    );
}

/** Records by id, only those whose id was asked for: a search that ignored its filter adds nothing. */
export function byId<R extends { id: number }>(records: R[], ids: number[]): Map<number, R> {
    const wanted = new Set(ids);
    return new Map(records.filter((r) => wanted.has(r.id)).map((r) => [r.id, r]));
}
