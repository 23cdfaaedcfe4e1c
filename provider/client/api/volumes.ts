import { z } from "zod";
import { filtersSchema } from "../../schemas/filters";
import { successResponseSchema } from "../../schemas/success";
import {
    VOLUME_OFFER_FILTER_FIELDS,
    VolumeOfferFilters,
    VolumeOfferOrder,
    VolumeOfferQuery,
    VolumeOfferRecord,
    VolumeRecord,
    volumeCreateRequestSchema,
    volumeCreateResponseSchema,
    volumeListResponseSchema,
    volumeOfferQuerySchema,
    volumeOfferSearchResponseSchema,
} from "../../schemas/volume";
import { ENDPOINTS } from "../endpoints";
import { Transport } from "../transport";
import { checkRequest } from "./checkRequest";
import { removal } from "./removal";

/** A local volume lives on one machine; a network volume in a storage cluster, mounted from any machine there. */
export type VolumeKind = "local" | "network";

const ROUTES = {
    local: { search: ENDPOINTS.searchVolumeOffers, create: ENDPOINTS.createVolume, listType: "local_volume" },
    network: { search: ENDPOINTS.searchNetworkVolumeOffers, create: ENDPOINTS.createNetworkVolume, listType: "network_volume" },
} as const;

/** What to look for among volume offers. */
export interface VolumeOfferSearch {
    /** Network volume offers (storage clusters) instead of local ones (machines). */
    network?: boolean;
    /** Conditions on volume offer fields, all of which must hold; each value typed by its field. */
    filters?: VolumeOfferFilters;
    /** Sort keys, the first deciding first; default `[["storage_cost", "asc"]]`, the cheapest first. */
    order?: VolumeOfferOrder;
    /** At most this many offers. */
    limit?: number;
    /** GB the prices are worked out for. */
    allocatedStorageGb?: number;
    /**
     * The vendor CLI's defaults: verified offers, not from external markets, with at least 1 GB
     * free. A filter of the caller's on one of those fields wins over its default; `false` drops them all.
     */
    defaults?: boolean;
}

/** The vendor CLI's default conditions (`vast.py search__volumes`). */
export const VOLUME_OFFER_SEARCH_DEFAULTS: VolumeOfferFilters = {
    verified: { eq: true },
    external: { eq: false },
    disk_space: { gte: 1 },
};
const DEFAULT_ORDER: VolumeOfferOrder = [["storage_cost", "asc"]];

export const volumeOfferSearchSchema = z.strictObject({
    network: z.boolean().optional(),
    filters: filtersSchema(VOLUME_OFFER_FILTER_FIELDS).optional(),
    order: volumeOfferQuerySchema.shape.order,
    limit: volumeOfferQuerySchema.shape.limit,
    allocatedStorageGb: z.number().positive().optional(),
    defaults: z.boolean().optional(),
});

/** The search body for `search`: the caller's conditions over the defaults. Checked first, so nothing wrong is sent. */
export function volumeOfferQuery(search: VolumeOfferSearch = {}): VolumeOfferQuery {
    const checked = checkRequest(ENDPOINTS.searchVolumeOffers, volumeOfferSearchSchema, search, "volume offer search", Object.keys(volumeOfferSearchSchema.shape));
    const useDefaults = checked.defaults ?? true;
    const given = Object.fromEntries(Object.entries(checked.filters ?? {}).filter(([, condition]) => condition !== undefined));
    return {
        ...(useDefaults ? VOLUME_OFFER_SEARCH_DEFAULTS : {}),
        ...given,
        order: checked.order ?? DEFAULT_ORDER,
        limit: checked.limit,
        allocated_storage: checked.allocatedStorageGb,
    } as VolumeOfferQuery;
}

/** Local volumes: storage on a machine that outlives the instances mounting it (docs/live-service.md "Storage: volumes"). */
export class VolumesApi {
    constructor(private readonly transport: Transport) {}

    /** Volume offers of `kind` matching every condition of `query`, sent as it is (`searchVolumeOffers` adds the defaults). */
    async searchOffers(query: VolumeOfferQuery = {}, kind: VolumeKind = "local"): Promise<VolumeOfferRecord[]> {
        const endpoint = ROUTES[kind].search;
        const body = checkRequest(endpoint, volumeOfferQuerySchema, query, "query");
        return (await this.transport.call(endpoint, { body }, volumeOfferSearchResponseSchema)).offers;
    }

    /** Creates a volume of `sizeGb` on volume offer `offerId`. The answer names it but gives no id: list to learn it. */
    async create(offerId: number, sizeGb: number, name: string, kind: VolumeKind = "local"): Promise<{ volumeName?: string }> {
        const endpoint = ROUTES[kind].create;
        const body = checkRequest(endpoint, volumeCreateRequestSchema, { id: offerId, size: sizeGb, name });
        const response = await this.transport.call(endpoint, { body, target: `volume ${name} on volume offer ${offerId}` }, volumeCreateResponseSchema);
        return { volumeName: response.volume_name ?? undefined };
    }

    /** The account's volumes of `kind`, or of both kinds. */
    async list(kind: VolumeKind | "all" = "local"): Promise<VolumeRecord[]> {
        const type = kind === "all" ? "all_volume" : ROUTES[kind].listType;
        return (await this.transport.call(ENDPOINTS.listVolumes, { query: { owner: "me", type } }, volumeListResponseSchema)).volumes;
    }

    /** Deletes a volume; one already gone is reported, not thrown. Refused while an instance uses it. */
    async delete(volumeId: number): Promise<{ alreadyGone: boolean }> {
        return removal(() => this.transport.call(ENDPOINTS.deleteVolume, { query: { id: volumeId }, body: {}, target: `volume ${volumeId}` }, successResponseSchema));
    }
}
