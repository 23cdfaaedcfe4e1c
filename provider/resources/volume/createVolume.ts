/** A Volume create, its steps in order: choose the offer, list, send the create, learn the id by listing (a lost answer too). */
import { VastOutcomeUnknownError } from "../../client/errors";
import { VolumeKind, VolumeOfferSearch, volumeOfferQuery } from "../../client/api/volumes";
import { VastClient } from "../../client/vastClient";
import { ProviderContext } from "../../dynamic/context";
import { VolumeOfferFilters, VolumeOfferRecord, VolumeRecord } from "../../schemas/volume";
import { findLostCreate, oneCreateAtATime } from "../lostCreate";
import { VolumeInputs, VolumeOutputs, generatedName } from "./volumeArgs";
import { outputsOf } from "./volumeRecords";
import { ProviderError } from "../../errors/providerError";
import { ErrorCode } from "../../errors/codes";

/** Volumes this process made: a create's look never takes one for its own. */
const createdHere = new Set<number>();

export async function createVolume(ctx: ProviderContext, inputs: VolumeInputs, kind: VolumeKind): Promise<{ id: string; outs: VolumeOutputs }> {
    const vast = ctx.client();
    const what = kind === "network" ? "network volume" : "volume";
    if (inputs.adopt !== undefined) return adoptVolume(ctx, vast, inputs, kind, what); // nothing created: taken as it is
    // What a stopped `up` of this resource made, found on the service by its made name from any machine, is taken over.
    const interrupted = await madeByStoppedUp(ctx, vast, inputs, kind);
    if (interrupted) return { id: String(interrupted.id), outs: outputsOf(inputs, interrupted, {}) };
    const chosen = await chooseOffer(vast, inputs, kind);
    // One name at a time in this process: a look must not take the volume another create of the name is waiting for.
    return oneCreateAtATime(`volume ${inputs.name}`, async () => {
        // Listed before the send: the volume this create makes is one not listed here. If the list cannot be read, nothing is sent.
        const before = new Set((await vast.volumes.list(kind)).map((v) => v.id));
        const sentAt = ctx.clock.now();
        let answered = true;
        try {
            await vast.volumes.create(chosen.offerId, inputs.sizeGb, inputs.name, kind);
        } catch (e) {
            if (!(e instanceof VastOutcomeUnknownError)) throw e; // refused: nothing made
            answered = false;
            ctx.log.warn(`the answer to create ${what} ${inputs.name} on volume offer ${chosen.offerId} was lost; looking for it before trying again`);
        }
        // The answer names the volume but gives no id: a listing tells it, for a lost answer as for a good one.
        const made = await findMade(ctx, vast, inputs, chosen.offerId, before, sentAt, answered, kind);
        if (!made) throw new ProviderError("lost_create_not_made", `vastai: create ${what} ${inputs.name} on volume offer ${chosen.offerId} failed: its answer was lost, and no such volume was made; run \`pulumi up\` again`);
        createdHere.add(made.id);
        ctx.log.progress(`${what} ${made.id} (${inputs.name}, ${inputs.sizeGb} GB) created on volume offer ${chosen.offerId}`);
        return { id: String(made.id), outs: outputsOf(inputs, made, { rentedOfferId: chosen.offerId, machineId: chosen.machineId, storageCostPerGbMonth: chosen.price, geolocation: chosen.geolocation }) };
    });
}

/** Takes volume `inputs.adopt` into the stack: read, refused when its size or name disagree with the program's, no create call. */
async function adoptVolume(ctx: ProviderContext, vast: VastClient, inputs: VolumeInputs, kind: VolumeKind, what: string): Promise<{ id: string; outs: VolumeOutputs }> {
    const volumeId = inputs.adopt!;
    const record = (await vast.volumes.list(kind)).find((v) => v.id === volumeId);
    const fail = (code: ErrorCode, why: string) => new ProviderError(code, `vastai: adopt ${what} ${volumeId} failed: ${why}`);
    if (!record) throw fail("adopt_not_found", `the account has no ${what} ${volumeId} (deleted, another account's, a mistyped id${kind === "local" ? ", or a network volume: use NetworkVolume" : ""})`);
    if (record.disk_space != null && Math.abs(record.disk_space - inputs.sizeGb) >= 0.5) throw fail("adopt_mismatch", `the program says sizeGb ${inputs.sizeGb}, the volume has ${record.disk_space} GB: make the program say what it has`);
    if (inputs.name !== undefined && record.label != null && record.label !== inputs.name) throw fail("adopt_mismatch", `the program says name ${inputs.name}, the volume is named ${record.label}: leave name out, or give its name`);
    createdHere.add(record.id);
    ctx.log.progress(`${what} ${record.id} (${record.label}) adopted`);
    return { id: String(record.id), outs: outputsOf({ ...inputs, name: record.label ?? inputs.name }, record, {}) };
}

/**
 * The volume a stopped `up`'s create of this resource made, when the provider made its name: the
 * same slot and, for a resource state holds, the same generation (an older one is the volume state
 * holds, which a replacement must not take); for one no state holds, any generation. The newest is
 * taken; the others are named, not deleted (a volume holds data).
 */
