/**
 * Serverless endpoints and worker groups on the wire (docs/live-service.md "Serverless: endpoints
 * and worker groups"): strict for what is sent, lenient for what comes back.
 */
import { z } from "zod";

/** An endpoint's scaling parameters, as sent on create and update. */
export const endpointSettingsSchema = z.strictObject({
    endpoint_name: z.string().min(1).max(255),
    min_load: z.number().min(0).optional(),
    min_cold_load: z.number().min(0).optional(),
    target_util: z.number().gt(0).max(1).optional(),
    cold_mult: z.number().min(0).optional(),
    cold_workers: z.number().int().min(0).optional(),
    max_workers: z.number().int().min(0).optional(),
    max_queue_time: z.number().min(0).optional(),
    target_queue_time: z.number().min(0).optional(),
    inactivity_timeout: z.number().optional(),
    endpoint_state: z.enum(["active", "suspended", "stopped"]).optional(),
});
export type EndpointSettings = z.infer<typeof endpointSettingsSchema>;

export const endpointCreateRequestSchema = endpointSettingsSchema.extend({ client_id: z.literal("me"), autoscaler_instance: z.string() });
export const endpointUpdateRequestSchema = endpointSettingsSchema.extend({ client_id: z.literal("me"), endptjob_id: z.number().int(), autoscaler_instance: z.string() });

/** An endpoint as listed or read. Its `api_key` is the endpoint's own token: never shown, never kept. */
export const endpointRecordSchema = z.looseObject({
    id: z.number().int(),
    endpoint_name: z.string().nullish(),
    min_load: z.number().nullish(),
    min_cold_load: z.number().nullish(),
    target_util: z.number().nullish(),
    cold_mult: z.number().nullish(),
    cold_workers: z.number().nullish(),
    max_workers: z.number().nullish(),
    max_queue_time: z.number().nullish(),
    target_queue_time: z.number().nullish(),
    inactivity_timeout: z.number().nullish(),
    endpoint_state: z.string().nullish(),
    user_id: z.number().int().nullish(),
    created_at: z.union([z.number(), z.string()]).nullish(),
});
export type EndpointRecord = z.infer<typeof endpointRecordSchema>;

/** The endpoint create answers its id as `result`; the vendor's benchmark reads `id` too. */
export const endpointCreateResponseSchema = z.union([
    z.looseObject({ result: z.number().int() }).transform((r) => r.result),
    z.looseObject({ id: z.number().int() }).transform((r) => r.id),
]);
export const endpointListResponseSchema = z.looseObject({ results: z.array(endpointRecordSchema) }).transform((r) => r.results);
export const endpointShowResponseSchema = z.looseObject({ result: endpointRecordSchema }).transform((r) => r.result);

/** A worker group, as sent on create and update. */
export const workerGroupSettingsSchema = z.strictObject({
    endpoint_id: z.number().int(),
    template_hash: z.string().min(1),
    search_params: z.string(),
    launch_args: z.string().optional(),
    gpu_ram: z.number().min(0).optional(),
    test_workers: z.number().int().min(0).optional(),
    cold_workers: z.number().int().min(0).optional(),
    max_workers: z.number().int().min(0).optional(),
});
export type WorkerGroupSettings = z.infer<typeof workerGroupSettingsSchema>;

export const workerGroupCreateRequestSchema = workerGroupSettingsSchema.extend({ client_id: z.literal("me"), autoscaler_instance: z.string() });
export const workerGroupUpdateRequestSchema = workerGroupSettingsSchema.extend({ client_id: z.literal("me"), autojob_id: z.number().int() });

/** A worker group as listed: the search comes back parsed, as `search_query`; `max_workers` is not shown. */
export const workerGroupRecordSchema = z.looseObject({
    id: z.number().int(),
    endpoint_id: z.number().int().nullish(),
    endpoint_name: z.string().nullish(),
    template_hash: z.string().nullish(),
    template_id: z.number().int().nullish(),
    search_query: z.unknown().optional(),
    launch_args: z.string().nullish(),
    gpu_ram: z.number().nullish(),
    test_workers: z.number().nullish(),
    cold_workers: z.number().nullish(),
    user_id: z.number().int().nullish(),
    created_at: z.union([z.number(), z.string()]).nullish(),
});
export type WorkerGroupRecord = z.infer<typeof workerGroupRecordSchema>;

/** The group create answers its id as `id`; `result` is read too, as for an endpoint. */
export const workerGroupCreateResponseSchema = endpointCreateResponseSchema;
export const workerGroupListResponseSchema = z.looseObject({ results: z.array(workerGroupRecordSchema) }).transform((r) => r.results);

/** A delete's answer: what the service says it did with the workers (the emulator, like the CLI's warning, keeps them). */
export const serverlessDeleteResponseSchema = z.looseObject({
    deleted_workers: z.unknown().optional(),
    failed_workers: z.unknown().optional(),
});
