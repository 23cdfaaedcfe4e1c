import { randomBytes } from "crypto";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceCreateRequest, InstanceRecord } from "../../../schemas/instance";
import { findLostCreate } from "../../lostCreate";
import { destroyConfirmed } from "./instanceRemoval";

// Where a create places an instance: the offer chosen, and the placement token, a value unique to
// the create carried in the instance's env, by which a create whose response was lost is found
// (docs/design/instance-create.md, "Lost responses").

/** The offer an attempt rents, and what the search said of its machine. */
export interface ChosenOffer {
    offerId: number;
    /** The offer's instance exists already: an interrupted create's, taken over (createResume.ts), not rented again. */
    takenOver?: number;
    /** The placement token of the instance taken over, when it was found by its create key (takeOverByKey.ts). */
    token?: string;
    machineId?: number;
    gpuName?: string;
    numGpus?: number;
    geolocation?: string;
}

/** The env variable that carries a create's token; every instance this provider made has it. */
export const PLACEMENT_ENV = "PULUMI_VASTAI_PLACEMENT";

/** The env variable that lists the machines a create's earlier attempts saw fail, for an `up` that takes it over. */
export const AVOID_ENV = "PULUMI_VASTAI_AVOID";

/** `request` naming the machines its create avoids (none: left out). */
export function withAvoided(request: InstanceCreateRequest, machineIds: readonly number[]): InstanceCreateRequest {
    return machineIds.length === 0 ? request : { ...request, env: { ...request.env, [AVOID_ENV]: machineIds.join(",") } };
}

/** A token no other create carries: `<offer>-<random>`. */
export function placementToken(offerId: number): string {
    return `${offerId}-${randomBytes(6).toString("hex")}`;
}

/**
 * `request` carrying a placement token in its env: a new one, or `kept` (the token an interrupted
 * create gave the instance taken over).
 */
export function withPlacementToken(request: InstanceCreateRequest, offerId: number, kept: string | undefined): InstanceCreateRequest {
    return { ...request, env: { ...request.env, [PLACEMENT_ENV]: kept ?? placementToken(offerId) } };
}

/** The token an instance record carries, when the record shows its env. */
function tokenOf(record: InstanceRecord): string | undefined {
    return record.extra_env?.find(([key]) => key === PLACEMENT_ENV)?.[1];
}

/**
 * The instances a create with this label and token made, oldest first. Matched here, not only by
 * the list's filter: a list that ignored its filter must not make others' instances ours. A record
 * that does not show its env is read on its own.
 */
export async function instancesPlacedBy(vast: VastClient, label: string | undefined, token: string): Promise<number[]> {
    const wanted = label || undefined; // no label and an empty one read back alike
    const listed = await vast.instances.listAll(wanted !== undefined ? { label: { eq: wanted } } : {});
    const sameLabel = listed.filter((i) => (i.label || undefined) === wanted);
    const placed: number[] = [];
    for (const listed of sameLabel) {
        const record = listed.extra_env ? listed : await vast.instances.show(listed.id);
        if (record && tokenOf(record) === token) placed.push(listed.id);
    }
    return placed.sort((a, b) => a - b);
}

/** How much older than the lost send a holder may look, the service's clock against this machine's, at live speed. */
const CLOCK_SKEW_MS = 60_000;

/**
 * An instance of another create holding `offerId` since the lost send: its token names the offer
 * but is not `token`, it was made after `sentAt` (an older one, say the instance a replacement
 * just destroyed, may still be listed a while), and it is not stopped or ended. An offer holds one
 * instance, so it proves that `token`'s create made none there.
 */
async function heldByAnother(ctx: Pick<ProviderContext, "clock">, vast: VastClient, offerId: number, token: string, sentAt: number): Promise<number | undefined> {
    const since = sentAt - ctx.clock.scaled(CLOCK_SKEW_MS);
    for (const listed of await vast.instances.listAll({})) {
        const record = listed.extra_env ? listed : ((await vast.instances.show(listed.id)) ?? listed);
        const other = tokenOf(record);
        if (other === undefined || other === token || !other.startsWith(`${offerId}-`)) continue;
        const holding = !["exited", "unknown", "offline", "stopped"].includes(record.actual_status ?? "") && record.intended_status !== "stopped";
        if (holding && (record.start_date ?? 0) * 1000 >= since) return record.id;
    }
    return undefined;
}

/** What a lost (or interrupted) create of one placement is looked for by. */
export interface Placement {
    offerId: number;
    label: string | undefined;
    token: string;
}

/**
 * The instance a placement's create made, found by its token (see lostCreate.ts), or undefined
 * once enough answered looks found none. Should two turn up, the extras are destroyed: the token
 * is this placement's alone, so they are certainly duplicates. `untilFound` (with when the lost
 * send left): something was most likely made, so answered looks that find nothing do not end the
 * search: the deadline does, or another create's instance holding the offer (`heldByAnother`).
 */
export async function findPlaced(
    ctx: ProviderContext,
    vast: VastClient,
    placement: Placement,
    deadlineAt: number,
    untilFound: false | { sentAt: number },
): Promise<number | undefined> {
    const { offerId, label, token } = placement;
    const found = await findLostCreate(ctx, {
        what: `instance on offer ${offerId}`,
        lookFor: `an instance with ${PLACEMENT_ENV}=${token} in its env`,
        look: async () => {
            const ids = await instancesPlacedBy(vast, label, token);
            if (ids.length > 0) return ids;
            const holder = untilFound ? await heldByAnother(ctx, vast, offerId, token, untilFound.sentAt) : undefined;
            if (holder === undefined) return undefined;
            ctx.log.progress(`offer ${offerId} is held by instance ${holder}, another create's: this create made none there`);
            return [];
        },
        deadlineAt,
        untilFound: untilFound !== false,
        // The instance, if made, carries the create's key: the next `up` finds it (takeOverByKey.ts).
        whenUndecided:
            `Run \`pulumi up\` again, on any machine: with the program unchanged, it looks for the instance by the create's key in its env ` +
            `(beside ${PLACEMENT_ENV}=${token}) and takes it over if it is there rather than rent another`,
    });
    const [id, ...extras] = found ?? [];
    for (const extra of extras) {
        ctx.log.warn(`instance ${extra} duplicates instance ${id} (same placement token); destroying it`);
        // Best effort: failing here must not lose the instance that was found.
        await destroyConfirmed(ctx, vast, extra).catch((err: Error) => ctx.log.warn(`could not destroy duplicate instance ${extra}: ${err.message}; destroy it by hand`));
    }
    return id;
}
