/**
 * Keeps calls under the service's minimum interval per endpoint and API key. Every call in the
 * provider process goes through one pacer, so a `pulumi up` of hundreds of resources queues its
 * calls instead of collecting 429s. A lane is one endpoint for one key; calls in a lane are spaced
 * by the lane's interval, in the order they asked.
 *
 * Intervals the service does not document start at the client's guess; a 429 in a lane widens
 * that lane's interval (up to a cap), so the pacer learns limits it was not told.
 */
export class Pacer {
    private readonly lanes = new Map<string, { nextAt: number; learnedMs: number }>();

    constructor(private readonly now: () => number = Date.now) {}

    /** Waits for this call's turn in `lane`, spaced at least `intervalMs` from the previous one. */
    async wait(lane: string, intervalMs: number): Promise<void> {
        const state = this.lane(lane);
        const spacing = Math.max(intervalMs, state.learnedMs);
        const now = this.now();
        const slot = Math.max(now, state.nextAt);
        state.nextAt = slot + spacing;
        if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
    }

    /**
     * Records a 429 in `lane`: its interval grows by half (at least to `floorMs`, at most to
     * `maxMs`) and the next call waits a full interval from now.
     */
    penalize(lane: string, intervalMs: number, floorMs: number, maxMs: number): void {
        const state = this.lane(lane);
        const current = Math.max(intervalMs, state.learnedMs);
        state.learnedMs = Math.min(maxMs, Math.max(floorMs, Math.ceil(current * 1.5)));
        state.nextAt = Math.max(state.nextAt, this.now() + state.learnedMs);
    }

    /** The spacing a lane uses now; for tests and diagnostics. */
    intervalOf(lane: string, intervalMs: number): number {
        return Math.max(intervalMs, this.lanes.get(lane)?.learnedMs ?? 0);
    }

    private lane(name: string) {
        let state = this.lanes.get(name);
        if (!state) {
            state = { nextAt: 0, learnedMs: 0 };
            this.lanes.set(name, state);
        }
        return state;
    }
}

/** The pacer every client in this process shares unless it is given its own. */
export const sharedPacer = new Pacer();