async function madeByStoppedUp(ctx: ProviderContext, vast: VastClient, inputs: VolumeInputs, kind: VolumeKind): Promise<VolumeRecord | undefined> {
    if (!inputs.nameGenerated || inputs.createSlot === undefined) return undefined;
    const prefix = generatedName(inputs.createSlot, 0).replace(/0$/, "");
    const ours = (label: string) => (inputs.createGeneration === 0 ? label.startsWith(prefix) && /^\d+$/.test(label.slice(prefix.length)) : label === inputs.name);
    const found = (await vast.volumes.list(kind)).filter((v) => typeof v.label === "string" && ours(v.label) && !createdHere.has(v.id)).sort((a, b) => b.id - a.id);
    const taken = found.find((v) => v.disk_space == null || Math.abs(v.disk_space - inputs.sizeGb) < 0.5);
    for (const other of found.filter((v) => v !== taken)) {
        ctx.log.warn(`volume ${other.id} (${other.label}, ${other.disk_space} GB) was made for this resource by a \`pulumi up\` that stopped, and no state holds it: delete it if its data is not needed`);
    }
    if (!taken) return undefined;
    createdHere.add(taken.id);
    ctx.log.warn(`volume ${taken.id} (${taken.label}) was made for this resource by a \`pulumi up\` that stopped before its create returned: taken over instead of creating another`);
    return taken;
}

interface ChosenVolumeOffer {
    offerId: number;
    machineId?: number;
    price?: number;
    geolocation?: string;
}

/**
 * The program's volume offer (nothing asked: the listing tells its machine), or the first match
 * of its query (the cheapest, by default) with room for the volume and within its ceiling. When
 * the ceiling leaves nothing, one more search without it, cheapest first, says what it would take.
 */
async function chooseOffer(vast: VastClient, inputs: VolumeInputs, kind: VolumeKind): Promise<ChosenVolumeOffer> {
    if (inputs.offerId !== undefined) return { offerId: inputs.offerId };
    const { maxPricePerGbMonth, ...given } = inputs.offer ?? {};
    const ceiling = maxPricePerGbMonth ?? Infinity;
    const search: VolumeOfferSearch = { ...given, filters: { ...given.filters, disk_space: { gte: inputs.sizeGb } } as VolumeOfferFilters };
    // Checked here too: the ceiling is the program's promise, whatever the service matched.
    const withinCeiling = (o: VolumeOfferRecord) => (o.storage_cost ?? Infinity) <= ceiling;
    const first = await firstOffer(vast, withCeiling(search, ceiling), kind);
    if (first && withinCeiling(first)) return chosenOf(first);
    const cheapest = Number.isFinite(ceiling) ? await firstOffer(vast, { ...search, order: [["storage_cost", "asc"]] }, kind) : undefined;
    if (cheapest && withinCeiling(cheapest)) return chosenOf(cheapest); // on the market since the first search
    const failed = `vastai: create volume ${inputs.name} failed: no volume offer matching the query with ${inputs.sizeGb} GB free`;
    if (cheapest) {
        throw new ProviderError(
            "price_above_ceiling",
            `${failed} is at or below maxPricePerGbMonth $${ceiling} per GB-month; the cheapest match is $${cheapest.storage_cost} per GB-month (volume offer ${cheapest.id}). ` +
                "Nothing was created. Raise maxPricePerGbMonth, or widen the query (searchVolumeOffers shows what there is)",
        );
    }
    throw new ProviderError("no_offer_matches", `${failed} is on the market; nothing was created. Widen the query (searchVolumeOffers shows what there is)`);
}

/** The first offer a volume offer search finds. */
async function firstOffer(vast: VastClient, search: VolumeOfferSearch, kind: VolumeKind): Promise<VolumeOfferRecord | undefined> {
    return (await vast.volumes.searchOffers(volumeOfferQuery({ ...search, limit: 1 }), kind))[0];
}

const chosenOf = (offer: VolumeOfferRecord): ChosenVolumeOffer => ({ offerId: offer.id, machineId: offer.machine_id ?? undefined, price: offer.storage_cost ?? undefined, geolocation: offer.geolocation ?? undefined });

/** The search with the price ceiling as a `storage_cost` condition beside any the program set, as an Instance's search takes its ceiling. */
function withCeiling(search: VolumeOfferSearch, ceiling: number): VolumeOfferSearch {
    if (!Number.isFinite(ceiling)) return search;
    const own = search.filters?.storage_cost ?? {};
    const lte = Math.min(typeof own.lte === "number" ? own.lte : Infinity, ceiling);
    return { ...search, filters: { ...search.filters, storage_cost: { ...own, lte } } };
}

/**
 * The volume this create made: named as asked, of its size, not listed before the send and not
 * made by another create of this process. Looked for until found when the service answered (it
 * was made); after a lost answer, until enough answered looks find nothing.
 */
function findMade(
    ctx: ProviderContext,
    vast: VastClient,
    inputs: VolumeInputs,
    offerId: number,
    before: ReadonlySet<number>,
    sentAt: number,
    answered: boolean,
    kind: VolumeKind,
): Promise<VolumeRecord | undefined> {
    const ours = (v: VolumeRecord) => v.label === inputs.name && !before.has(v.id) && !createdHere.has(v.id) && (v.disk_space == null || Math.abs(v.disk_space - inputs.sizeGb) < 0.5);
    return findLostCreate(ctx, {
        what: `volume ${inputs.name} on volume offer ${offerId}`,
        lookFor: `a volume named ${inputs.name} of ${inputs.sizeGb} GB made since ${new Date(sentAt).toISOString()}`,
        look: async () => (await vast.volumes.list(kind)).filter(ours).sort((a, b) => a.id - b.id)[0],
        untilFound: answered,
    });
}
