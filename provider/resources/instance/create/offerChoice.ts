import { VastInvalidArgsError, VastNotFoundError, VastRequestNotSentError, VastRequestRejectedError } from "../../../client/errors";
import { OfferSearch, offerQuery } from "../../../client/api/offers";
import { VastClient } from "../../../client/vastClient";
import { OfferRecord } from "../../../schemas/offer";
import { InstanceInputs } from "../instanceArgs";
import { offerNotOnMarket, searchedOnceFreedReturn } from "../common/offerRelease";
import { ProviderContext } from "../../../dynamic/context";
import { ChosenOffer } from "../common/placement";
import { failedMachines } from "../common/failedMachines";
import { ProviderError } from "../../../errors/providerError";


/**
 * Where each attempt of a create rents: the program's `offerId` every time, or the next match of
 * its `offer` search on a machine that has not failed yet.
 */
export interface OfferChoice {
    /** The offer for the next attempt; throws when there is none to try. */
    next(): Promise<ChosenOffer>;
    /**
     * Renting `chosen` was refused for good: `taken` (the offer is gone, rented since the search),
     * `refused` (turned down for this rental), or false when no other offer is to be tried. Never
     * other than false for an answer that leaves it unknown whether an instance exists.
     */
    rentRefused(chosen: ChosenOffer, error: unknown): "taken" | "refused" | false;
    /** A wait for an instance to start has passed (minutes, live): a search's list is stale, and the next offer comes from a new search. */
    listStale(): void;
    /** The last offer `next` gave. */
    readonly current?: ChosenOffer;
}

/** The program named the offer: every attempt rents it, and a refusal ends the create. */
export function fixedOffer(offerId: number): OfferChoice {
    const chosen = { offerId };
    return { current: chosen, next: async () => chosen, rentRefused: () => false as const, listStale: () => undefined };
}

/**
 * `choice`, with an interrupted create's instance (`resumed.takenOver`, on its offer) as its first
 * attempt: should that one not run, the attempts after it rent as `choice` does.
 */
export function takingOver(resumed: ChosenOffer, choice: OfferChoice): OfferChoice {
    let current: ChosenOffer | undefined;
    let first = true;
    return {
        get current() {
            return current ?? choice.current;
        },
        async next() {
            if (!first) return (current = await choice.next());
            first = false;
            return (current = resumed);
        },
        rentRefused: (chosen, error) => choice.rentRefused(chosen, error),
        listStale: () => choice.listStale(),
    };
}

/**
 * A refusal that proves no instance was made: the offer is gone, or the service turned this
 * rental down. Not a request this client would not send: that says nothing of the offer, and
 * every other offer would get the same request.
 */
function definitelyRefused(error: unknown): boolean {
    if (error instanceof VastRequestNotSentError) return false;
    return error instanceof VastNotFoundError || error instanceof VastInvalidArgsError || error instanceof VastRequestRejectedError;
}

/**
 * The search with its price ceiling as a condition (`dph_total` at most `ceiling`, beside any the
 * program set): the service then answers with offers that can be had, not a page of dearer ones
 * ranked first.
 */
function withCeiling(search: OfferSearch, ceiling: number): OfferSearch {
    if (!Number.isFinite(ceiling)) return search;
    const own = search.filters?.dph_total ?? {};
    const lte = Math.min(typeof own.lte === "number" ? own.lte : Infinity, ceiling);
    return { ...search, filters: { ...search.filters, dph_total: { ...own, lte } } };
}

/**
 * Rents by search: the matches of `offer` in the service's order, none above `maxPricePerHour`,
 * each tried once and none on a machine that already failed. When the matches run out the search
 * is made once more (offers come and go), then the create fails; after a wait for an instance to
 * start, the next offer comes from a new search (`listStale`).
 */
