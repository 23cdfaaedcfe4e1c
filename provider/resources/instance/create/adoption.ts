import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { keyAccount, createdBy } from "../../sameAccount";
import { InstanceInputs, InstanceOutputs } from "../instanceArgs";
import { CREATE_KEY_ENV, keyOf } from "../common/createKey";
import { createdWithDisagreements } from "../common/createdWith";
import { holdsInState } from "../common/heldInstances";
import { definedOnly, inputsFromRecord, inputsOf, instanceOutputs, reportedByService } from "../common/instanceMapping";
import { ProviderError } from "../../../errors/providerError";

// Adoption (`adopt`): an instance the account already has taken into the stack instead of renting
// one, as Pulumi's own `import` cannot for a dynamic provider. Nothing is rented, so a failed
// adoption leaves nothing to duplicate: the next `up` adopts the same instance again.

/** The in-place update an adoption runs, from the instance as read to the program's inputs. */
export type InPlaceUpdate = (id: string, olds: InstanceOutputs, news: InstanceInputs) => Promise<{ outs: InstanceOutputs }>;

/**
 * Adopts instance `desired.adopt`: its id and outputs once its label and state are the program's.
 * `desired` are the inputs as create got them, `__provider` included: an update that fails hands
 * them back in its init failure, which the host cannot send without it (the instance then stays
 * out of state, and the host process fails).
 */
export async function adoptInstance(
    ctx: ProviderContext,
    vast: VastClient,
    desired: InstanceInputs,
    update: InPlaceUpdate,
): Promise<{ id: string; outs: InstanceOutputs }> {
    const instanceId = desired.adopt!;
    const account = keyAccount(ctx);
    let record = await vast.instances.show(instanceId);
    if (!record) {
        throw new ProviderError(
            "adopt_not_found",
            `vastai: adopt instance ${instanceId} failed: the account has no instance ${instanceId} (destroyed, another account's, or a mistyped id); ` +
                "remove `adopt` and give offerId or offer to rent one",
        );
    }
    const rentedFor = keyOf(record);
    if (rentedFor !== undefined && desired.createSlot !== undefined && rentedFor.slot !== desired.createSlot) {
        // That resource's next create would find it by its key and take it over: two states would hold it.
        throw new ProviderError(
            "adopt_taken",
            `vastai: adopt instance ${instanceId} failed: it was rented by a \`pulumi up\` of another resource (or another stack) that stopped ` +
                `before its create returned (${CREATE_KEY_ENV} in its env), and that resource's next \`pulumi up\` takes it over. ` +
                "Run `pulumi up` for that resource, or destroy the instance; to move it between resources, use an alias",
        );
    }
    const disagreements = createdWithDisagreements(record, desired);
    if (disagreements.length > 0) {
        throw new ProviderError(
            "adopt_mismatch",
            `vastai: adopt instance ${instanceId} failed: the program disagrees with what it was created with, which only a replacement changes:\n  ` +
                `${disagreements.join("\n  ")}\nMake the program say what the instance has (or leave the property out), then run the command again`,
        );
    }
    if (desired.price !== undefined) {
        // The bid it has is not read back (`dph_total` holds more), so the program's is sent: state
        // then says the bid the instance has. A failure leaves it out of state, nothing rented; the
        // next `up` adopts it and sends the bid again.
        await vast.instances.changeBid(record.id, desired.price);
        ctx.log.progress(`instance ${instanceId}: bid set to $${desired.price}/hour`);
        record = (await vast.instances.show(instanceId)) ?? record;
    }
    ctx.log.progress(`instance ${instanceId}: adopted (${record.actual_status ?? "status unknown"})`);
    holdsInState(vast.baseUrl, record.id); // from here on it reaches state, even if the update fails
    // The instance as a refresh would record it (its label and state as they are), then updated to the program's.
    const asRead = inputsFromRecord(record, inputsOf(desired as unknown as Record<string, unknown>)) as InstanceInputs;
    const olds = instanceOutputs(asRead, record.id, { ...definedOnly(reportedByService(record)), ...(await createdBy(ctx, account)) }, undefined);
    const { outs } = await update(String(record.id), olds, desired);
    return { id: String(record.id), outs };
}
