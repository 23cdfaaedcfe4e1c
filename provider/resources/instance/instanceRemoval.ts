import { confirmedRemoval } from "../../client/api/removal";
import { VastClient } from "../../client/vastClient";
import { noteOfferReleased } from "./offerRelease";

/**
 * Destroys an instance and makes sure it is gone (see `confirmedRemoval`): a lost answer never
 * reads as a failure to destroy, and a failure never reads as gone. The offer it held is noted
 * as freed, so renting it again waits for the marketplace to return it.
 */
export async function destroyConfirmed(vast: VastClient, instanceId: number, offerId?: number): Promise<{ alreadyGone: boolean }> {
    const result = await confirmedRemoval(
        () => vast.instances.destroy(instanceId),
        async () => (await vast.instances.show(instanceId)) !== undefined,
    );
    noteOfferReleased(offerId);
    return result;
}
