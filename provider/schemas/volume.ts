import { z } from "zod";
import { Filters, filtersShape } from "./filters";

// Volumes: storage rented on a machine, which outlives the instances that mount it
// (docs/live-service.md "Storage: volumes").

/** The fields a volume offer search filters and orders on, each with its kind. */
export const VOLUME_OFFER_FILTER_FIELDS = {
    id: "int",
    machine_id: "int",
    /** GB free on the offer. */
    disk_space: "float",
    /** USD per GB-month. */
    storage_cost: "float",
    /** Mb/s. */
    inet_up: "float",
    inet_down: "float",
    /** 0 to 1. */
    reliability: "float",
    geolocation: "string",
    verified: "bool",
    external: "bool",
    cuda_vers: "float",
    /** MB/s. */
    disk_bw: "float",
    cpu_arch: "string",
} as const;

export type VolumeOfferFilterField = keyof typeof VOLUME_OFFER_FILTER_FIELDS;
export type VolumeOfferFilters = Filters<typeof VOLUME_OFFER_FILTER_FIELDS>;
export type VolumeOfferOrder = Array<[VolumeOfferFilterField, "asc" | "desc"]>;

const fieldNames = Object.keys(VOLUME_OFFER_FILTER_FIELDS) as [VolumeOfferFilterField, ...VolumeOfferFilterField[]];

/** The volume offer search body as sent: conditions beside `order`, `limit` and `allocated_storage`. */
export const volumeOfferQuerySchema = z.strictObject({
    ...filtersShape(VOLUME_OFFER_FILTER_FIELDS),
    limit: z.number().int().positive().optional(),
    order: z.array(z.tuple([z.enum(fieldNames), z.enum(["asc", "desc"])])).optional(),
    /** GB the prices are worked out for. */
    allocated_storage: z.number().positive().optional(),
});
export type VolumeOfferQuery = VolumeOfferFilters & { limit?: number; order?: VolumeOfferOrder; allocated_storage?: number };

/** A volume offer as the service lists it. Lenient: a field the service adds must not break a search. */
export const volumeOfferRecordSchema = z.looseObject({
    /** The volume offer id to create a volume on. */
    id: z.number().int(),
    machine_id: z.number().int().nullish(),
    disk_space: z.number().nullish(),
    storage_cost: z.number().nullish(),
    inet_up: z.number().nullish(),
    inet_down: z.number().nullish(),
    reliability: z.number().nullish(),
    geolocation: z.string().nullish(),
    verified: z.boolean().nullish(),
    cluster_id: z.number().int().nullish(),
});
export type VolumeOfferRecord = z.infer<typeof volumeOfferRecordSchema>;

export const volumeOfferSearchResponseSchema = z.looseObject({ offers: z.array(volumeOfferRecordSchema) });

/** Letters, digits and underscores, at most 64 (the service's volume guide). */
export const VOLUME_NAME = /^[A-Za-z0-9_]{1,64}$/;

export const volumeCreateRequestSchema = z.strictObject({
    id: z.number().int().positive(),
    size: z.number().int().positive(),
    name: z.string().regex(VOLUME_NAME).optional(),
});

/** The create's answer names the volume, not its id: a listing tells the id. */
export const volumeCreateResponseSchema = z.looseObject({ success: z.boolean().optional(), volume_name: z.string().nullish() });

/** A volume as the account lists it. */
export const volumeRecordSchema = z.looseObject({
    id: z.number().int(),
    /** The volume's name. */
    label: z.string().nullish(),
    /** GB. */
    disk_space: z.number().nullish(),
    status: z.string().nullish(),
    /** Unix seconds. */
    start_date: z.number().nullish(),
    machine_id: z.number().int().nullish(),
    cluster_id: z.number().int().nullish(),
    geolocation: z.string().nullish(),
    /** USD so far. */
    storage_total_cost: z.number().nullish(),
    /** The instances that use it. */
    instances: z.array(z.union([z.number(), z.looseObject({ id: z.number() })])).nullish(),
});
export type VolumeRecord = z.infer<typeof volumeRecordSchema>;

export const volumeListResponseSchema = z.looseObject({ volumes: z.array(volumeRecordSchema) });
