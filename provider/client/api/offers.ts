import { z } from "zod";
import {
    OfferFilters,
    OfferOrder,
    OfferQuery,
    OfferRecord,
    RENTAL_TYPES,
    RentalType,
    offerFiltersSchema,
    offerQuerySchema,
    offerSearchResponseSchema,
} from "../../schemas/offer";
import { ENDPOINTS } from "../endpoints";
import { Transport } from "../transport";
import { checkRequest } from "./checkRequest";

/** What to look for on the marketplace. */
export interface OfferSearch {
    /** Conditions on offer fields, all of which must hold; each value typed by its field. */
    filters?: OfferFilters;
    /** Sort keys, the first deciding first; default `[["score", "desc"]]`, the service's ranking. */
    order?: OfferOrder;
    /** At most this many offers. */
    limit?: number;
    /** `on-demand` (the default), `bid` (interruptible; prices are the lowest bids) or `reserved`. */
    type?: RentalType;
    /**
     * The vendor CLI's defaults: only verified, rentable offers not yet rented, not from external
     * markets. A filter of the caller's on one of those fields wins over its default (one set to
     * undefined is not given, and the default stays); `false` drops them all (the CLI's
     * `--no-default`).
     */
    defaults?: boolean;
}

/** The vendor CLI's default conditions (`vast.py search__offers`; the legacy CLI adds `rented`). */
export const OFFER_SEARCH_DEFAULTS: OfferFilters = {
    verified: { eq: true },
    rentable: { eq: true },
    external: { eq: false },
    rented: { eq: false },
};
const DEFAULT_ORDER: OfferOrder = [["score", "desc"]];

export const offerSearchSchema = z.strictObject({
    filters: offerFiltersSchema.optional(),
    order: offerQuerySchema.shape.order,
    limit: offerQuerySchema.shape.limit,
    type: z.enum(RENTAL_TYPES).optional(),
    defaults: z.boolean().optional(),
});

/**
 * The caller's conditions, a field set to undefined left out: it is not given, so the default on
 * that field stays. Spread as it is, `{ verified: undefined }` replaced the default with a value
 * JSON then drops, and unverified offers came back.
 */
function givenFilters(filters: OfferFilters = {}): OfferFilters {
    return Object.fromEntries(Object.entries(filters).filter(([, condition]) => condition !== undefined)) as OfferFilters;
}

/**
 * The bundles query for `search`: the caller's conditions over the defaults, the order, limit and
 * type. Checked first, so a filter of the wrong type fails here, naming it, and nothing is sent.
 */
export function offerQuery(search: OfferSearch = {}): OfferQuery {
    const checked = checkRequest(ENDPOINTS.searchOffers, offerSearchSchema, search, "offer search", Object.keys(offerSearchSchema.shape));
    const useDefaults = checked.defaults ?? true;
    return {
        ...(useDefaults ? OFFER_SEARCH_DEFAULTS : {}),
        ...givenFilters(checked.filters as OfferFilters),
        order: checked.order ?? (useDefaults ? DEFAULT_ORDER : undefined),
        limit: checked.limit,
        type: checked.type ?? "on-demand",
    };
}

/** The marketplace (docs/live-service.md "Offers, SSH keys, start and stop"). */
export class OffersApi {
    constructor(private readonly transport: Transport) {}

    /**
     * Offers matching every condition of `query`, in its `order`, at most `limit`. The query is
     * sent as it is: the vendor CLI's defaults (verified, rentable, not rented, not external) are the caller's
     * to add (`searchOffers` does). Asked as `GET ?q=<JSON>`, where the vendor clients POST the same
     * JSON: the service takes both (docs/live-service.md), and a GET says it changes nothing.
     */
    async search(query: OfferQuery = {}): Promise<OfferRecord[]> {
        const endpoint = ENDPOINTS.searchOffers;
        const checked = checkRequest(endpoint, offerQuerySchema, query, "query");
        const response = await this.transport.call(endpoint, { query: { q: JSON.stringify(checked) } }, offerSearchResponseSchema);
        return response.offers;
    }
}
