import { VastNotFoundError } from "../../../client/errors";
import { mayHaveActed } from "../../../client/retryPolicy";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { initFailure, providerOf } from "../../../dynamic/initFailure";
import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs, InstanceOutputs } from "../instanceArgs";
import { definedOnly, instanceOutputs, rentalIn, reportedByService, reportedIn, unfinishedUntilRunning } from "../common/instanceMapping";
import { InstanceNotReadyError } from "../wait/untilRunning";
import { codeOf } from "../../../errors/providerError";

// The label and the bid, changed in place, and what state records of them when an update fails.

/**
 * What an update changes, and what the service has taken so far: a failure later in the update
 * keeps those in state (a program put back as before then sends them back). One whose own call
 * failed keeps state's value, so the same program sends it again. So does the desired state,
 * until a start or stop may have been sent: a failure before that sent neither.
 */
export interface UpdateProgress {
    newLabel: boolean;
    newBid: boolean;
    taken: Pick<InstanceInputs, "label" | "price" | "desiredState">;
    /** A label edit whose response was lost and could not be read back (see `labelUnconfirmed`). */
    labelUnconfirmed: boolean | undefined;
    /** A bid change whose response was lost (see `bidUnconfirmed`). */
    bidUnconfirmed: number | undefined;
}

/** What an update from `olds` to `desired` sends, before anything is sent. */
export function updateProgress(olds: InstanceOutputs, desired: InstanceInputs): UpdateProgress {
    // Sent again while an earlier edit's response was lost and not read back (see `labelUnconfirmed`).
    const newLabel = (olds.label ?? "") !== (desired.label ?? "") || (olds.labelUnconfirmed === true && desired.label !== undefined);
    // Between two bids only (diff replaces an instance that gains or loses its bid); sent again
    // while an earlier change's response was lost (see `bidUnconfirmed`).
    const newBid = olds.price !== undefined && desired.price !== undefined && (olds.price !== desired.price || olds.bidUnconfirmed !== undefined);
    return {
        newLabel,
        newBid,
        taken: { label: newLabel ? olds.label : desired.label, price: newBid ? olds.price : desired.price, desiredState: olds.desiredState },
        labelUnconfirmed: olds.labelUnconfirmed,
        bidUnconfirmed: olds.bidUnconfirmed,
    };
}

/** The label the instance has now, as the program writes none: `""`. Undefined when it is not found. */
async function labelNow(vast: VastClient, instanceId: number): Promise<string | undefined> {
    const record = await vast.instances.show(instanceId);
    return record ? (record.label ?? "") : undefined;
}

/** Sets the program's label. */
export async function sendLabel(vast: VastClient, instanceId: number, desired: InstanceInputs, progress: UpdateProgress): Promise<void> {
    try {
        await vast.instances.label(instanceId, desired.label ?? "");
    } catch (e) {
        // Response lost: the label may be either. Unlike the bid it can be read back; when
        // that fails too, it is marked unsure and sent again next time.
        if (mayHaveActed(e)) {
            const now = await labelNow(vast, instanceId).catch(() => undefined);
            if (now === undefined) progress.labelUnconfirmed = true;
            else [progress.taken.label, progress.labelUnconfirmed] = [now, undefined];
        }
        throw e;
    }
    progress.taken.label = desired.label;
    progress.labelUnconfirmed = undefined;
}

/** Changes an interruptible instance's bid to the program's. */
export async function sendBid(ctx: ProviderContext, vast: VastClient, instanceId: number, olds: InstanceOutputs, desired: InstanceInputs, progress: UpdateProgress): Promise<void> {
    try {
        await vast.instances.changeBid(instanceId, desired.price!);
    } catch (e) {
        // Refused: the bid is what it was. Response lost: it may be either, so it is sent again next time.
        if (mayHaveActed(e)) progress.bidUnconfirmed = desired.price;
        throw e;
    }
    progress.bidUnconfirmed = undefined;
    progress.taken.price = desired.price;
    ctx.log.progress(
        olds.price === desired.price
            ? `instance ${instanceId}: bid of $${desired.price}/hour confirmed (sent again: an earlier change's answer was lost)`
            : `instance ${instanceId}: bid changed from $${olds.price}/hour to $${desired.price}/hour`,
    );
}

/**
 * An update's failure as the engine gets it, an init failure that keeps the instance in state.
 * Whatever failed once a start or stop may have been sent (the call's responses lost, the wait's
 * reads failing, the deadline), state records what was asked and what was seen last: kept as it
 * was, a program put back as before would show no change while the instance stayed as the failed
 * call left it (running while state says stopped). The next `up` then knows whether to ask again
 * or to wait. The label and the bid, which no status tells about, are recorded as the service
 * took them (see `UpdateProgress`).
 */
export function updateFailure(e: unknown, instanceId: number, olds: InstanceOutputs, news: InstanceInputs, desired: InstanceInputs, progress: UpdateProgress): Error {
    const last = e instanceof InstanceNotReadyError ? e.record : undefined;
    const seen = last ? { ...reportedIn(olds), ...definedOnly(reportedByService(last)) } : reportedIn(olds);
    // A not-found from the instance's own route: most likely destroyed outside Pulumi, which
    // only a refresh (reading it gone in the service's own words) takes from state.
    const gone = e instanceof VastNotFoundError ? `. If instance ${instanceId} was destroyed outside Pulumi, \`pulumi refresh\` removes it from the stack` : "";
    const message = `${e instanceof Error ? e.message : String(e)}${gone}`;
    const state = { ...desired, ...progress.taken };
    const { bidUnconfirmed, labelUnconfirmed } = progress;
    const reported = { ...rentalIn(olds), ...seen, ...definedOnly({ bidUnconfirmed, labelUnconfirmed }) };
    return initFailure({ code: codeOf(e), message }, instanceId, instanceOutputs(state, instanceId, reported, olds.effectiveEnv), providerOf(news));
}

/** The outputs after an update: what the last record says, or what state said when nothing was read. */
export function updatedOutputs(instanceId: number, olds: InstanceOutputs, desired: InstanceInputs, record: InstanceRecord | undefined): InstanceOutputs {
    const reported = record ? { ...rentalIn(olds), ...unfinishedUntilRunning(olds, record), ...definedOnly(reportedByService(record)) } : { ...rentalIn(olds), ...reportedIn(olds) };
    return instanceOutputs(desired, instanceId, reported, olds.effectiveEnv);
}
