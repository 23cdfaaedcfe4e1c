import { ProviderContext } from "../../../dynamic/context";
import { InstanceOutputs } from "../instanceArgs";
import { forgetHeld } from "../journal/createJournal";
import { remindInterrupted } from "../journal/createResume";
import { destroyConfirmed } from "../common/instanceRemoval";
import { holdsInState } from "../common/heldInstances";

// An instance delete: destroyed, and confirmed gone before it leaves state.

export async function deleteInstance(ctx: ProviderContext, id: string, props: InstanceOutputs): Promise<void> {
    const instanceId = Number(props.instanceId ?? id);
    const vast = ctx.client();
    forgetHeld(() => vast.baseUrl, instanceId);
    holdsInState(vast.baseUrl, instanceId); // never taken over, though a listing taken before shows it
    const reminded = remindInterrupted(ctx, vast);
    const { alreadyGone } = await destroyConfirmed(ctx, vast, instanceId, props.rentedOfferId ?? props.offerId, props);
    ctx.log.progress(alreadyGone ? `instance ${instanceId} was already gone` : `instance ${instanceId} destroyed`);
    await reminded;
}
