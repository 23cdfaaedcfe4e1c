import { confirmedDelete } from "../../confirmedDelete";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { CreatedBy } from "../../sameAccount";
import { instanceUnlessGone } from "./instanceLookup";
import { rememberReleased } from "./offerRelease";

/**
 * Destroys an instance and makes sure it is gone (see `confirmedDelete`): a lost answer never
 * reads as a failure to destroy, and a failure never reads as gone. The offer it held is noted
 * as freed, so renting it again waits for the marketplace to return it. `createdBy`: the account that
 * made it (or its key's mark), when state knows (another account's key finds nothing to destroy: not gone).
 */
export async function destroyConfirmed(
    ctx: Pick<ProviderContext, "clock" | "log" | "currentUserId" | "keyMark">,
    vast: VastClient,
    instanceId: number,
    offerId?: number,
    createdBy: CreatedBy = {},
): Promise<{ alreadyGone: boolean }> {
    const result = await confirmedDelete(
        ctx,
        { operation: "destroy instance", target: String(instanceId) },
        () => vast.instances.destroy(instanceId),
        async () => (await instanceUnlessGone(ctx, vast, instanceId, createdBy)) !== undefined,
    );
    rememberReleased(offerId);
    return result;
}
