import { EmuResponse, fail, invalidArgs, ok } from "../response";
import { EmuOffer, EmuVolume, EmuVolumeOffer } from "../model";
import { FieldType, matchesFilters, validateFilters } from "../selectFilters";
import { HandlerContext, isObject } from "./context";

/**
 * The marketplace's two kinds of offer: GPU offers (instances are rented on them, handlers/instances.ts)
 * and volume offers, with the volumes rented on those. Kept in one file, as both searches share
 * their query, `order` and `limit`.
 */

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

    const offers = [...ctx.emu.model.offers.values()]
        .filter((offer) => ctx.now >= offer.freeAt)
        .map((offer) => offerView(offer, ctx.now, type))
        .filter((view) => matchesFilters(view, conditions as Record<string, Record<string, unknown>>));
    return ok({ offers: orderAndLimit(offers, order as SortKeys, limit as number | undefined) });
}

export type SortKeys = Array<[string, "asc" | "desc"]>;

/** A search's `order` checked against the fields it may sort on (`what` names them in the message). */
export function checkOrder(order: unknown, fields: Record<string, FieldType> = OFFER_FIELDS, what = "offer"): string | undefined {
    const pairs = Array.isArray(order) ? order : [undefined];
    for (const pair of pairs) {
        const [field, direction] = Array.isArray(pair) ? pair : [];
        if (!(typeof field === "string" && field in fields && (direction === "asc" || direction === "desc"))) {
            return `order must be a list of [field, "asc" | "desc"] on ${what} fields; got ${JSON.stringify(pair)}`;
        }
    }
    return undefined;
}

/** Records sorted by `order` (their id last), at most `limit` of them. */
export function orderAndLimit(records: Array<Record<string, unknown>>, order: SortKeys, limit?: number): Array<Record<string, unknown>> {
    const sorted = [...records].sort((a, b) => {
        for (const [field, direction] of order) {
            const c = compareValues(a[field], b[field]);
            if (c !== 0) return direction === "desc" ? -c : c;
        }
        return (a.id as number) - (b.id as number);
    });
    return limit === undefined ? sorted : sorted.slice(0, limit);
}

/** Numbers, strings and booleans in their natural order; a missing value last. */
function compareValues(a: unknown, b: unknown): number {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    return (a as number | string) < (b as number | string) ? -1 : 1;
}

// ---- volumes ---------------------------------------------------------------------------------

/*
 * Volumes: disk rented on a volume offer, local to one machine or on a storage cluster (a network
 * volume), linked to instances by their create's `volume_info` (handlers/instances.ts). A create
 * answers the name, never the id: a client learns the id by listing.
 */

/** Volume offer fields a search may filter and sort on, and their types. */
const VOLUME_OFFER_FIELDS: Record<string, FieldType> = {
    id: "int",
    machine_id: "int",
    cluster_id: "int",
    disk_space: "float",
    storage_cost: "float",
    inet_up: "float",
    inet_down: "float",
    reliability: "float",
    geolocation: "string",
    verified: "bool",
    external: "bool",
    cuda_vers: "float",
    disk_bw: "float",
    cpu_arch: "string",
    score: "float",
};

/** Letters, digits and underscores, at most 64 of them. */
const VOLUME_NAME = /^[A-Za-z0-9_]{1,64}$/;

const LIST_TYPES = ["local_volume", "network_volume", "all_volume"];

/**
 * A volume offer as a search shows it: `disk_space` is what is left of it (GB), `storage_cost`
 * USD/GB/month. `score` stands in for the service's ranking (the vendor CLI sorts on it by
 * default): reliability per dollar.
 */
export function volumeOfferView(offer: EmuVolumeOffer, free: number): Record<string, unknown> {
    return {
        id: offer.id,
        machine_id: offer.machineId,
        cluster_id: offer.clusterId,
        disk_space: free,
        storage_cost: offer.storageCost,
        ...offer.listing,
        score: Math.round((offer.listing.reliability / Math.max(offer.storageCost, 0.001)) * 100) / 100,
    };
}

/** A volume as the listing shows it. `storage_total_cost` is its price a month: size times the offer's $/GB/month. */
export function volumeView(volume: EmuVolume, offer: EmuVolumeOffer | undefined, users: number[]): Record<string, unknown> {
    const storageCost = offer?.storageCost ?? 0;
    return {
        id: volume.id,
        label: volume.name,
        disk_space: volume.size,
        status: "online",
        start_date: volume.createdAt / 1000,
        machine_id: volume.machineId,
        cluster_id: offer?.clusterId ?? null,
        geolocation: offer?.listing.geolocation ?? null,
        storage_total_cost: Math.round(volume.size * storageCost * 10000) / 10000,
        instances: users,
    };
}

/** `POST /api/v0/volumes/search/`: local volume offers. */
export function searchVolumeOffers(ctx: HandlerContext): EmuResponse {
    return searchVolumes(ctx, false);
}

/** `POST /api/v0/network_volumes/search/`: network volume offers. */
export function searchNetworkVolumeOffers(ctx: HandlerContext): EmuResponse {
    return searchVolumes(ctx, true);
}

/**
 * Volume offers matching every condition (`{field: {op: value}}`, as the offer search takes them),
 * sorted by `order` (offer id last), at most `limit`. `allocated_storage`, the GB the vendor CLI
 * asks prices for, is checked and otherwise left alone: prices are quoted per GB as listed.
 */
