import { ProviderContext } from "../../../dynamic/context";
import { InstanceOutputs } from "../instanceArgs";
import { destroyConfirmed } from "../common/instanceRemoval";
import { holdsInState } from "../common/heldInstances";

// An instance delete: destroyed, and confirmed gone before it leaves state.

export async function deleteInstance(ctx: ProviderContext, id: string, props: InstanceOutputs): Promise<void> {
    const instanceId = Number(props.instanceId ?? id);
    const vast = ctx.client();
    holdsInState(vast.baseUrl, instanceId); // never taken over, though a listing taken before shows it
    const { alreadyGone } = await destroyConfirmed(ctx, vast, instanceId, props.rentedOfferId ?? props.offerId, props);
    ctx.log.progress(alreadyGone ? `instance ${instanceId} was already gone` : `instance ${instanceId} destroyed`);
}
