import { OfferQuery, OfferRecord, offerQuerySchema, offerSearchResponseSchema } from "../../schemas/offer";
import { ENDPOINTS } from "../endpoints";
import { Transport } from "../transport";
import { checkRequest } from "./checkRequest";

/** The marketplace (docs/live-service.md "Offers, SSH keys, start and stop"). */
export class OffersApi {
    constructor(private readonly transport: Transport) {}

    /**
     * Offers matching every condition of `query`, in its `order`, at most `limit`. The query is
     * sent as it is: the vendor CLI's defaults (verified, rentable, not external) are the caller's
     * to add (`searchOffers` does).
     */
    async search(query: OfferQuery = {}): Promise<OfferRecord[]> {
        const endpoint = ENDPOINTS.searchOffers;
        const checked = checkRequest(endpoint, offerQuerySchema, query, "query");
        const answer = await this.transport.call(endpoint, { query: { q: JSON.stringify(checked) } }, offerSearchResponseSchema);
        return answer.offers;
    }
}
