import { ProviderContext } from "../../../dynamic/context";
import { isInitFailure } from "../../../dynamic/initFailure";
import { InstanceInputs, InstanceOutputs } from "../instanceArgs";
import { normalizeInputs } from "../common/instanceMapping";
import { stopAfterCreate } from "../wait/instanceState";
import { InPlaceUpdate, adoptInstance } from "./adoption";
import { rentUntilRunning } from "./attempts";
import { createdOutputs, keptInState, planCreate } from "./createRequest";
import { OfferChoice, chooseOffers } from "./offerChoice";
import { takeOverByKey } from "./takeOverByKey";
import { checkImageExists } from "./imageCheck";
import { createKeyOf } from "../common/createKey";
import { listingStale } from "../common/accountInstances";
import { volumeMachine } from "../common/volumeMachine";

// An instance create, its steps in order. Why each step is there: docs/design/instance-create.md.

/**
 * Rents an instance for `inputs` and waits until it runs; one that will not run is destroyed and
 * another machine tried. `update` finishes an adoption (`adopt`), which ends as an update does.
 */
export async function createInstance(ctx: ProviderContext, inputs: InstanceInputs, update: InPlaceUpdate): Promise<{ id: string; outs: InstanceOutputs }> {
    const vast = ctx.client();
    if (inputs.adopt !== undefined) return adoptInstance(ctx, vast, inputs, update); // nothing rented: taken as it is
    const desired = normalizeInputs(inputs);
    const key = createKeyOf(desired); // carried by the instance: the service's record of this create
    const plan = await planCreate(ctx, vast, desired, key);
    await checkImageExists(ctx, vast, desired, plan.template); // an image its registry does not have fails here, nothing rented
    let choice: OfferChoice | undefined;
    try {
        // What a stopped `up` of this resource rented, found on the service by its key from any machine, is taken over.
        const resumed = await takeOverByKey(ctx, vast, desired, key);
        const onMachine = await volumeMachine(vast, desired); // a local volume's machine, the only one it may run on
        choice = chooseOffers(ctx, vast, desired, resumed, onMachine);
        const made = await rentUntilRunning(ctx, vast, desired, plan, choice); // destroys what will not run, tries elsewhere
        // Asked even when created stopped: should the service run it anyway, it does not stay running.
        if (desired.desiredState === "stopped") made.record = await stopAfterCreate(ctx, vast, made.instanceId, desired, made.record);
        const outs = createdOutputs(desired, plan, choice.current, made);
        return { id: String(made.instanceId), outs };
    } catch (e) {
        const failure = keptInState(e, inputs, desired, plan, choice?.current);
        // What it may have rented is not in a listing taken before: the next `up` in this process lists again.
        if (!isInitFailure(failure)) listingStale(ctx, vast);
        throw failure;
    }
}
