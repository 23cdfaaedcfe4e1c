import { InstanceRecord } from "../../../schemas/instance";
import { InstanceOutputs } from "../instanceArgs";
import { StartFailureKind, startFailureOf } from "./startFailure";

/**
 * What counts as ready, as the vendor CLI waits for it: `intended_status` and `actual_status` both
 * `running`. `exited`, `unknown` and `offline` never reach `running` (docs/service-contract.md §3), nor does an
 * instance whose `status_msg` reports an error (the CLI looks for "Error"; dstack also treats
 * "OCI runtime create failed" so). `failure` says whose fault (startFailure.ts): an image that
 * cannot be pulled is the program's, anything else the machine's.
 */
export type StartState = { kind: "running" } | { kind: "starting" } | { kind: "failed"; reason: string; failure: StartFailureKind };

const NEVER_RUNNING = new Set(["exited", "unknown", "offline"]);

/** `loading ("Pulling image layers")`; `not started` before the service reports a status. */
export function describeStatus(record: InstanceRecord): string {
    const status = record.actual_status ?? "not started";
    return record.status_msg ? `${status} (${JSON.stringify(record.status_msg)})` : status;
}

export function startState(record: InstanceRecord): StartState {
    if (record.intended_status === "running" && record.actual_status === "running") return { kind: "running" };
    // The message first: an instance that exited because its image could not be pulled is the program's failure.
    const failure = startFailureOf(record.status_msg) ?? (NEVER_RUNNING.has(record.actual_status ?? "") ? "machine_failed" : undefined);
    if (failure) return { kind: "failed", reason: describeStatus(record), failure };
    return { kind: "starting" };
}

/**
 * What to tell the owner of an instance meant to run that has ended on its own (exited, lost its
 * host, or reports an error; one stopped on purpose is not): it stays on the account, its disk
 * billed, and the provider never destroys or restarts it unasked (a batch job may have ended by
 * design; a restart would run it again). Undefined for any other instance.
 */
export function endedWarning(
    instanceId: number,
    record: Pick<InstanceRecord, "actual_status" | "intended_status" | "status_msg">,
    pinnedOffer: boolean,
): string | undefined {
    if (record.intended_status === "stopped" || startState(record as InstanceRecord).kind !== "failed") return undefined;
    return (
        `instance ${instanceId} has ended: ${describeStatus(record as InstanceRecord)}. It stays on the account, its disk billed, until it is destroyed: ` +
        `remove it from the program to destroy it, or ${howToRunAnew(pinnedOffer)}`
    );
}

/**
 * What to tell the owner of an instance frozen in the web console (paused, its memory kept): its
 * GPUs are billed as if it ran, and refresh records it as `desiredState: "frozen"`, which the next
 * `up` undoes. Undefined for one not frozen.
 */
export function frozenWarning(instanceId: number, record: Pick<InstanceRecord, "actual_status" | "intended_status">): string | undefined {
    if (record.intended_status !== "frozen" && record.actual_status !== "frozen") return undefined;
    return (
        `instance ${instanceId} is frozen (paused, its memory kept): its GPUs are still billed. ` +
        'The next `pulumi up` starts it again, or stops it when the program says desiredState: "stopped" (unless it ignores changes to desiredState); remove it from the program to destroy it'
    );
}

/**
 * How to have an instance that will not run replaced. `pulumi up --replace` makes the new one
 * before it deletes the old (the engine asks no diff, so no delete-before-replace): on the offer
 * the old one still holds, that create is refused. So an instance pinned by `offerId` is told
 * otherwise.
 */
export function howToRunAnew(pinnedOffer: boolean): string {
    return pinnedOffer
        ? "give it another offerId (its offer holds it), or remove it from the program for one `up` and add it back, to run a new one"
        : "replace it to run a new one (pulumi up --replace <its URN>)";
}

/** How a wait for one instance ended. */
export type Readiness =
    | { kind: "running"; record: InstanceRecord }
    | { kind: "failed"; record: InstanceRecord; reason: string; failure: StartFailureKind }
    /** Destroyed by someone else while it started. */
    | { kind: "gone" }
    /** The deadline passed first; `record` is the last status seen. */
    | { kind: "timedOut"; record?: InstanceRecord };

/** The status last recorded in state, in the service's words, for the rules above. */
export function recordedStatus(olds: Pick<InstanceOutputs, "actualStatus" | "intendedStatus" | "statusMsg">): Pick<InstanceRecord, "actual_status" | "intended_status" | "status_msg"> {
    return { actual_status: olds.actualStatus, intended_status: olds.intendedStatus, status_msg: olds.statusMsg };
}

/** Whether state's last status already says the instance will not run (an error while starting, exited, …). */
export function endedAsRecorded(olds: Pick<InstanceOutputs, "actualStatus" | "intendedStatus" | "statusMsg">): boolean {
    return startState(recordedStatus(olds) as InstanceRecord).kind === "failed";
}
