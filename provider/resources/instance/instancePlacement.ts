import { randomBytes } from "crypto";
import { VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { ProviderContext } from "../../dynamic/context";
import { findLostCreate } from "../lostCreate";
import { destroyConfirmed } from "./instanceRemoval";
import { rentWhenFree } from "./offerRelease";
import { InstanceCreateRequest } from "../../schemas/instance";

/**
 * Accepting an offer starts a paid instance, and the create call has no idempotency key: a create
 * whose answer is lost (a timeout, a reset, a 5xx after sending) must not simply be sent again.
 * Each create therefore carries a label unique to it; when the outcome is unknown, the instance is
 * looked for by that label in the v1 list before anything is re-sent. The user's own label is set
 * once the instance id is known.
 */

/** A label no other create carries: `pulumi-vastai-<offer>-<random>`. */
export function placementLabel(offerId: number): string {
    return `pulumi-vastai-${offerId}-${randomBytes(6).toString("hex")}`;
}

/** Sends at most this many creates for one placement; the second only after the first was looked for. */
const MAX_SENDS = 2;

/**
 * Creates an instance on `offerId` and returns its id. `request.label` must come from
 * `placementLabel`. A lost answer is resolved by finding the instance it made (see lostCreate.ts);
 * only when there is none is the create sent once more. Should two turn up, the extras are
 * destroyed: the label is this placement's alone, so they are certainly duplicates of it.
 * An offer this process has just freed is waited for (see offerRelease.ts).
 */
export async function placeInstance(
    ctx: ProviderContext,
    vast: VastClient,
    offerId: number,
    request: InstanceCreateRequest,
    deadlineAt: number,
): Promise<number> {
    const label = request.label;
    if (!label) throw new Error("placeInstance needs the placement label in the request");
    for (let send = 1; ; send++) {
        try {
            return (await rentWhenFree(ctx, vast, offerId, request, send === 1)).instanceId;
        } catch (e) {
            // After a lost answer, any refusal of the re-send ("no such offer" above all) may mean
            // our first create holds the offer: never a plain refusal that lets a search move on.
            const mayExist = e instanceof VastOutcomeUnknownError || send > 1;
            if (!mayExist) throw e;
            ctx.log.warn(`the answer to create instance on offer ${offerId} was lost; looking for an instance labelled ${label} before trying again`);
            const found = await findLostCreate(ctx, {
                what: `instance on offer ${offerId}`,
                lookFor: `an instance labelled ${label}`,
                look: async () => {
                    // Matched here too: a list that ignored its filter must not make others' instances ours.
                    const ids = (await vast.instances.listAll({ label: { eq: label } })).filter((i) => i.label === label).map((i) => i.id);
                    return ids.length > 0 ? ids.sort((a, b) => a - b) : undefined;
                },
                deadlineAt,
                // The offer refused a re-send: most likely our first create holds it, so the look
                // goes on until the deadline rather than conclude "nothing" from a slow listing.
                untilFound: send > 1,
            });
            const [id, ...extras] = found ?? [];
            for (const extra of extras) {
                ctx.log.warn(`instance ${extra} duplicates instance ${id} (same placement label); destroying it`);
                // Best effort: failing here must not lose the instance that was found.
                await destroyConfirmed(vast, extra).catch((err: Error) => ctx.log.warn(`could not destroy duplicate instance ${extra}: ${err.message}; destroy it by hand`));
            }
            if (id !== undefined) return id;
            if (send >= MAX_SENDS) {
                throw new Error(
                    `${(e as Error).message}; no instance labelled ${label} was found afterwards, and the create was not sent a third time`,
                );
            }
        }
    }
}
