import { INSTANCE_PAGE_SIZE } from "../../../client/api/instances";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { Readiness, describeStatus, startState } from "./readiness";
import { ProviderError } from "../../../errors/providerError";

/**
 * Every instance waiting to run in this provider process is polled by one loop, in rounds, through
 * the v1 list filtered on their ids (25 a page): twenty instances waiting at once cost one call a
 * round, not twenty reads, and the show endpoint's 2 s interval never comes into it. A round is
 * due when the earliest waiter is; each waiter is first looked at 3 s after its create, then every
 * 10 s (the vendor CLI's documented interval; at live speed), and every round polls everyone waiting, since a page of 25 costs
 * the same as a page of one. The client's pacer keeps the list calls under their interval.
 */
export interface PollTiming {
    /** The first look, soon after the create: an image the host already has starts in seconds. */
    firstMs: number;
    /** Then a steady interval, so a wait never runs more than one interval past readiness. */
    intervalMs: number;
    /** A progress line at least this often while nothing changes. */
    reportEveryMs: number;
}

export const LIVE_POLL_TIMING: PollTiming = { firstMs: 3000, intervalMs: 10_000, reportEveryMs: 30_000 };

/** Failed rounds in a row (after the client's own retries) before a wait gives up. */
const MAX_FAILED_ROUNDS = 3;

/**
 * Looks in a row that must find an instance gone (left out of the list, and its own read saying
 * so) before a wait calls it gone, each `firstMs` after the last. A create whose instance is gone
 * rents again: one look at a service still catching up after the create must not make that a
 * second paid instance, or leave the first outside state.
 */
const GONE_LOOKS = 3;

interface Waiter {
    instanceId: number;
    /** "instance 42 on offer 7", for progress lines. */
    what: string;
    startedAt: number;
    deadlineAt: number;
    nextPollAt: number;
    lastSeen?: InstanceRecord;
    lastReported?: string;
    lastReportAt: number;
    failedRounds: number;
    /** Looks in a row that found it gone (`GONE_LOOKS`). */
    goneLooks: number;
    settle(outcome: Readiness | Error): void;
}

export class InstancePoller {
    private readonly waiters = new Map<number, Waiter>();
    private looping = false;
    /** Ends the loop's current sleep early, so a new waiter's first poll is not held up. */
    private kick?: () => void;

    constructor(
        private readonly vast: VastClient,
        private readonly timing: PollTiming,
        private readonly report: (line: string) => void,
    ) {}

    /** Resolves when the instance runs, fails, disappears or runs out of time; rejects when it cannot be polled. */
    waitUntilRunning(instanceId: number, options: { timeoutMs: number; what: string }): Promise<Readiness> {
        return new Promise<Readiness>((resolve, reject) => {
            const now = Date.now();
            const waiting = this.waiters.get(instanceId);
            if (waiting) {
                // A second wait on one instance (two resources holding it) joins the first: replacing
                // it would leave the first wait's step pending for ever.
                const first = waiting.settle;
                waiting.deadlineAt = Math.max(waiting.deadlineAt, now + options.timeoutMs);
                waiting.settle = (outcome) => {
                    first(outcome);
                    if (outcome instanceof Error) reject(outcome);
                    else resolve(outcome);
                };
                return;
            }
            this.waiters.set(instanceId, {
                instanceId,
                what: options.what,
                startedAt: now,
                deadlineAt: now + options.timeoutMs,
                nextPollAt: now + this.timing.firstMs,
                lastReportAt: now,
                failedRounds: 0,
                goneLooks: 0,
                settle: (outcome) => {
                    this.waiters.delete(instanceId);
                    if (outcome instanceof Error) reject(outcome);
                    else resolve(outcome);
                },
            });
            this.wake();
        });
    }

    /** Instances waiting now. */
    get waiting(): number {
        return this.waiters.size;
    }

    private wake(): void {
        this.kick?.();
        if (this.looping) return;
        this.looping = true;
        void this.loop();
    }

    private async loop(): Promise<void> {
        try {
            while (this.waiters.size > 0) {
                const delay = this.nextDueAt() - Date.now();
                if (delay > 0) await this.sleep(delay);
                else await this.round();
            }
        } finally {
            this.looping = false;
            if (this.waiters.size > 0) this.wake();
        }
    }

    private nextDueAt(): number {
        let due = Infinity;
        for (const w of this.waiters.values()) due = Math.min(due, w.nextPollAt, w.deadlineAt);
        return due;
    }

    private sleep(ms: number): Promise<void> {
        return new Promise((resolve) => {
            const done = () => {
                clearTimeout(timer);
                this.kick = undefined;
                resolve();
            };
            const timer = setTimeout(done, ms);
            this.kick = done;
        });
    }

