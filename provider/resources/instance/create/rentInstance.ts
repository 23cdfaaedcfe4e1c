import { VastOutcomeUnknownError } from "../../../client/errors";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { rentWhenFree } from "../common/offerRelease";
import { InstanceCreateRequest } from "../../../schemas/instance";
import { CreateRecord } from "../journal/createJournal";
import { InstanceInputs } from "../instanceArgs";
import { ChosenOffer } from "../common/placement";
import { PLACEMENT_ENV, findPlaced } from "../common/placement";

/** The create's response, or that it was lost: the instance may or may not exist. */
export type SentRent = { instanceId: number } | { instanceId?: undefined; lost: VastOutcomeUnknownError; lookUntil: number };

/**
 * Sends the create of an instance on `offer`; `request.env` carries its placement token. An offer
 * this process has just freed is waited for (see offerRelease.ts). A refusal clears the journal
 * entry (nothing was made) and throws; a lost response is returned, for `recoverLostRent`, with
 * until when to look for what it made: `readyTimeoutSeconds` from the send, and no sooner than
 * lostCreate.ts's own minimum from the loss.
 */
export async function sendRent(
    ctx: ProviderContext,
    vast: VastClient,
    offer: ChosenOffer,
    request: InstanceCreateRequest,
    inputs: InstanceInputs,
    journal: CreateRecord,
): Promise<SentRent> {
    const lookUntil = ctx.clock.now() + ctx.clock.scaled(inputs.readyTimeoutSeconds * 1000);
    try {
        return { instanceId: await rentOnce(ctx, vast, offer.offerId, request, journal) };
    } catch (e) {
        if (e instanceof VastOutcomeUnknownError) return { lost: e, lookUntil };
        journal.cleared();
        throw e;
    }
}

/**
 * After a lost response: the instance the create made, found by its placement token
 * (`findPlaced`); only when there is none is the create sent once more, and after a second
 * failure looked for again until `deadlineAt` (never a third send). The journal entry is given
 * what was found, or cleared once answered looks found nothing.
 */
export async function recoverLostRent(
    ctx: ProviderContext,
    vast: VastClient,
    offer: ChosenOffer,
    request: InstanceCreateRequest,
    deadlineAt: number,
    journal: CreateRecord,
): Promise<number> {
    const { offerId } = offer;
    const token = request.env![PLACEMENT_ENV];
    const placement = { offerId, label: request.label, token };
    const lookedFor = () =>
        ctx.log.warn(`the answer to create instance on offer ${offerId} was lost; looking for an instance with ${PLACEMENT_ENV}=${token} in its env before trying again`);
    lookedFor();
    const found = await findPlaced(ctx, vast, placement, deadlineAt, false);
    if (found !== undefined) {
        journal.placed(found);
        return found;
    }
    try {
        // The re-send too waits for an offer this process just freed: an offer holds one
        // instance, so a re-send can never make a second, and "not back yet" is no sign that
        // the first send made one (after a 500 that made nothing, the look would otherwise
        // search until the deadline for an instance that does not exist).
        return await rentOnce(ctx, vast, offerId, request, journal);
    } catch (e) {
        // After a lost answer, any refusal of the re-send ("no such offer" above all) may mean
        // our first create holds the offer: never a plain refusal that lets a search move on.
        lookedFor();
        // The offer refused a re-send: most likely our first create holds it, so the look
        // goes on until the deadline rather than conclude "nothing" from a slow listing.
        const id = await findPlaced(ctx, vast, placement, deadlineAt, true);
        if (id !== undefined) {
            journal.placed(id);
            return id;
        }
        journal.cleared(); // looked for, and answered looks found none
        throw new Error(`${(e as Error).message}; no instance with ${PLACEMENT_ENV}=${token} in its env was found afterwards, and the create was not sent a third time`);
    }
}

/** One create call; its instance is given to the journal entry. */
async function rentOnce(ctx: ProviderContext, vast: VastClient, offerId: number, request: InstanceCreateRequest, journal: CreateRecord): Promise<number> {
    const rented = await rentWhenFree(ctx, vast, offerId, request);
    if (rented.startedStopped && request.target_state !== "stopped") {
        ctx.log.progress(`instance ${rented.instanceId} on offer ${offerId} was created stopped: the service says its machine cannot run it now`);
    }
    journal.placed(rented.instanceId);
    return rented.instanceId;
}
