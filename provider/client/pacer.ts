/**
 * Keeps calls under the service's minimum interval per endpoint and API key. Every call in the
 * provider process goes through one pacer, so a `pulumi up` of hundreds of resources queues its
 * calls instead of collecting 429s. A lane is one endpoint for one key; calls in a lane leave one
 * at a time, in the order they asked, each at least the lane's interval after the one before
 * actually left (not after it was scheduled to: a late timer must not squeeze the next gap).
 *
 * Intervals the service does not document start at 0 (unpaced); a 429 in a lane sets that lane's
 * interval to the one the answer names, or widens it (up to a cap), so the pacer learns limits it
 * was not told.
 */
/**
 * Calls are spaced a little more than the interval: the service measures arrivals, and network
 * and event-loop jitter can bring two calls closer on arrival than they were on leaving.
 */
const GUARD_FRACTION = 0.02;
const GUARD_MS = 5;
/** An interval a 429 names is believed up to this; a larger one would stall a lane on a garbled answer. */
const MAX_TOLD_MS = 60_000;

interface Lane {
    /** Resolves when the previous caller in this lane has left. */
    tail: Promise<void>;
    lastLeftAt: number;
    learnedMs: number;
    /** When `learnedMs` last changed: a 429 for a call that left before then says nothing about it. */
    learnedAt: number;
}

/** What a 429 in a lane tells the pacer. */
export interface Penalty {
    /** When the turned-away call left (what `wait` answered). */
    leftAt: number;
    /** The endpoint's own interval, ms (0 when undocumented). */
    intervalMs: number;
    /** The least a 429 that names no interval widens an unpaced lane to. */
    floorMs: number;
    /** The most a 429 that names no interval widens a lane to. */
    maxMs: number;
    /** The interval the 429 named, ms, if it named one. */
    thresholdMs?: number;
}

export class Pacer {
    private readonly lanes = new Map<string, Lane>();

    constructor(
        private readonly now: () => number = Date.now,
        private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    ) {}

    /** Waits for this call's turn in `lane`, at least `intervalMs` after the previous call left; answers when it left. */
    async wait(lane: string, intervalMs: number): Promise<number> {
        const state = this.lane(lane);
        const previous = state.tail;
        let leave!: () => void;
        state.tail = new Promise<void>((resolve) => (leave = resolve));
        try {
            await previous;
            const base = Math.max(intervalMs, state.learnedMs);
            const spacing = base > 0 ? base * (1 + GUARD_FRACTION) + GUARD_MS : 0;
            const due = state.lastLeftAt + spacing - this.now();
            if (due > 0) await this.sleep(due);
            state.lastLeftAt = this.now();
            return state.lastLeftAt;
        } finally {
            leave();
        }
    }

    /**
     * Records a 429 in `lane`. When it named the endpoint's interval and the lane was shorter, the
     * lane takes it as told. Otherwise (not named, or the lane already kept it and was still turned
     * away) the interval grows by half, at least to `floorMs`, at most to `maxMs`, but only for a
     * call that left under the lane's present interval: the other 429s of a burst sent before the
     * first one came back teach nothing more. A lane's interval never shrinks.
     *
     * The next call is paced from the lane's latest departure, as any call: whether the service
     * counts its window from the last call it let through or from this one, both left no later,
     * so the next arrives at least the interval after either (calls in a paced lane arrive alike:
     * connections.ts).
     */
    penalize(lane: string, p: Penalty): void {
        const state = this.lane(lane);
        const current = Math.max(p.intervalMs, state.learnedMs);
        const told = p.thresholdMs !== undefined && p.thresholdMs > current ? Math.min(p.thresholdMs, MAX_TOLD_MS) : undefined;
        const grown = p.leftAt >= state.learnedAt ? Math.min(p.maxMs, Math.max(p.floorMs, Math.ceil(current * 1.5))) : 0;
        const learned = Math.max(state.learnedMs, told ?? grown);
        if (learned !== state.learnedMs) {
            state.learnedMs = learned;
            state.learnedAt = this.now();
        }
    }

    /** The spacing a lane uses now; for tests and diagnostics. */
    intervalOf(lane: string, intervalMs: number): number {
        return Math.max(intervalMs, this.lanes.get(lane)?.learnedMs ?? 0);
    }

    /** Every lane's learned interval, for tests and diagnostics. */
    learnedIntervals(): number[] {
        return [...this.lanes.values()].map((l) => l.learnedMs);
    }

    private lane(name: string): Lane {
        let state = this.lanes.get(name);
        if (!state) {
            state = { tail: Promise.resolve(), lastLeftAt: -Infinity, learnedMs: 0, learnedAt: -Infinity };
            this.lanes.set(name, state);
        }
        return state;
    }
}

/** The pacer every client in this process shares unless it is given its own. */
export const sharedPacer = new Pacer();