export function searchedOffer(ctx: Pick<ProviderContext, "clock" | "log">, vast: VastClient, desired: InstanceInputs, onMachine?: number): OfferChoice {
    const { offer, price: bid } = desired as InstanceInputs & { offer: NonNullable<InstanceInputs["offer"]> };
    const { maxPricePerHour, ...given } = offer;
    // The machine of the volume it mounts: the only one whose offers will do.
    const search = onMachine === undefined ? given : { ...given, filters: { ...given.filters, machine_id: { eq: onMachine } } };
    // An interruptible rental pays its bid: no offer whose lowest bid is above it can be had.
    const ceiling = Math.min(maxPricePerHour ?? Infinity, bid ?? Infinity);
    const capped = withCeiling(search as OfferSearch, ceiling);
    const ceilingText = bid !== undefined && bid <= (maxPricePerHour ?? Infinity) ? `the bid (price) $${bid}` : `maxPricePerHour $${maxPricePerHour}`;
    /** The lowest price among the search's matches without the ceiling, to say what it would take; one call, on the way to failing. */
    const cheapestMatch = async (): Promise<number | undefined> => {
        const [first] = await vast.offers.search(offerQuery({ ...(search as OfferSearch), order: [["dph_total", "asc"]], limit: 1 }));
        return first?.dph_total ?? undefined;
    };
    const tried = new Set<number>();
    const failedHere = failedMachines(vast.baseUrl, desired);
    /** Machines that refused this create's rental: the same request would be refused there again. */
    const refusedHere = new Set<number>();
    let matches: OfferRecord[] | undefined;
    let searches = 0;
    const choice: OfferChoice & { current?: ChosenOffer } = {
        async next() {
            for (;;) {
                if (!matches) {
                    // Filtered here too: the ceiling is the program's promise, whatever the service matched.
                    matches = await searchedOnceFreedReturn(ctx, async () => (await vast.offers.search(offerQuery(capped))).filter((o) => (o.dph_total ?? Infinity) <= ceiling));
                    searches++;
                    if (matches.length === 0 && tried.size === 0 && Number.isFinite(ceiling)) {
                        const cheapest = await cheapestMatch();
                        if (cheapest !== undefined && cheapest > ceiling) {
                            throw new ProviderError(
                                "price_above_ceiling",
                                `vastai: create instance failed: no offer matching the search is at or below ${ceilingText}/hour; ` +
                                    `the cheapest match is $${cheapest}/hour. Nothing was rented`,
                            );
                        }
                    }
                }
                const candidate = matches.find((o) => !tried.has(o.id) && (o.machine_id === undefined || o.machine_id === null || !failedHere.has(o.machine_id) && !refusedHere.has(o.machine_id)));
                if (candidate) {
                    tried.add(candidate.id);
                    choice.current = {
                        offerId: candidate.id,
                        machineId: candidate.machine_id ?? undefined,
                        gpuName: candidate.gpu_name ?? undefined,
                        numGpus: candidate.num_gpus ?? undefined,
                        geolocation: candidate.geolocation ?? undefined,
                    };
                    return choice.current;
                }
                if (searches >= 2) {
                    if (tried.size === 0) {
                        // Nothing matched at all (not even above the price ceiling: that is said above).
                        const defaultsTooText = search.defaults === false ? "" : " (the vendor CLI's defaults apply too: verified, rentable, not rented, not external; `defaults: false` drops them)";
                        throw new ProviderError(
                            "no_offer_matches",
                            "vastai: create instance failed: no offer on the market matches the search, and nothing was rented. " +
                                `Widen its filters${defaultsTooText}, or see what it finds with searchOffers`,
                        );
                    }
                    throw new ProviderError("no_offer_matches", `vastai: create instance failed: no offer matching the search is left to try (tried ${[...tried].join(", ")})`);
                }
                matches = undefined;
            }
        },
        rentRefused(chosen, error) {
            if (!definitelyRefused(error)) return false;
            // Taken (no such offer, or a 410): another offer may be on the same machine. Refused: the machine is avoided too.
            if (offerNotOnMarket(error)) return "taken";
            if (chosen.machineId !== undefined) refusedHere.add(chosen.machineId);
            return "refused";
        },
        listStale() {
            matches = undefined;
            searches = 0;
        },
    };
    return choice;
}

/**
 * Where a create's attempts rent: the program's `offerId`, or its `offer` search, kept to the
 * machine of the volume it mounts (`onMachine`); an interrupted create's instance taken over
 * (`resumed`) comes first.
 */
export function chooseOffers(
    ctx: Pick<ProviderContext, "clock" | "log">,
    vast: VastClient,
    desired: InstanceInputs,
    resumed: ChosenOffer | undefined,
    onMachine?: number,
): OfferChoice {
    const rentable = desired.offerId !== undefined ? fixedOffer(desired.offerId) : searchedOffer(ctx, vast, desired, onMachine);
    return resumed ? takingOver(resumed, rentable) : rentable;
}
