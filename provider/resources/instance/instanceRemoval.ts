import { confirmedRemoval } from "../../client/api/removal";
import { VastClient } from "../../client/vastClient";
import { Clock } from "../../dynamic/context";
import { lookAgainIfMissing } from "../lookAgain";
import { noteOfferReleased } from "./offerRelease";

/**
 * Destroys an instance and makes sure it is gone (see `confirmedRemoval`): a lost answer never
 * reads as a failure to destroy, and a failure never reads as gone. The offer it held is noted
 * as freed, so renting it again waits for the marketplace to return it.
 */
export async function destroyConfirmed(
    ctx: { clock: Clock },
    vast: VastClient,
    instanceId: number,
    offerId?: number,
): Promise<{ alreadyGone: boolean }> {
    const show = () => vast.instances.show(instanceId);
    const result = await confirmedRemoval(
        { operation: "destroy instance", target: String(instanceId) },
        () => vast.instances.destroy(instanceId),
        async () => (await lookAgainIfMissing(ctx.clock, await show(), show)) !== undefined,
    );
    noteOfferReleased(offerId);
    return result;
}
