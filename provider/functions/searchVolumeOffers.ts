import * as pulumi from "@pulumi/pulumi";
import { VolumeOfferSearch, volumeOfferQuery } from "../client/api/volumes";
import { VolumeOfferRecord } from "../schemas/volume";
import { VastClient } from "../client/vastClient";
import { refuseOutputs } from "./functionArgs";
import { DeepInput, FunctionOutputOptions, outputForm } from "./outputForm";
import { FunctionOptions, programClient } from "./programClient";
import { codeShownOnFailure } from "../errors/providerError";

export { VOLUME_OFFER_SEARCH_DEFAULTS, volumeOfferQuery } from "../client/api/volumes";
export type { VolumeOfferSearch } from "../client/api/volumes";

/**
 * Volume offers (storage to rent on a machine) matching `search`, in the service's field names:
 * `id` is the volume offer to give a `Volume`, `disk_space` GB free, `storage_cost` USD per GB-month.
 * The cheapest first unless `order` says otherwise; `network: true` searches network volume offers
 * (storage clusters) instead. Needs `misc`.
 *
 *     const offers = await vast.searchVolumeOffers({ filters: { disk_space: { gte: 100 }, geolocation: { eq: "US" } }, limit: 5 });
 */
export async function searchVolumeOffers(search: VolumeOfferSearch = {}, options?: FunctionOptions): Promise<VolumeOfferRecord[]> {
    return codeShownOnFailure(() => {
        refuseOutputs("searchVolumeOffers", "search", search);
        return volumeOffersMatching(programClient("searchVolumeOffers", options), search);
    });
}

/** The search itself, on a client: what the function above and the plugin's invoke both run. */
export function volumeOffersMatching(client: VastClient, search: VolumeOfferSearch = {}): Promise<VolumeOfferRecord[]> {
    return client.volumes.searchOffers(volumeOfferQuery(search), search.network ? "network" : "local");
}

/** `searchVolumeOffers` as an Output, the search and options Inputs at any depth. */
export function searchVolumeOffersOutput(search?: DeepInput<VolumeOfferSearch>, options?: FunctionOutputOptions): pulumi.Output<VolumeOfferRecord[]> {
    return outputForm(searchVolumeOffers, search, options);
}
