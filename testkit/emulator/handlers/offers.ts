import { EmuResponse, invalidArgs, ok } from "../response";
import { EmuOffer } from "../model";
import { FieldType, matchesFilters, validateFilters } from "../selectFilters";
import { HandlerContext, isObject } from "./context";

/** Offer fields a search may filter and sort on, and their types (docs/live-service.md "Renting by need"). */
const OFFER_FIELDS: Record<string, FieldType> = {
    id: "int",
    machine_id: "int",
    gpu_name: "string",
    num_gpus: "int",
    gpu_ram: "float",
    dph_total: "float",
    dph_base: "float",
    min_bid: "float",
    reliability: "float",
    dlperf: "float",
    dlperf_per_dphtotal: "float",
    disk_space: "float",
    cuda_max_good: "float",
    geolocation: "string",
    inet_down: "float",
    inet_up: "float",
    verified: "bool",
    rentable: "bool",
    rented: "bool",
    external: "bool",
    score: "float",
};

const RENTAL_TYPES = ["on-demand", "bid", "reserved"];
const NOT_A_DICT = "Invalid query: must be dict of conditions";

/**
 * An offer as a search shows it. For `bid` the price is the lowest bid the host takes; `reserved`
 * shows the on-demand price (the discount depends on the term, which the emulator does not model).
 * `score` stands in for the service's own ranking: DL performance per dollar, weighted by reliability.
 */
export function offerView(offer: EmuOffer, now: number, type = "on-demand"): Record<string, unknown> {
    const taken = now < offer.freeAt;
    const dphTotal = type === "bid" ? offer.listing.min_bid : offer.dphTotal;
    const perDollar = offer.listing.dlperf / dphTotal;
    return {
        id: offer.id,
        machine_id: offer.machineId,
        ...offer.listing,
        dph_total: dphTotal,
        dlperf_per_dphtotal: Math.round(perDollar * 100) / 100,
        score: Math.round(perDollar * offer.listing.reliability * 100) / 100,
        rentable: offer.listing.rentable && !taken,
        rented: taken,
        is_bid: type === "bid",
    };
}

/** `GET /api/v0/bundles/?q=<JSON>`; no `q` is the empty query. */
export function searchOffersByQuery(ctx: HandlerContext): EmuResponse {
    const raw = ctx.query.get("q");
    if (raw === null) return search(ctx, {});
    try {
        return search(ctx, JSON.parse(raw));
    } catch {
        return invalidArgs(NOT_A_DICT);
    }
}

/** `POST /api/v0/bundles/` with the query as the body. */
export function searchOffersByBody(ctx: HandlerContext): EmuResponse {
    return search(ctx, ctx.body ?? {});
}

/**
 * `PUT /api/v0/search/asks/ {select_cols, q}`: the same query as `q` (the vendor SDK's
 * `search_offers_new`). Every column is shown, whatever `select_cols` asks.
 */
export function searchAsks(ctx: HandlerContext): EmuResponse {
    const body = ctx.body;
    if (!isObject(body) || !isObject(body.q)) return invalidArgs('the body must be {"q": {<conditions>}, "select_cols": [...]}');
    const cols = body.select_cols;
    if (cols !== undefined && !(Array.isArray(cols) && cols.every((c) => typeof c === "string"))) return invalidArgs("select_cols must be a list of column names");
    return search(ctx, body.q);
}

/**
 * Offers on the market matching every condition, sorted by `order` (offer id last), at most
 * `limit`. An offer held by an instance is off the market until a while after it is destroyed.
 */
function search(ctx: HandlerContext, query: unknown): EmuResponse {
    if (!isObject(query)) return invalidArgs(NOT_A_DICT);
    // `allocated_storage` (GB the prices are quoted for) and `disable_bundling` are special keys the
    // vendor clients add; the emulator checks them and quotes every price as listed.
    const { limit, order = [], type = "on-demand", allocated_storage: storage, disable_bundling: unbundled, ...conditions } = query;
    if (storage !== undefined && !(typeof storage === "number" && storage >= 0)) return invalidArgs("allocated_storage must be a number of GB");
    if (unbundled !== undefined && typeof unbundled !== "boolean") return invalidArgs("disable_bundling must be true or false");
    if (limit !== undefined && !(typeof limit === "number" && Number.isInteger(limit) && limit > 0)) {
        return invalidArgs("limit must be a positive integer");
    }
    if (typeof type !== "string" || !RENTAL_TYPES.includes(type)) return invalidArgs(`type must be one of ${RENTAL_TYPES.join(", ")}`);
    const orderProblem = checkOrder(order);
    if (orderProblem) return invalidArgs(orderProblem);
    const problem = validateFilters(conditions, OFFER_FIELDS);
    if (problem) return invalidArgs(problem);

    const sortKeys = order as Array<[string, "asc" | "desc"]>;
    const offers = [...ctx.emu.model.offers.values()]
        .filter((offer) => ctx.now >= offer.freeAt)
        .map((offer) => offerView(offer, ctx.now, type))
        .filter((view) => matchesFilters(view, conditions as Record<string, Record<string, unknown>>))
        .sort((a, b) => {
            for (const [field, direction] of sortKeys) {
                const c = compareValues(a[field], b[field]);
                if (c !== 0) return direction === "desc" ? -c : c;
            }
            return (a.id as number) - (b.id as number);
        });
    return ok({ offers: limit === undefined ? offers : offers.slice(0, limit as number) });
}

function checkOrder(order: unknown): string | undefined {
    const pairs = Array.isArray(order) ? order : [undefined];
    for (const pair of pairs) {
        const [field, direction] = Array.isArray(pair) ? pair : [];
        if (!(typeof field === "string" && field in OFFER_FIELDS && (direction === "asc" || direction === "desc"))) {
            return `order must be a list of [field, "asc" | "desc"] on offer fields; got ${JSON.stringify(pair)}`;
        }
    }
    return undefined;
}

/** Numbers, strings and booleans in their natural order; a missing value last. */
function compareValues(a: unknown, b: unknown): number {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    return (a as number | string) < (b as number | string) ? -1 : 1;
}
