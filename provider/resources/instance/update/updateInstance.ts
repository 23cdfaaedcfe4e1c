import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs, InstanceOutputs } from "../instanceArgs";
import { normalizeInputs } from "../common/instanceMapping";
import { reachDesiredState } from "./desiredState";
import { sendBid, sendLabel, updateFailure, updatedOutputs, updateProgress } from "./inPlaceChanges";

// An instance update in place, its steps in order: the label, the bid, then the desired state.

/**
 * Changes what can change in place: the label, an interruptible instance's bid, and a start, a
 * stop or a wait for one still starting. A failure keeps the instance in state, as far as it got.
 */
export async function updateInstance(ctx: ProviderContext, id: string, olds: InstanceOutputs, news: InstanceInputs): Promise<{ outs: InstanceOutputs }> {
    const vast = ctx.client();
    const instanceId = Number(olds.instanceId ?? id);
    const desired = normalizeInputs(news);
    const progress = updateProgress(olds, desired);
    let record: InstanceRecord | undefined;
    try {
        if (progress.newLabel) await sendLabel(vast, instanceId, desired, progress);
        if (progress.newBid) await sendBid(ctx, vast, instanceId, olds, desired, progress);
        progress.taken.desiredState = desired.desiredState;
        record = await reachDesiredState(ctx, vast, instanceId, olds, desired);
        // The new price shows in `dph_total`: read it back when no wait did. So is a create cut
        // short (`unfinishedCreate`), whose mark goes once the instance is seen running.
        if ((progress.newBid || olds.unfinishedCreate) && !record) record = await vast.instances.show(instanceId);
    } catch (e) {
        throw updateFailure(e, instanceId, olds, news, desired, progress);
    }
    return { outs: updatedOutputs(instanceId, olds, desired, record) };
}