function searchVolumes(ctx: HandlerContext, network: boolean): EmuResponse {
    const query = ctx.body ?? {};
    if (!isObject(query)) return invalidArgs(NOT_A_DICT);
    const { limit, order = [], allocated_storage: storage, ...conditions } = query;
    if (storage !== undefined && !(typeof storage === "number" && storage >= 0)) return invalidArgs("allocated_storage must be a number of GB");
    if (limit !== undefined && !(typeof limit === "number" && Number.isInteger(limit) && limit > 0)) {
        return invalidArgs("limit must be a positive integer");
    }
    const orderProblem = checkOrder(order, VOLUME_OFFER_FIELDS, "volume offer");
    if (orderProblem) return invalidArgs(orderProblem);
    const problem = validateFilters(conditions, VOLUME_OFFER_FIELDS);
    if (problem) return invalidArgs(problem);

    const model = ctx.emu.model;
    const offers = [...model.volumeOffers.values()]
        .filter((offer) => offer.network === network)
        .map((offer) => volumeOfferView(offer, model.volumeOfferFree(offer)))
        .filter((view) => matchesFilters(view, conditions as Record<string, Record<string, unknown>>));
    return ok({ offers: orderAndLimit(offers, order as SortKeys, limit as number | undefined) });
}

/** `PUT /api/v0/volumes/ {id, size, name?}`: a local volume on a volume offer. */
export function createVolume(ctx: HandlerContext): EmuResponse {
    return createVolumeOn(ctx, false);
}

/** `PUT /api/v0/network_volumes/ {id, size, name?}`: a network volume on a network volume offer. */
export function createNetworkVolume(ctx: HandlerContext): EmuResponse {
    return createVolumeOn(ctx, true);
}

/**
 * A volume of `size` whole GB on the offer `id`, while the offer's volumes all fit in its space.
 * Answered `{success: true, volume_name}`, with no id. Without a name, the volume is named after
 * its id (the emulator's choice; the notes do not say what the live service names it).
 */
function createVolumeOn(ctx: HandlerContext, network: boolean): EmuResponse {
    const body = ctx.body;
    if (!isObject(body)) return invalidArgs("body must be a JSON object {id, size, name?}");
    const { id, size, name } = body;
    if (typeof id !== "number" || !Number.isInteger(id)) return invalidArgs("id must be the volume offer's id, an integer");
    if (typeof size !== "number" || !Number.isInteger(size) || size < 1) return invalidArgs("size must be a whole number of GB, at least 1");
    if (name !== undefined && (typeof name !== "string" || !VOLUME_NAME.test(name))) {
        return invalidArgs("name must be letters, digits and underscores, at most 64 characters");
    }
    const model = ctx.emu.model;
    const offer = model.volumeOffers.get(id);
    if (!offer || offer.network !== network) {
        return fail(404, "no_such_volume_offer", `${network ? "network volume" : "volume"} offer ${id} is not available`);
    }
    const free = model.volumeOfferFree(offer);
    if (size > free) return invalidArgs(`volume offer ${id} has ${free} GB free; ${size} GB does not fit`);
    const volume = model.addVolume({
        ownerId: ctx.caller.user.id,
        offerId: offer.id,
        machineId: offer.machineId,
        name: "",
        size,
        createdAt: ctx.now,
        network,
    });
    volume.name = (name as string | undefined) ?? `volume_${volume.id}`;
    return ok({ success: true, volume_name: volume.name });
}

/** `GET /api/v0/volumes/?owner=me&type=local_volume|network_volume|all_volume`: the caller's volumes, in id order. */
export function listVolumes(ctx: HandlerContext): EmuResponse {
    const owner = ctx.query.get("owner");
    if (owner !== null && owner !== "me") return invalidArgs('owner must be "me"');
    const type = ctx.query.get("type") ?? "all_volume";
    if (!LIST_TYPES.includes(type)) return invalidArgs(`type must be one of ${LIST_TYPES.join(", ")}`);
    const model = ctx.emu.model;
    const volumes = [...model.volumes.values()]
        .filter((v) => !v.deleted && v.ownerId === ctx.caller.user.id)
        .filter((v) => type === "all_volume" || v.network === (type === "network_volume"))
        .sort((a, b) => a.id - b.id)
        .map((v) => volumeView(v, model.volumeOffers.get(v.offerId), model.volumeUsers(v.id)));
    return ok({ volumes });
}

/**
 * `DELETE /api/v0/volumes/?id=<id>`, local or network. Refused while an instance not destroyed
 * uses it; a volume that is not the caller's, or is already deleted, is not found.
 */
export function deleteVolume(ctx: HandlerContext): EmuResponse {
    const raw = ctx.query.get("id");
    if (raw === null || !/^\d+$/.test(raw.trim())) return invalidArgs("id must be the volume's id, an integer");
    const id = Number(raw);
    const model = ctx.emu.model;
    const volume = model.volumes.get(id);
    if (!volume || volume.deleted || volume.ownerId !== ctx.caller.user.id) return fail(404, "no_such_volume", `volume ${id} not found`);
    if (model.volumeUsers(id).length > 0) {
        return fail(400, "volume_in_use", "all instances using the volume must be destroyed before the volume can be deleted");
    }
    volume.deleted = true;
    return ok({ success: true });
}
