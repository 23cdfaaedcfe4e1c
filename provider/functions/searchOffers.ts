import * as pulumi from "@pulumi/pulumi";
import { OfferSearch, offerQuery } from "../client/api/offers";
import { OfferRecord } from "../schemas/offer";
import { VastClient } from "../client/vastClient";
import { refuseOutputs } from "./functionArgs";
import { DeepInput, FunctionOutputOptions, outputForm } from "./outputForm";
import { FunctionOptions, programClient } from "./programClient";
import { codeShownOnFailure } from "../errors/providerError";

export { OFFER_SEARCH_DEFAULTS, offerQuery } from "../client/api/offers";
export type { OfferSearch } from "../client/api/offers";

/**
 * Offers on the marketplace matching `search`, as the service lists them, in its field names (the
 * names the filters use): `id` is the `offerId` to rent, `gpu_ram` MB per card, `disk_space` GB,
 * `dph_total` USD/hour. Offer ids are short-lived: one vanishes when someone rents it. Needs `misc`.
 *
 *     const cheapest = await vast.searchOffers({
 *         filters: { gpu_name: { in: ["RTX 4090", "RTX 3090"] }, gpu_ram: { gte: 24000 }, reliability: { gte: 0.98 } },
 *         order: [["dph_total", "asc"]],
 *         limit: 5,
 *     });
 */
export async function searchOffers(search: OfferSearch = {}, options?: FunctionOptions): Promise<OfferRecord[]> {
    return codeShownOnFailure(() => {
        refuseOutputs("searchOffers", "search", search);
        return offersMatching(programClient("searchOffers", options), search);
    });
}

/** The search itself, on a client: what the function above and the plugin's invoke both run. */
export function offersMatching(client: VastClient, search: OfferSearch = {}): Promise<OfferRecord[]> {
    return client.offers.search(offerQuery(search));
}

/**
 * `searchOffers` as an Output, the search and options Inputs at any depth.
 *
 *     const offers = vast.searchOffersOutput({ filters: { gpu_name: { eq: config.require("gpu") } }, limit: 1 });
 */
export function searchOffersOutput(search?: DeepInput<OfferSearch>, options?: FunctionOutputOptions): pulumi.Output<OfferRecord[]> {
    return outputForm(searchOffers, search, options);
}
