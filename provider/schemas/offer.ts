import { z } from "zod";
import { FilterValue, Filters, filtersSchema, filtersShape } from "./filters";

/**
 * Offer fields a search can filter and sort on, with their types, in the service's names
 * (docs/live-service.md "Offers, SSH keys, start and stop"). Units: `gpu_ram` is MB per card,
 * `disk_space` GB, `dph_*` and `min_bid` USD/hour, `inet_*` Mb/s, `reliability` 0 to 1.
 */
export const OFFER_FILTER_FIELDS = {
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
} as const;

export type OfferFilterField = keyof typeof OFFER_FILTER_FIELDS;
export type OfferFilterValue<F extends OfferFilterField> = FilterValue<typeof OFFER_FILTER_FIELDS, F>;

/** Conditions on offers, typed per field: `{ gpu_name: { eq: "RTX 4090" }, gpu_ram: { gte: 24000 } }`. */
export type OfferFilters = Filters<typeof OFFER_FILTER_FIELDS>;

/**
 * The one run-time check of conditions on offer fields (the type above is the compile-time one):
 * an offer search's `filters` (an Instance's `offer.filters`, `searchOffers`) and the machine
 * search filters a template keeps and an instance create carries (`extra_filters`, contract §2.2
 * and §4.7: the service merges them into the machine search). A misspelt field or operator is
 * refused with the nearest one; a value must be of its field's kind.
 */
export const offerFiltersSchema = filtersSchema(OFFER_FILTER_FIELDS);

/** Sort keys, the first deciding first: `[["dph_total", "asc"]]`. */
export type OfferOrder = Array<[OfferFilterField, "asc" | "desc"]>;

/** On demand, interruptible (`bid`), or reserved. */
export const RENTAL_TYPES = ["on-demand", "bid", "reserved"] as const;
export type RentalType = (typeof RENTAL_TYPES)[number];

const fieldNames = Object.keys(OFFER_FILTER_FIELDS) as [OfferFilterField, ...OfferFilterField[]];

/** The bundles query as sent: conditions beside the special keys `limit`, `order` and `type`. */
export const offerQuerySchema = z.strictObject({
    ...filtersShape(OFFER_FILTER_FIELDS),
    limit: z.number().int().positive().optional(),
    order: z.array(z.tuple([z.enum(fieldNames), z.enum(["asc", "desc"])])).optional(),
    type: z.enum(RENTAL_TYPES).optional(),
});
export type OfferQuery = OfferFilters & { limit?: number; order?: OfferOrder; type?: RentalType };

/** An offer as the service lists it. Lenient: a field the service adds must not break a search. */
export const offerRecordSchema = z.looseObject({
    /** The offer id to rent (`PUT /asks/{id}/`). */
    id: z.number().int(),
    machine_id: z.number().int(),
    gpu_name: z.string().nullish(),
    num_gpus: z.number().int().nullish(),
    /** MB per card. */
    gpu_ram: z.number().nullish(),
    /** USD/hour, everything included (for `bid`, the lowest bid). */
    dph_total: z.number(),
    /** USD/hour without storage and bandwidth. */
    dph_base: z.number().nullish(),
    /** USD/hour: the lowest bid for an interruptible rental. */
    min_bid: z.number().nullish(),
    /** 0 to 1. */
    reliability: z.number().nullish(),
    dlperf: z.number().nullish(),
    dlperf_per_dphtotal: z.number().nullish(),
    /** GB. */
    disk_space: z.number().nullish(),
    cuda_max_good: z.number().nullish(),
    geolocation: z.string().nullish(),
    /** Mb/s. */
    inet_down: z.number().nullish(),
    inet_up: z.number().nullish(),
    verified: z.boolean().nullish(),
    rentable: z.boolean().nullish(),
    rented: z.boolean().nullish(),
    external: z.boolean().nullish(),
    score: z.number().nullish(),
});
export type OfferRecord = z.infer<typeof offerRecordSchema>;

export const offerSearchResponseSchema = z.looseObject({
    offers: z.array(offerRecordSchema),
});
