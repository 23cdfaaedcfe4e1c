import { ProviderContext } from "../../../dynamic/context";
import { isInitFailure } from "../../../dynamic/initFailure";
import { InstanceInputs, InstanceOutputs } from "../instanceArgs";
import { normalizeInputs } from "../common/instanceMapping";
import { CreateRecord } from "../journal/createJournal";
import { remindInterrupted, resumeInterrupted, seesJournaledInstance } from "../journal/createResume";
import { stopAfterCreate } from "../wait/instanceState";
import { untilStarted } from "../wait/untilRunning";
import { InPlaceUpdate, adoptInstance } from "./adoption";
import { CreateAttempts } from "./attempts";
import { Made, createdOutputs, keptInState, labelAfterCreate, planCreate } from "./createRequest";
import { OfferChoice, chooseOffers } from "./offerChoice";
import { PLACEMENT_ENV, withPlacementToken } from "../common/placement";
import { recoverLostRent, sendRent } from "./rentInstance";

// An instance create, its steps in order. Why each step is there: docs/design/instance-create.md.

/**
 * Rents an instance for `inputs` and waits until it runs; one that will not run is destroyed and
 * another machine tried. `update` finishes an adoption (`adopt`), which ends as an update does.
 */
export async function createInstance(ctx: ProviderContext, inputs: InstanceInputs, update: InPlaceUpdate): Promise<{ id: string; outs: InstanceOutputs }> {
    const vast = ctx.client();
    if (inputs.adopt !== undefined) return adoptInstance(ctx, vast, inputs, update); // nothing rented: taken as it is
    const desired = normalizeInputs(inputs);
    const plan = await planCreate(ctx, vast, desired);
    // In the create journal until the engine has the instance: a stopped `up`'s create is taken over by the next.
    const journal = await CreateRecord.begin(ctx, vast.baseUrl, inputs, (entry) => seesJournaledInstance(ctx, vast, entry));
    let choice: OfferChoice | undefined;
    try {
        const resumed = await resumeInterrupted(ctx, vast, journal);
        const reminded = remindInterrupted(ctx, vast); // other interrupted creates, named beside the rent
        choice = chooseOffers(vast, desired, resumed);
        const attempts = new CreateAttempts(ctx, vast, desired, choice, journal);
        let made: Made | undefined;
        for (let attempt = 1; attempt <= attempts.max; attempt++) {
            const chosen = await attempts.nextOffer(attempt);
            const request = withPlacementToken(plan.request, chosen.offerId, chosen.takenOver !== undefined ? journal.token : undefined);
            let instanceId = chosen.takenOver;
            if (instanceId === undefined) {
                try {
                    journal.placing(chosen, request.env![PLACEMENT_ENV], request.label); // before the rent is sent
                    const sent = await sendRent(ctx, vast, chosen, request, desired, journal);
                    instanceId = sent.instanceId ?? (await recoverLostRent(ctx, vast, chosen, request, sent.lookUntil, journal));
                } catch (e) {
                    if (attempts.rentFailed(e, chosen, attempt) === "taken") attempt--; // nothing started: not an attempt
                    continue;
                }
            }
            const what = attempts.started(instanceId, chosen, attempt);
            await labelAfterCreate(vast, instanceId, desired, plan.request, journal, what);
            if (desired.waitForRunning || plan.createdStopped) journal.keep(); // the id, before a wait of minutes
            // Not waited for when the program says so; one created stopped is waited for by the stop below.
            const started = desired.waitForRunning && !plan.createdStopped ? await untilStarted(ctx, vast, instanceId, desired, what) : undefined;
            if (started === undefined || started.kind === "running") {
                made = { instanceId, record: started?.record };
                break;
            }
            await attempts.notRunning(started, instanceId, chosen, request, what, attempt);
        }
        if (!made) throw attempts.exhausted();
        // Asked even when created stopped: should the service run it anyway, it does not stay running.
        if (desired.desiredState === "stopped") made.record = await stopAfterCreate(ctx, vast, made.instanceId, desired, made.record);
        const outs = createdOutputs(desired, plan, choice.current, made);
        await reminded;
        journal.close();
        return { id: String(made.instanceId), outs };
    } catch (e) {
        const failure = keptInState(e, inputs, desired, plan, choice?.current);
        // The entry stays while something this create rented may run outside state.
        if (isInitFailure(failure) || !journal.mayHoldInstance) journal.close();
        throw failure;
    }
}
