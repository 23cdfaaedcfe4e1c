import { VastClient } from "../client/vastClient";

/**
 * Reads of one kind in one provider process share their calls. The engine reads many resources at
 * once (a refresh above all), and the service paces each endpoint per key (a template search every
 * 1.9 s), so reading them one by one is what makes a large refresh slow.
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
     * What the account has of this kind, as much as one call answers; undefined when it cannot be
     * asked (`owner`, from the reads of the round, is not known).
     */
    ahead?(owner: number | undefined): Promise<R[] | undefined>;
    /** The client's write mark (`VastClient.writeMark`). */
    writeMark(): number | undefined;
}

interface Waiting<R> {
    resolve(record: R | undefined): void;
    reject(error: unknown): void;
}

interface ReadAhead<R> {
    records: Map<number, R>;
    takenAt: number;
    mark: number;
}

export class BatchedReads<R extends { id: number }> {
    private readonly asked = new Map<number, Waiting<R>[]>();
    /** The owner a read passed, per asked id (templates: the creator state keeps). */
    private readonly owners = new Map<number, number>();
    /** Every id read in this process: only a first read may be answered by a read-ahead. */
    private readonly readBefore = new Set<number>();
    /** Ids a read-ahead did not find: their next round asks for them by id. */
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
    ) {}

    /** The record with this id, or undefined when the service has none by that id. */
    get(id: number, owner?: number): Promise<R | undefined> {
        const first = !this.readBefore.has(id);
        this.readBefore.add(id);
        const ahead = first ? this.fromReadAhead(id) : undefined;
        if (ahead) return Promise.resolve(ahead);
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
        const stale = gathering !== undefined && gathering.timer === undefined && this.now() - gathering.since > GATHER_MS;
        if (gathering && !stale && this.asked.size < Math.min(gathering.want, this.source.maxIds)) {
            gathering.timer ??= setTimeout(() => {
                this.gathering = undefined;
                this.schedule();
            }, GATHER_MS);
            return;
        }
        if (gathering?.timer) clearTimeout(gathering.timer);
        this.gathering = undefined;
        this.inFlight = true;
        setImmediate(() => void this.round());
    }

    /** The read-ahead while it may answer reads. */
    private usableReadAhead(): ReadAhead<R> | undefined {
        const ra = this.readAhead;
        return ra && this.now() - ra.takenAt < READ_AHEAD_FRESH_MS && this.source.writeMark() === ra.mark ? ra : undefined;
    }

    private fromReadAhead(id: number): R | undefined {
        return this.usableReadAhead()?.records.get(id);
    }

    private async round(): Promise<void> {
        const ids = [...this.asked.keys()].slice(0, this.source.maxIds);
        const round = ids.map((id) => [id, this.asked.get(id)!] as const);
        const owner = ids.map((id) => this.owners.get(id)).find((o) => o !== undefined);
        for (const id of ids) {
            this.asked.delete(id);
            this.owners.delete(id);
        }
        const inBurst = this.now() - this.lastSharedRoundEndedAt < BURST_GAP_MS;
        let tookReadAhead = false;
        try {
            let found: Map<number, R> | undefined;
            // A usable read-ahead already answered what it could: these are reads it cannot answer.
            if (inBurst && !this.usableReadAhead() && ids.every((id) => !this.byIdOnly.has(id))) {
                found = await this.takeReadAhead(owner);
                tookReadAhead = found !== undefined;
            }
            if (found) {
                for (const [id, waiting] of round) {
                    const record = found.get(id);
                    if (record) for (const w of waiting) w.resolve(record);
                    else {
                        // Not in the read-ahead: asked for by id in the next round.
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
    private async takeReadAhead(owner: number | undefined): Promise<Map<number, R> | undefined> {
        if (!this.source.ahead) return undefined;
        const mark = this.source.writeMark();
        if (mark === undefined) return undefined;
        const takenAt = this.now();
        const records = await this.source.ahead(owner);
        if (!records) return undefined;
        const found = new Map(records.map((r) => [r.id, r]));
        if (this.source.writeMark() === mark) this.readAhead = { records: found, takenAt, mark };
        return found;
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
                ahead: () => list(vast),
                writeMark: () => vast.writeMark(),
            }),
    );
}

/** Records by id, only those whose id was asked for: a search that ignored its filter adds nothing. */
export function byId<R extends { id: number }>(records: R[], ids: number[]): Map<number, R> {
    const wanted = new Set(ids);
    return new Map(records.filter((r) => wanted.has(r.id)).map((r) => [r.id, r]));
}
