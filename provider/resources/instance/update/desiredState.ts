import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs, InstanceOutputs } from "../instanceArgs";
import { isStopped, startInstance, stopInstance } from "../wait/instanceState";
import { endedAsRecorded, recordedStatus } from "../wait/readiness";
import { awaitExisting } from "../wait/untilRunning";

// An update's start, stop or wait: the instance brought to the program's `desiredState`.

/** Statuses of an instance still on its way up; an update waits for those when the program waits. */
const STILL_STARTING = new Set([undefined, null, "created", "loading", "scheduling"]);

/** Starts, stops or waits for the instance as `desired` says; the last record seen, when any call read one. */
export async function reachDesiredState(ctx: ProviderContext, vast: VastClient, instanceId: number, olds: InstanceOutputs, desired: InstanceInputs): Promise<InstanceRecord | undefined> {
    if (desired.desiredState === "stopped") {
        // Also when a stop asked by an earlier `up` did not finish in time.
        // (One created stopped may be recorded as never run rather than `stopped`: that is stopped too.)
        const wasStopped = isStopped(recordedStatus(olds), true);
        // One that never ran (created stopped; a start since that failed) may show no status rather than `stopped`.
        const neverRan = olds.intendedStatus === "stopped" && (olds.actualStatus == null || olds.actualStatus === "created");
        if (olds.desiredState !== "stopped" || !wasStopped) return stopInstance(ctx, vast, instanceId, desired, neverRan);
    } else if (desired.desiredState === "running" && [olds.desiredState, olds.actualStatus, olds.intendedStatus].some((s) => s === "stopped" || s === "frozen")) {
        // Also when a start asked by an earlier `up` did not take: it was last seen stopped,
        // or meant to be (one created stopped that never ran shows no status). A frozen one
        // (paused in the web console, its GPUs billed) is started again the same way.
        return startInstance(ctx, vast, instanceId, desired);
    } else if (desired.waitForRunning && STILL_STARTING.has(olds.actualStatus) && !endedAsRecorded(olds)) {
        // (One whose status message already reports an error will not run: not waited for again; diff warns.)
        // An earlier create that ran out of time left it starting: this `up` waits for it again.
        return awaitExisting(ctx, vast, instanceId, desired);
    }
    return undefined;
}
