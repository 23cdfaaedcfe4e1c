import { VastClient } from "../../client/vastClient";
import { TemplateRecord } from "../../schemas/template";

/** Ids asked for in one search, to keep its query string short. */
export const MAX_IDS_PER_SEARCH = 100;

interface Asked {
    resolve(record: TemplateRecord | undefined): void;
    reject(error: unknown): void;
}

/**
 * Template reads in one provider process share their searches. The search endpoint is paced at
 * 3 s per key, so a refresh of a hundred templates read one by one would take five minutes; here
 * every template asked for while a search is on its way waits for the next one, which asks for all
 * of them at once (`id in [...]`). At most one search is in flight: the engine's parallel reads
 * gather behind it, and a round costs one call whatever its size (up to `MAX_IDS_PER_SEARCH`).
 */
export class TemplateReader {
    private readonly asked = new Map<number, Asked[]>();
    private inFlight = false;

    constructor(private readonly vast: VastClient) {}

    /** The template with this numeric id, or undefined when the service has none. Public ones of other users included: check the owner. */
    get(templateId: number): Promise<TemplateRecord | undefined> {
        return new Promise((resolve, reject) => {
            const waiting = this.asked.get(templateId);
            if (waiting) waiting.push({ resolve, reject });
            else this.asked.set(templateId, [{ resolve, reject }]);
            // Reads the engine sends together arrive in the same turn of the event loop: gather them first.
            if (!this.inFlight) {
                this.inFlight = true;
                setImmediate(() => void this.searchRound());
            }
        });
    }

    private async searchRound(): Promise<void> {
        const ids = [...this.asked.keys()].slice(0, MAX_IDS_PER_SEARCH);
        const round = ids.map((id) => [id, this.asked.get(id)!] as const);
        for (const id of ids) this.asked.delete(id);
        try {
            // The client retries what can be retried; a failure that remains fails every read of the round.
            const found = await this.vast.templates.search({ id: { in: ids } });
            for (const [id, waiting] of round) {
                const record = found.find((t) => t.id === id);
                for (const w of waiting) w.resolve(record);
            }
        } catch (e) {
            for (const [, waiting] of round) for (const w of waiting) w.reject(e);
        } finally {
            if (this.asked.size > 0) void this.searchRound();
            else this.inFlight = false;
        }
    }
}

/** One reader per client, so every template read in the process on one account shares the rounds. */
const readers = new WeakMap<VastClient, TemplateReader>();

export function sharedTemplateReader(vast: VastClient): TemplateReader {
    let reader = readers.get(vast);
    if (!reader) {
        reader = new TemplateReader(vast);
        readers.set(vast, reader);
    }
    return reader;
}
