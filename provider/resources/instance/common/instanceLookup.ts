import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { retryIfMissing } from "../../retryIfMissing";
import { CreatedBy, assertSameAccount } from "../../sameAccount";

/**
 * The one home of "is this instance gone", for a read and a destroy. The instance as the service
 * shows it, or undefined only when it is gone: missing from three looks a moment apart
 * (retryIfMissing.ts), each in the service's own words, and the key in use is the account's that made
 * it (`accountId`, or else `keyMark`: sameAccount.ts), since another account's key sees nothing either. A paid
 * instance leaves state only then.
 */
export async function instanceUnlessGone(
    ctx: Pick<ProviderContext, "clock" | "currentUserId" | "keyMark">,
    vast: VastClient,
    instanceId: number,
    createdBy: CreatedBy,
): Promise<InstanceRecord | undefined> {
    const show = () => vast.instances.show(instanceId);
    const record = await retryIfMissing(ctx.clock, await show(), show);
    if (!record) await assertSameAccount(ctx, `instance ${instanceId}`, createdBy.accountId, createdBy.keyMark);
    return record;
}
