import { VastOutcomeUnknownError } from "../../../client/errors";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { findLostCreate } from "../../lostCreate";
import { destroyConfirmed } from "../delete/instanceRemoval";
import { rentWhenFree } from "../delete/offerRelease";
import { InstanceCreateRequest } from "../../../schemas/instance";
import { CreateRecord } from "../journal/createJournal";
import { ChosenOffer } from "./offerChoice";
import { PLACEMENT_ENV, instancesPlacedBy } from "./placementToken";

/** Sends at most this many creates for one placement; the second only after the first was looked for. */
const MAX_SENDS = 2;

/** What a lost (or interrupted) create of one placement is looked for by. */
export interface Placement {
    offerId: number;
    label: string | undefined;
    token: string;
}

/**
 * The instance a placement's create made, found by its token (see lostCreate.ts), or undefined
 * once enough answered looks found none. Should two turn up, the extras are destroyed: the token
 * is this placement's alone, so they are certainly duplicates. `untilFound`: something was most
 * likely made, so answered looks that find nothing do not end the search, the deadline does.
 */
export async function findPlaced(ctx: ProviderContext, vast: VastClient, placement: Placement, deadlineAt: number, untilFound: boolean): Promise<number | undefined> {
    const { offerId, label, token } = placement;
    const found = await findLostCreate(ctx, {
        what: `instance on offer ${offerId}`,
        lookFor: `an instance with ${PLACEMENT_ENV}=${token} in its env`,
        look: async () => {
            const ids = await instancesPlacedBy(vast, label, token);
            return ids.length > 0 ? ids : undefined;
        },
        deadlineAt,
        untilFound,
        // The create's note on disk is kept (createJournal.ts): the next `up` looks again.
        whenUndecided:
            `Run \`pulumi up\` again on this machine: it looks for an instance with ${PLACEMENT_ENV}=${token} in its env once more, and ` +
            "with the program unchanged, takes it over if it is there rather than rent another. Elsewhere, look for it in the Vast.ai console and remove it there first",
    });
    const [id, ...extras] = found ?? [];
    for (const extra of extras) {
        ctx.log.warn(`instance ${extra} duplicates instance ${id} (same placement token); destroying it`);
        // Best effort: failing here must not lose the instance that was found.
        await destroyConfirmed(ctx, vast, extra).catch((err: Error) => ctx.log.warn(`could not destroy duplicate instance ${extra}: ${err.message}; destroy it by hand`));
    }
    return id;
}

/**
 * Creates an instance on `offer` and returns its id. `request.env` must carry `PLACEMENT_ENV`
 * with a token from `placementToken`. A lost answer is resolved by finding the instance it made
 * (`findPlaced`); only when there is none is the create sent once more. An offer this process has
 * just freed is waited for (see offerRelease.ts). `deadlineAt`: until when a lost answer is looked
 * for, and no sooner than lostCreate.ts's own minimum from the loss. `journal`: the create's entry
 * in the journal (createJournal.ts), written before the rent is sent and given its answer.
 */
export async function placeInstance(
    ctx: ProviderContext,
    vast: VastClient,
    offer: ChosenOffer,
    request: InstanceCreateRequest,
    deadlineAt: number,
    journal: CreateRecord,
): Promise<number> {
    const { offerId } = offer;
    const token = request.env?.[PLACEMENT_ENV];
    if (!token) throw new Error(`placeInstance needs the placement token in the request's env (${PLACEMENT_ENV})`);
    const placement = { offerId, label: request.label, token };
    journal.placing(offer, token, request.label);
    for (let send = 1; ; send++) {
        try {
            // The re-send too waits for an offer this process just freed: an offer holds one
            // instance, so a re-send can never make a second, and "not back yet" is no sign that
            // the first send made one (after a 500 that made nothing, the look would otherwise
            // search until the deadline for an instance that does not exist).
            const rented = await rentWhenFree(ctx, vast, offerId, request);
            if (rented.startedStopped && request.target_state !== "stopped") {
                ctx.log.progress(`instance ${rented.instanceId} on offer ${offerId} was created stopped: the service says its machine cannot run it now`);
            }
            journal.placed(rented.instanceId);
            return rented.instanceId;
        } catch (e) {
            // After a lost answer, any refusal of the re-send ("no such offer" above all) may mean
            // our first create holds the offer: never a plain refusal that lets a search move on.
            const mayExist = e instanceof VastOutcomeUnknownError || send > 1;
            if (!mayExist) {
                journal.cleared();
                throw e;
            }
            ctx.log.warn(`the answer to create instance on offer ${offerId} was lost; looking for an instance with ${PLACEMENT_ENV}=${token} in its env before trying again`);
            // The offer refused a re-send: most likely our first create holds it, so the look
            // goes on until the deadline rather than conclude "nothing" from a slow listing.
            const id = await findPlaced(ctx, vast, placement, deadlineAt, send > 1);
            if (id !== undefined) {
                journal.placed(id);
                return id;
            }
            if (send >= MAX_SENDS) {
                journal.cleared(); // looked for, and answered looks found none
                throw new Error(
                    `${(e as Error).message}; no instance with ${PLACEMENT_ENV}=${token} in its env was found afterwards, and the create was not sent a third time`,
                );
            }
        }
    }
}
