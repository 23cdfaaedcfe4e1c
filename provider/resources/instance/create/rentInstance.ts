import { VastOutcomeUnknownError } from "../../../client/errors";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { rentWhenFree } from "../common/offerRelease";
import { InstanceCreateRequest } from "../../../schemas/instance";
import { InstanceInputs } from "../instanceArgs";
import { ChosenOffer, PLACEMENT_ENV, findPlaced } from "../common/placement";

/**
 * A rent's outcome: the instance it made, or the refusal that proves it made none. A rent whose
 * outcome stays open (its instance neither found nor proven absent) throws instead.
 */
export type Rent = { instanceId: number } | { instanceId?: undefined; notMade: unknown };

/**
 * Sends the create of an instance on `offer`; `request.env` carries its placement token. An offer
 * this process has just freed is waited for (see offerRelease.ts). A lost response is recovered
 * (`recoverLostRent`), looking until `readyTimeoutSeconds` from the send and no sooner than
 * lostCreate.ts's own minimum from the loss.
 */
export async function rentInstance(ctx: ProviderContext, vast: VastClient, offer: ChosenOffer, request: InstanceCreateRequest, inputs: InstanceInputs): Promise<Rent> {
    const lookUntil = ctx.clock.now() + ctx.clock.scaled(inputs.readyTimeoutSeconds * 1000);
    try {
        return { instanceId: await rentOnce(ctx, vast, offer.offerId, request) };
    } catch (e) {
        if (!(e instanceof VastOutcomeUnknownError)) return { notMade: e };
        return recoverLostRent(ctx, vast, offer, request, lookUntil, e.sentAt ?? ctx.clock.now());
    }
}

/**
 * After a lost response: the instance the create made, found by its placement token
 * (`findPlaced`); only when there is none is the create sent once more, and after a second
 * failure looked for again until `deadlineAt` (never a third send). Not made only once answered
 * looks found nothing, or, after the re-send, another create's instance holds the offer.
 */
async function recoverLostRent(
    ctx: ProviderContext,
    vast: VastClient,
    offer: ChosenOffer,
    request: InstanceCreateRequest,
    deadlineAt: number,
    sentAt: number,
): Promise<Rent> {
    const { offerId } = offer;
    const token = request.env![PLACEMENT_ENV];
    const placement = { offerId, label: request.label, token };
    const lookedFor = () =>
        ctx.log.warn(`the answer to create instance on offer ${offerId} was lost; looking for an instance with ${PLACEMENT_ENV}=${token} in its env before trying again`);
    lookedFor();
    const found = await findPlaced(ctx, vast, placement, deadlineAt, false);
    if (found !== undefined) return { instanceId: found };
    try {
        // The re-send too waits for an offer this process just freed: an offer holds one
        // instance, so a re-send can never make a second, and "not back yet" is no sign that
        // the first send made one (after a 500 that made nothing, the look would otherwise
        // search until the deadline for an instance that does not exist).
        return { instanceId: await rentOnce(ctx, vast, offerId, request) };
    } catch (e) {
        // After a lost answer, any refusal of the re-send ("no such offer" above all) may mean
        // our first create holds the offer: never a plain refusal that lets a search move on.
        lookedFor();
        // The offer refused a re-send: most likely our first create holds it, so the look
        // goes on until the deadline rather than conclude "nothing" from a slow listing.
        const id = await findPlaced(ctx, vast, placement, deadlineAt, { sentAt });
        if (id !== undefined) return { instanceId: id };
        // Another create's instance holds the offer: the re-send's refusal is the whole story.
        return { notMade: e };
    }
}

/** One create call. */
async function rentOnce(ctx: ProviderContext, vast: VastClient, offerId: number, request: InstanceCreateRequest): Promise<number> {
    const rented = await rentWhenFree(ctx, vast, offerId, request);
    if (rented.startedStopped && request.target_state !== "stopped") {
        ctx.log.progress(`instance ${rented.instanceId} on offer ${offerId} was created stopped: the service says its machine cannot run it now`);
    }
    return rented.instanceId;
}
