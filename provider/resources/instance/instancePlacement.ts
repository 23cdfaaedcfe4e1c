import { randomBytes } from "crypto";
import { VastNotFoundError, VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { warn } from "../../runtime/log";
import { sleepScaled } from "../../runtime/providerContext";
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
/** Waits before each look, at live speed: the service may still be working on a lost create. */
const LOOK_AFTER_MS = [0, 2000, 5000];

/** The instances carrying `label`, lowest id first; looks a few times before answering none. */
async function findByLabel(vast: VastClient, label: string): Promise<number[]> {
    for (const waitMs of LOOK_AFTER_MS) {
        await sleepScaled(waitMs);
        const found = await vast.instances.listAll({ label: { eq: label } });
        if (found.length > 0) return found.map((i) => i.id).sort((a, b) => a - b);
    }
    return [];
}

/**
 * Creates an instance on `offerId` and returns its id. `request.label` must come from
 * `placementLabel`. A lost answer is resolved by finding the instance it made; only when there is
 * none is the create sent once more. Should two turn up, the extras are destroyed: the label is
 * this placement's alone, so they are certainly duplicates of it.
 */
export async function placeInstance(vast: VastClient, offerId: number, request: InstanceCreateRequest): Promise<number> {
    const label = request.label;
    if (!label) throw new Error("placeInstance needs the placement label in the request");
    for (let send = 1; ; send++) {
        try {
            return (await vast.instances.create(offerId, request)).instanceId;
        } catch (e) {
            // After a lost answer, "no such offer" may mean our first create holds it.
            const mayExist = e instanceof VastOutcomeUnknownError || (send > 1 && e instanceof VastNotFoundError);
            if (!mayExist) throw e;
            warn(`the answer to create instance on offer ${offerId} was lost; looking for an instance labelled ${label} before trying again`);
            const [id, ...extras] = await findByLabel(vast, label);
            for (const extra of extras) {
                warn(`instance ${extra} duplicates instance ${id} (same placement label); destroying it`);
                // Best effort: failing here must not lose the instance that was found.
                await vast.instances.destroy(extra).catch((err: Error) => warn(`could not destroy duplicate instance ${extra}: ${err.message}; destroy it by hand`));
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
