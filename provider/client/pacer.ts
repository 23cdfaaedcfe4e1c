/**
 * Keeps calls under the service's minimum interval per endpoint and API key. Every call in the
 * provider process goes through one pacer, so a `pulumi up` of hundreds of resources queues its
 * calls instead of collecting 429s. A rate-limit bucket is one endpoint for one key; calls in a bucket leave one
 * at a time, in the order they asked, each at least the bucket's interval after the last call that
 * counts actually left (not after it was scheduled to: a late timer must not squeeze the next gap).
 *
 * Intervals the service does not document start at 0 (unpaced); a 429 in a bucket sets that bucket's
 * interval to the one the response names, or widens it (up to a cap), so the pacer learns limits it
 * was not told.
 *
 * A call turned away is not counted: the service's limit is a token bucket of one token whose
 * rejections cost nothing (docs/live-service.md "Rate limits per endpoint"), so the next call is
 * spaced from the last call not turned away. Should a bucket show otherwise (a call spaced properly
 * from the last one let through, turned away all the same), that bucket counts every call from then on.
 */
/**
 * Calls are spaced a little more than the interval: the service measures arrivals, and network
 * and event-loop jitter can bring two calls closer on arrival than they were on leaving. A bucket
 * whose paced call is turned away at the interval it keeps doubles its own extra guard.
 */
const GUARD_FRACTION = 0.02;
const GUARD_MS = 5;
/** An interval a 429 names is believed up to this; a larger one would stall a bucket on a garbled answer. */
const MAX_TOLD_MS = 60_000;
/** Departures a bucket remembers: enough to find the last one let through after a burst of 429s. */
const REMEMBERED_DEPARTURES = 64;

interface Bucket {
    /** Resolves when the previous caller in this bucket has left. */
    tail: Promise<void>;
    /** When recent calls left, oldest first, less those turned away (unless `countsRejections`). */
    departures: number[];
    learnedMs: number;
    /** When `learnedMs` last changed: a 429 for a call that left before then says nothing about it. */
    learnedAt: number;
    /** Extra spacing learned from 429s that came at the interval the bucket keeps (arrival jitter). */
    extraGuardMs: number;
    /** Set once a properly spaced call was turned away: the service may count rejected calls here. */
    countsRejections: boolean;
}

/** What a 429 in a bucket tells the pacer. */
export interface Penalty {
    /** When the turned-away call left (what `wait` answered). */
    leftAt: number;
    /** The endpoint's own interval, ms (0 when undocumented). */
    intervalMs: number;
    /** The least a 429 that names no interval widens an unpaced bucket to. */
    floorMs: number;
    /** The most a 429 that names no interval widens a bucket to. */
    maxMs: number;
    /** The interval the 429 named, ms, if it named one. */
    thresholdMs?: number;
}

export class Pacer {
    private readonly buckets = new Map<string, Bucket>();

    constructor(
        private readonly now: () => number = Date.now,
        private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    ) {}

    /** Waits for this call's turn in `bucket`, at least `intervalMs` after the last call that counts left; answers when it left. */
    async wait(bucket: string, intervalMs: number): Promise<number> {
        const state = this.bucket(bucket);
        const previous = state.tail;
        let leave!: () => void;
        state.tail = new Promise<void>((resolve) => (leave = resolve));
        try {
            await previous;
            // Asked again after each sleep: a 429 met meanwhile may have widened the bucket, and a
            // call that left at the old spacing would be turned away and widen it once more.
            for (let due = this.dueIn(state, intervalMs); due > 0; due = this.dueIn(state, intervalMs)) await this.sleep(due);
            const leftAt = this.now();
            state.departures.push(leftAt);
            if (state.departures.length > REMEMBERED_DEPARTURES) state.departures.shift();
            return leftAt;
        } finally {
            leave();
        }
    }