    /** One poll of everyone waiting: a list call per 25 instances. */
    private async round(): Promise<void> {
        const at = Date.now();
        const ids = [...this.waiters.keys()];
        for (let i = 0; i < ids.length; i += INSTANCE_PAGE_SIZE) {
            const chunk = ids.slice(i, i + INSTANCE_PAGE_SIZE);
            let found: Map<number, InstanceRecord>;
            try {
                const page = await this.vast.instances.list({ filters: { id: { in: chunk } }, limit: INSTANCE_PAGE_SIZE });
                found = new Map(page.instances.map((r) => [r.id, r]));
            } catch (e) {
                this.pollFailed(chunk, e, at);
                continue;
            }
            for (const id of chunk) await this.observe(id, found.get(id), at);
        }
    }

    private async observe(instanceId: number, listed: InstanceRecord | undefined, roundAt: number): Promise<void> {
        const w = this.waiters.get(instanceId);
        if (!w) return;
        let record = listed;
        // Missing from a round that was due for another waiter: not one of this one's gone looks,
        // which come `firstMs` apart (GONE_LOOKS), however often others are polled.
        if (!record && w.nextPollAt > roundAt && w.deadlineAt > roundAt) return;
        if (!record) {
            // Missing from the list: confirm with a read before calling it gone.
            try {
                record = await this.vast.instances.show(instanceId);
            } catch (e) {
                return this.pollFailed([instanceId], e, roundAt);
            }
        }
        w.failedRounds = 0;
        if (!record) return this.lookedGone(w);
        w.goneLooks = 0;
        w.lastSeen = record;
        const state = startState(record);
        if (state.kind === "running") return w.settle({ kind: "running", record });
        if (state.kind === "failed") return w.settle({ kind: "failed", record, reason: state.reason, failure: state.failure });
        if (Date.now() >= w.deadlineAt) return w.settle({ kind: "timedOut", record });
        this.reportProgress(w, record);
        w.nextPollAt = Date.now() + this.timing.intervalMs;
    }

    /** The instance looked gone: gone after `GONE_LOOKS` such looks in a row, looked at again soon until then. */
    private lookedGone(w: Waiter): void {
        if (++w.goneLooks >= GONE_LOOKS) return w.settle({ kind: "gone" });
        if (Date.now() >= w.deadlineAt) return w.settle({ kind: "timedOut", record: w.lastSeen });
        w.nextPollAt = Date.now() + this.timing.firstMs;
    }

    /**
     * A wait ends after a few failed rounds in a row, or at the deadline. Only a round due for it
     * counts (others' rounds come as often as new waits do), and a refusal of the key counts as one
     * failed round, not the end: it answers for every instance of the round, and one may be the
     * service's slip (as a lost create's look takes it), while a revoked key fails every round.
     */
    private pollFailed(ids: number[], error: unknown, roundAt: number): void {
        for (const id of ids) {
            const w = this.waiters.get(id);
            if (!w || (w.nextPollAt > roundAt && w.deadlineAt > roundAt)) continue;
            w.failedRounds++;
            if (Date.now() >= w.deadlineAt) w.settle({ kind: "timedOut", record: w.lastSeen });
            else if (w.failedRounds >= MAX_FAILED_ROUNDS || !(error instanceof Error)) {
                w.settle(error instanceof Error ? error : new ProviderError("internal", String(error)));
            } else w.nextPollAt = Date.now() + this.timing.intervalMs;
        }
    }

    private reportProgress(w: Waiter, record: InstanceRecord): void {
        const status = describeStatus(record);
        const now = Date.now();
        if (status === w.lastReported && now - w.lastReportAt < this.timing.reportEveryMs) return;
        w.lastReported = status;
        w.lastReportAt = now;
        this.report(`${w.what}: ${status}, ${Math.round((now - w.startedAt) / 1000)} s elapsed`);
    }
}

/** One poller per client, so every wait in the process on one account shares the rounds. */
const pollers = new WeakMap<VastClient, InstancePoller>();

export function sharedPoller(ctx: Pick<ProviderContext, "clock" | "log">, vast: VastClient): InstancePoller {
    let poller = pollers.get(vast);
    if (!poller) {
        const t = LIVE_POLL_TIMING;
        const { scaled } = ctx.clock;
        poller = new InstancePoller(
            vast,
            { firstMs: scaled(t.firstMs), intervalMs: scaled(t.intervalMs), reportEveryMs: scaled(t.reportEveryMs) },
            (line) => ctx.log.progress(line),
        );
        pollers.set(vast, poller);
    }
    return poller;
}
