import { ProviderContext } from "../../../dynamic/context";
import { PropertyDiffResult, changedProperties, shimChanged } from "../../../dynamic/diffInputs";
import { isUnknown } from "../../../dynamic/unknowns";
import { INSTANCE_PROPERTIES, InstanceInputs, InstanceOutputs, adoptsAnother, highBidOnSameOffer, replacementAdoptsItself, replacingChanges } from "../instanceArgs";
import { sharedInstanceReader } from "../common/sharedInstanceReader";
import { rememberFailedMachines } from "../common/failedMachines";
import { holdsInState } from "../common/heldInstances";
import { endedWarning, recordedStatus, startState } from "../wait/readiness";
import { ProviderError } from "../../../errors/providerError";

// An instance's diff: what changes, whether in place or by a replacement, and in which order.

/** What changed between state and the program, and which changes replace the instance. */
export async function diffInstance(ctx: ProviderContext, id: string, olds: InstanceOutputs, news: InstanceInputs): Promise<PropertyDiffResult> {
    holdsInState(ctx.client().baseUrl, Number(olds.instanceId ?? id));
    const finish = await createToFinish(ctx, Number(olds.instanceId ?? id), olds, news);
    if (finish !== "finish") await warnIfStillEnded(ctx, Number(olds.instanceId ?? id), olds);
    // `adopt` matters only when it names another instance (a replace); removed, or set to this one, it changes nothing.
    const changed = changedProperties(olds, news, INSTANCE_PROPERTIES).filter((p) => p !== "adopt" || adoptsAnother(olds, news));
    const replaces = replacingChanges(olds, news, changed);
    // One instance per offer: a replacement on the same offer can only start once the old one is gone.
    const sameOffer = news.offerId !== undefined && !isUnknown(news.offerId) && (olds.rentedOfferId ?? olds.offerId) === news.offerId;
    // A mounted volume keeps the replacement to its machine, whose offer the old instance may hold;
    // and two instances must not write one volume at once.
    const mountsVolume = Array.isArray(news.volumes) && news.volumes.length > 0;
    // What check refuses for a bid too high to change in place on the same offer, seen here too:
    // check's olds are the inputs, which do not say what a search rented (a pin of it with a new bid).
    const [highBid] = highBidOnSameOffer(news, { price: olds.price, offerId: olds.rentedOfferId ?? olds.offerId }, replaces);
    if (highBid) throw new ProviderError("invalid_input", `vastai: ${highBid.property}: ${highBid.reason}`);
    const [itself] = replacementAdoptsItself(olds, news, replaces);
    if (itself) throw new ProviderError("invalid_input", `vastai: ${itself.property}: ${itself.reason}`);
    // A bid change whose response was lost is sent again (in place), whatever `price` says.
    const bidToConfirm = olds.bidUnconfirmed !== undefined && news.price !== undefined;
    // So is a label edit whose response was lost and could not be read back (see `labelUnconfirmed`).
    const labelToConfirm = olds.labelUnconfirmed === true && news.label !== undefined;
    if (finish === "finish") return { changes: true, replaces: [...replaces, "unfinishedCreate"], deleteBeforeReplace: true, diffs: changed };
    // Running since: an update in place clears the mark, or a job that ends later would be taken for a create to finish.
    const runsNow = finish === "runs";
    return {
        changes: changed.length > 0 || shimChanged(olds, news) || bidToConfirm || labelToConfirm || runsNow,
        replaces,
        deleteBeforeReplace: replaces.length > 0 && (sameOffer || mountsVolume),
        diffs: [...new Set([...changed, ...(bidToConfirm ? ["price"] : []), ...(labelToConfirm ? ["label"] : [])])],
    };
}

/**
 * Whether this `up` finishes a create that was cut short (`unfinishedCreate`), as the service shows
 * the instance now: `finish` when it will not run (it is replaced, destroyed first, and the new
 * create avoids the machines that failed it: failedMachines.ts); `runs` when it runs since (the
 * mark is to go). A look that fails decides nothing.
 */
async function createToFinish(ctx: ProviderContext, instanceId: number, olds: InstanceOutputs, news: InstanceInputs): Promise<"finish" | "runs" | undefined> {
    if (olds.unfinishedCreate === undefined) return undefined;
    let record;
    try {
        record = await sharedInstanceReader(ctx.client()).get(instanceId);
    } catch {
        return undefined;
    }
    if (record?.actual_status === "running") return "runs";
    // Only one that will not run (exited, unknown, offline, or an error): not one stopped, or still starting.
    if (!record || record.intended_status === "stopped" || startState(record).kind !== "failed") return undefined;
    rememberFailedMachines(ctx.client().baseUrl, news, olds.unfinishedCreate.failedMachineIds);
    ctx.log.warn(
        `instance ${instanceId} never reached running (${record.actual_status ?? "no status"}) before its create was cut short: ` +
            `this \`pulumi up\` finishes the create, destroying it and renting again, not on machine ${olds.unfinishedCreate.failedMachineIds.join(", ")}`,
    );
    return "finish";
}

/**
 * At an `up` or preview of an instance that state (the last refresh) says has ended: the warning
 * again, but only if a look at the service (shared with other reads) finds it still ended, since its
 * owner may have restarted it since. Never fails the diff, and costs no call for any other instance.
 */
async function warnIfStillEnded(ctx: ProviderContext, instanceId: number, olds: InstanceOutputs): Promise<void> {
    const recorded = recordedStatus(olds);
    const pinned = olds.offerId !== undefined;
    if (!endedWarning(instanceId, recorded, pinned)) return;
    let ended: string | undefined;
    try {
        const record = await sharedInstanceReader(ctx.client()).get(instanceId);
        ended = record && endedWarning(instanceId, record, pinned);
    } catch {
        return; // a look that failed says nothing either way
    }
    if (ended) ctx.log.warn(ended);
}
