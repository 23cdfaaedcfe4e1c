import { z } from "zod";
import { INSTANCE_LIMITS, envLimitProblems } from "./limits";
import { offerFiltersSchema } from "./offer";
import { volumeInfoSchema } from "./template";

/**
 * Body of `PUT /asks/{offer_id}/` (docs/service-contract.md §4.7, fields as the vendor CLI sends them). Strict, and
 * `template_id` is not a field: the contract rejects it in favour of `template_hash_id`.
 */
export const instanceCreateRequestSchema = z
    .strictObject({
        client_id: z.literal("me").optional(),
        template_hash_id: z.string().min(1).optional(),
        image: z.string().min(1).max(INSTANCE_LIMITS.imageMax).optional(),
        /** Variables by name; a port mapping is the key `-p host:container` with value `"1"`. */
        env: z.record(z.string(), z.string()).optional(),
        onstart: z.string().max(INSTANCE_LIMITS.onstartMax).optional(),
        args: z.array(z.string()).optional(),
        /** A field the contract's limits name (args + args_str + onstart); the vendor CLI sends `args` only. */
        args_str: z.string().optional(),
        /** One of the vendor clients' strings (`ssh_direc ssh_proxy`, ...): instanceMapping.ts builds it. */
        runtype: z.string().min(1).optional(),
        /** GB. */
        disk: z.number().min(INSTANCE_LIMITS.diskMinGb).optional(),
        label: z.string().max(INSTANCE_LIMITS.labelOnCreateMax).optional(),
        /** Interruptible bid in $/hour; the service calls it `price`. */
        price: z.number().min(INSTANCE_LIMITS.bidMin).max(INSTANCE_LIMITS.bidOnCreateMax).optional(),
        /** `-u user -p pass registry`. */
        image_login: z.string().optional(),
        volume_info: volumeInfoSchema.optional(),
        extra_filters: offerFiltersSchema.optional(),
        jupyter_dir: z.string().optional(),
        use_jupyter_lab: z.boolean().optional(),
        /** "Desired initial state of the instance" (the service's API reference): `stopped` creates it without running it. */
        target_state: z.enum(["running", "stopped"]).optional(),
    })
    .superRefine((body, ctx) => {
        const total = (body.args ?? []).join(" ").length + (body.args_str ?? "").length + (body.onstart ?? "").length;
        if (total > INSTANCE_LIMITS.commandTotalMax) {
            ctx.addIssue({
                code: "custom",
                path: ["onstart"],
                message: `args + args_str + onstart is ${total} characters; the service accepts at most ${INSTANCE_LIMITS.commandTotalMax}`,
            });
        }
        for (const { key, problem } of envLimitProblems(body.env ?? {})) {
            ctx.addIssue({ code: "custom", path: key === undefined ? ["env"] : ["env", key], message: problem });
        }
    });
export type InstanceCreateRequest = z.infer<typeof instanceCreateRequestSchema>;

/** The create answer carries the instance id as `new_contract`; `id` is not used for this. */
/** `success` is false when the instance "started in stopped state" (the service's API reference); it exists either way. */
export const instanceCreateResponseSchema = z.looseObject({
    new_contract: z.number().int(),
    success: z.boolean().nullish(),
});

/** `ports` as Docker reports them: `{"22/tcp": [{"HostIp": "0.0.0.0", "HostPort": "20000"}]}`. */
export const portBindingsSchema = z.record(
    z.string(),
    z.array(z.looseObject({ HostIp: z.string().nullish(), HostPort: z.union([z.string(), z.number()]).nullish() })).nullable(),
);

/** What an instance can be asked to be (`PUT /instances/{id}/ {state}`). */
export const INSTANCE_STATES = ["running", "stopped"] as const;
export type InstanceState = (typeof INSTANCE_STATES)[number];

/**
 * What a read can find an instance meant to be (`intended_status`): an asked state, or `frozen`,
 * paused with its memory kept and its GPUs still billed, which the web console asks for (the API
 * documents no call that does).
 */
export const READ_BACK_STATES = [...INSTANCE_STATES, "frozen"] as const;
export type ReadBackState = (typeof READ_BACK_STATES)[number];

/**
 * Bodies of the small instance edits (`PUT /instances/{id}/` with a label or a state, `PUT
 * /instances/bid_price/{id}/`). Built once here: a zod object schema compiles its parser on first
 * use, so one built per call paid that on every label edit.
 */
export const instanceLabelRequestSchema = z.strictObject({ label: z.string().max(INSTANCE_LIMITS.labelOnEditMax) });
export const instanceStateRequestSchema = z.strictObject({ state: z.enum(INSTANCE_STATES) });
export const instanceBidRequestSchema = z.strictObject({
    client_id: z.literal("me"),
    price: z.number().min(INSTANCE_LIMITS.bidMin).max(INSTANCE_LIMITS.bidOnChangeMax),
});

/** An instance as the service returns it. Lenient; only `id` is required. */
export const instanceRecordSchema = z.looseObject({
    id: z.number().int(),
    machine_id: z.number().int().nullish(),
    actual_status: z.string().nullish(),
    intended_status: z.string().nullish(),
    cur_state: z.string().nullish(),
    status_msg: z.string().nullish(),
    label: z.string().nullish(),
    template_hash_id: z.string().nullish(),
    image_uuid: z.string().nullish(),
    ssh_host: z.string().nullish(),
    ssh_port: z.number().int().nullish(),
    /** May carry surrounding whitespace on the live service. */
    public_ipaddr: z.string().nullish(),
    ports: portBindingsSchema.nullish(),
    dph_total: z.number().nullish(),
    is_bid: z.boolean().nullish(),
    /**
     * The rented machine's GPU model, number of GPUs and place, as the vendor clients show an
     * instance. Read for the policy pack only: a value of another type is dropped, never a failed read.
     */
    gpu_name: z.string().nullish().catch(undefined),
    num_gpus: z.number().int().nullish().catch(undefined),
    geolocation: z.string().nullish().catch(undefined),
    /** `[[key, value], ...]`. */
    extra_env: z.array(z.tuple([z.string(), z.string()])).nullish(),
    disk_space: z.number().nullish(),
    start_date: z.number().nullish(),
    /** The serverless endpoint and worker group a worker was rented for (docs/live-service.md "How a worker names its group"). */
    endpoint_id: z.number().int().nullish().catch(undefined),
    workergroup_id: z.number().int().nullish().catch(undefined),
});
export type InstanceRecord = z.infer<typeof instanceRecordSchema>;

/**
 * `GET /instances/{id}/`: one object; `null`, or `{}` without an id, means the instance is gone. The
 * object itself is checked against `instanceRecordSchema` once it is known to be there.
 */
export const instanceShowResponseSchema = z.looseObject({
    instances: z.record(z.string(), z.unknown()).nullable(),
});

/** `GET /api/v1/instances/`: a page of at most `limit` instances and the token for the next one. */
export const instanceListResponseSchema = z.looseObject({
    instances: z.array(instanceRecordSchema),
    next_token: z.string().nullish(),
});

/** Fields the v1 list can filter on (docs/live-service.md "Paths the contract leaves out"). */
export const instanceListFiltersSchema = z.strictObject({
    id: z.record(z.string(), z.unknown()).optional(),
    label: z.record(z.string(), z.unknown()).optional(),
    actual_status: z.record(z.string(), z.unknown()).optional(),
});
export type InstanceListFilters = {
    id?: { eq?: number; in?: number[] };
    label?: { eq?: string; in?: string[] };
    actual_status?: { eq?: string; neq?: string; in?: string[]; notin?: string[] };
};
