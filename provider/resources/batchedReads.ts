import { VastClient } from "../client/vastClient";

/**
 * Reads of one kind in one provider process share their calls. The engine reads many resources at
 * once (a refresh above all), and the service paces each endpoint per key (a template search every
 * 3 s, an instance read every 2 s), so reading them one by one is what makes a large refresh slow.
 * Here every id asked for while a call is on its way waits for the next one, which fetches all of
 * them at once (`id in [...]`). At most one call is in flight: the engine's parallel reads gather
 * behind it, and a round costs one call whatever its size, up to `maxIds`.
 */
export class BatchedReads<R> {
    private readonly asked = new Map<number, Array<{ resolve(record: R | undefined): void; reject(error: unknown): void }>>();
    private inFlight = false;

    /** `fetch` answers the records found among `ids`, by id; an id it leaves out has no record. */
    constructor(
        private readonly fetch: (ids: number[]) => Promise<Map<number, R>>,
        private readonly maxIds: number,
    ) {}

    /** The record with this id, or undefined when the fetch found none. */
    get(id: number): Promise<R | undefined> {
        return new Promise((resolve, reject) => {
            const waiting = this.asked.get(id);
            if (waiting) waiting.push({ resolve, reject });
            else this.asked.set(id, [{ resolve, reject }]);
            // Reads the engine sends together arrive in the same turn of the event loop: gather them first.
            if (!this.inFlight) {
                this.inFlight = true;
                setImmediate(() => void this.round());
            }
        });
    }

    private async round(): Promise<void> {
        const ids = [...this.asked.keys()].slice(0, this.maxIds);
        const round = ids.map((id) => [id, this.asked.get(id)!] as const);
        for (const id of ids) this.asked.delete(id);
        try {
            // The client retries what can be retried; a failure that remains fails every read of the round.
            const found = await this.fetch(ids);
            for (const [id, waiting] of round) for (const w of waiting) w.resolve(found.get(id));
        } catch (e) {
            for (const [, waiting] of round) for (const w of waiting) w.reject(e);
        } finally {
            if (this.asked.size > 0) void this.round();
            else this.inFlight = false;
        }
    }
}

/** One `BatchedReads` per client and kind, so every read in the process on one account shares the rounds. */
export function sharedPerClient<R>(make: (vast: VastClient) => BatchedReads<R>): (vast: VastClient) => BatchedReads<R> {
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

/** Records by id, only those whose id was asked for: a search that ignored its filter adds nothing. */
export function byId<R extends { id: number }>(records: R[], ids: number[]): Map<number, R> {
    const wanted = new Set(ids);
    return new Map(records.filter((r) => wanted.has(r.id)).map((r) => [r.id, r]));
}