    /** How long, ms, until the bucket's next call may leave: its interval (or what it learnt) after the last departure. */
    private dueIn(state: Bucket, intervalMs: number): number {
        const base = Math.max(intervalMs, state.learnedMs);
        const spacing = base > 0 ? base * (1 + GUARD_FRACTION) + GUARD_MS + state.extraGuardMs : 0;
        const lastLeftAt = state.departures.length > 0 ? state.departures[state.departures.length - 1] : -Infinity;
        return lastLeftAt + spacing - this.now();
    }

    /**
     * Records a 429 for the call of `bucket` that left at `p.leftAt`.
     *
     * - The interval: when the response names a longer one than the bucket keeps, the bucket takes it as
     *   told. When it names none and the call left under the bucket's present interval, the interval
     *   grows by half, at least to `floorMs`, at most to `maxMs`; the other 429s of a burst sent
     *   before the first one came back teach nothing more. A bucket's interval never shrinks.
     * - The departure: a call that left within the interval after an earlier call of the bucket was
     *   turned away for that call; unless the bucket counts rejected calls, it is forgotten, and the
     *   next call is spaced from the last one not turned away. A call that left the interval or
     *   more after the bucket's last call (or with none before it) was turned away for a call this
     *   pacer did not send (another process on the key) or squeezed on the way: the next call is
     *   spaced from it.
     * - A call paced at the interval the bucket already kept and turned away all the same: the bucket
     *   counts rejected calls from then on, in case the service does, and when the 429 named that
     *   same interval (so it is right, and the call arrived early), the bucket's guard doubles.
     */
    penalize(bucket: string, p: Penalty): void {
        const state = this.bucket(bucket);
        const current = Math.max(p.intervalMs, state.learnedMs);
        const underPresentInterval = p.leftAt >= state.learnedAt;
        const told = p.thresholdMs !== undefined && p.thresholdMs > current ? Math.min(p.thresholdMs, MAX_TOLD_MS) : undefined;
        const namesNone = p.thresholdMs === undefined;

        let learned = state.learnedMs;
        if (told !== undefined) learned = told;
        else if (underPresentInterval && namesNone) learned = Math.min(p.maxMs, Math.max(p.floorMs, Math.ceil(current * 1.5)));
        if (learned > state.learnedMs) {
            state.learnedMs = learned;
            state.learnedAt = this.now();
        }

        // A departure no longer remembered (a long burst) is left alone: nothing is known of what came before it.
        const at = state.departures.lastIndexOf(p.leftAt);
        if (at < 0) return;
        const before = at > 0 ? state.departures[at - 1] : -Infinity;
        // The interval that turned it away: the one it was paced under, a longer one the 429 named, or,
        // for a bucket that was not paced, the one just learned.
        const turnedAwayBy = current > 0 ? (told ?? current) : state.learnedMs;
        const unexplained = p.leftAt - before >= turnedAwayBy;
        if (unexplained && underPresentInterval && told === undefined && current > 0) {
            if (!namesNone) state.extraGuardMs = Math.min(current, 2 * state.extraGuardMs + GUARD_MS);
            state.countsRejections = true;
        }
        if (!unexplained && !state.countsRejections) state.departures.splice(at, 1);
    }

    /** The spacing a bucket uses now; for tests and diagnostics. */
    intervalOf(bucket: string, intervalMs: number): number {
        return Math.max(intervalMs, this.buckets.get(bucket)?.learnedMs ?? 0);
    }

    /** Every bucket's learned interval, for tests and diagnostics. */
    learnedIntervals(): number[] {
        return [...this.buckets.values()].map((l) => l.learnedMs);
    }

    private bucket(name: string): Bucket {
        let state = this.buckets.get(name);
        if (!state) {
            state = { tail: Promise.resolve(), departures: [], learnedMs: 0, learnedAt: -Infinity, extraGuardMs: 0, countsRejections: false };
            this.buckets.set(name, state);
        }
        return state;
    }
}

/** The pacer every client in this process shares unless it is given its own. */
export const sharedPacer = new Pacer();
