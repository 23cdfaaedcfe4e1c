/** An emulated instance's status on a clock: the way up after a create, and after a start, stop or freeze. */
import { EmuInstance } from "./model";

export interface InstanceTimings {
    /** `actual_status` is null until this long after creation, then `loading`. */
    loadingAfterMs: number;
    /**
     * ...and then the offer's scripted end status (normally `running`). The last quarter of the
     * time between the two shows `created` (the container made, not yet started), as the live
     * service reports between the image pull and the start (docs/live-service.md).
     */
    runningAfterMs: number;
}

/** The status an instance shows at `now`: null, then loading, created, then its offer's scripted end; after a start or stop, see statusAfterStateChange. */
export function statusAt(instance: EmuInstance, now: number, timings: InstanceTimings): string | null {
    const changed = statusAfterStateChange(instance, now, timings);
    if (changed !== undefined) return changed;
    const elapsed = now - instance.createdAt;
    if (elapsed < timings.loadingAfterMs) return null;
    if (elapsed < createdAfterMs(timings)) return "loading";
    if (elapsed < timings.runningAfterMs) return "created";
    return instance.script.status;
}

/** When `created` follows `loading` on the way up: three quarters of the way from `loading` to the end. */
function createdAfterMs(timings: InstanceTimings): number {
    return timings.loadingAfterMs + ((timings.runningAfterMs - timings.loadingAfterMs) * 3) / 4;
}

/**
 * The status once a start or stop was asked; undefined when none was (the creation script applies).
 * A stop takes `loadingAfterMs` to show `stopped` (the status before it until then); a start shows
 * `scheduling` for as long (the machine finding room), then `loading`, then the offer's scripted
 * end (normally `running`) once `runningAfterMs` has passed since the start was asked. A freeze,
 * which only the web console asks for here (the API reference documents none), shows `frozen` at
 * once; a start or a stop takes a frozen instance out of it as from any other status.
 */
export function statusAfterStateChange(instance: EmuInstance, now: number, timings: InstanceTimings): string | null | undefined {
    const change = instance.stateChange;
    if (!change) return undefined;
    const elapsed = now - change.at;
    if (change.to === "frozen") return "frozen";
    if (change.to === "stopped") return elapsed < timings.loadingAfterMs ? change.from : "stopped";
    // A queued start (its machine without room) waits stopped.
    if (instance.script.status === "stopped") return "stopped";
    if (elapsed < timings.loadingAfterMs) return "scheduling";
    // A start ends where the offer's script ends, as a create does: an instance scripted to exit
    // (or to go unknown, offline, or stay loading) does so again, for `exited`, `unknown` and
    // `offline` never reach `running` (contract §3). Before, any start ended `running`.
    return elapsed < timings.runningAfterMs ? "loading" : instance.script.status;
}

/** What the instance is meant to be: `running` unless a stop (or a freeze) was asked last. */
export function intendedStatus(instance: EmuInstance): string {
    return instance.stateChange?.to ?? "running";
}
