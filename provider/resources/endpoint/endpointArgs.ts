import { z } from "zod";
import { ComputedOutputs, PulumiArgs, computedOf, defaultsOf, prop, propertiesOf } from "../../dynamic/properties";

/**
 * The names the service takes: the API reference's letters, digits, `_` and `-`, and the spaces
 * and dots the vendor's own benchmark puts in its names; never parentheses or shell characters.
 */
export const ENDPOINT_NAME = /^[A-Za-z0-9 ._-]{1,255}$/;

export const ENDPOINT_STATES = ["active", "suspended", "stopped"] as const;

/**
 * A serverless endpoint's properties, each declared once. Every one changes in place (a PUT of the
 * full settings): the endpoint keeps its id, its worker groups and its token. Loads are in perf
 * units per second (tokens/s for a language model), times in seconds. The defaults are the
 * vendor's serverless guide's (docs/live-service.md "Endpoint fields"), sent on every create and
 * update, so a property left out is set to its default.
 */
export const endpointArgsSchema = z.strictObject({
    /** The endpoint's name on the account (`endpoint_name`), which holds a name once: letters, digits, spaces, dots, underscores and hyphens, at most 255. A new name renames it in place. */
    name: prop(z.string().regex(ENDPOINT_NAME, "must be 1 to 255 letters, digits, spaces, dots, underscores or hyphens"), { wire: "endpoint_name", onChange: "update" }),
    /** The floor of active capacity, in perf units per second. */
    minLoad: prop(z.number().min(0, "must be at least 0 (perf units per second)").default(1), { wire: "min_load", onChange: "update" }),
    /** The total capacity to keep, active and inactive, whatever `coldMult` says, in perf units per second. */
    minColdLoad: prop(z.number().min(0, "must be at least 0 (perf units per second)").default(0), { wire: "min_cold_load", onChange: "update" }),
    /** Active capacity to load, a fraction above 0, at most 1. */
    targetUtil: prop(z.number().gt(0, "must be a fraction above 0, at most 1").max(1, "must be a fraction above 0, at most 1").default(0.9), { wire: "target_util", onChange: "update" }),
    /** Inactive capacity as a multiple of active load. */
    coldMult: prop(z.number().min(0, "must be at least 0 (a multiple of the active load)").default(3), { wire: "cold_mult", onChange: "update" }),
    /** The workers to keep inactive ("cold") when there is no load, whole, at most `maxWorkers`. */
    coldWorkers: prop(z.number().int("must be a whole number of workers").min(0, "must be at least 0 workers").default(5), { wire: "cold_workers", onChange: "update" }),
    /** A hard cap on all the endpoint's workers, active and inactive, across its worker groups; whole. */
    maxWorkers: prop(z.number().int("must be a whole number of workers").min(0, "must be at least 0 workers").default(16), { wire: "max_workers", onChange: "update" }),
    /**
     * The queue time each worker may build up, in seconds. Default: the service's own (its CLI
     * says 30). Left out, the service's value is kept and shown: the service has no way to unset it.
     */
    maxQueueTime: prop(z.number().min(0, "must be at least 0 seconds").optional(), { wire: "max_queue_time", onChange: "update" }),
    /** The queue time above which the engine adds workers, in seconds, at most `maxQueueTime`. Default: the service's own (its CLI says 10); left out, kept as the service has it. */
    targetQueueTime: prop(z.number().min(0, "must be at least 0 seconds").optional(), { wire: "target_queue_time", onChange: "update" }),
    /**
     * Seconds without traffic before the endpoint may scale to zero workers: `0` turns the gate
     * off, a negative value never scales to zero. Default: not applied; left out, kept as the service has it.
     */
    inactivityTimeout: prop(z.number().optional(), { wire: "inactivity_timeout", onChange: "update" }),
    /**
     * `active`: the service rents and releases workers; `suspended`: it leaves them as they are;
     * `stopped`: it makes every worker inactive (billed for storage, not GPU time).
     * As an output, the state the service reports.
     */
    state: prop(z.enum(ENDPOINT_STATES).default("active"), { wire: "endpoint_state", onChange: "update" }),
    /**
     * The id of an endpoint already on the account (made in the console or with the vendor CLI), to
     * take into the stack instead of creating one: it is read, set to the program's name and scaling
     * parameters with one update, and then managed (and deleted, its workers with it) like one
     * Pulumi made. Keep it in the program: another id replaces the resource.
     */
    adopt: prop(z.number().int().positive("must be an endpoint's numeric id").optional(), { onChange: "replace" }),
});

/** An endpoint's arguments in a Pulumi program. */
export interface EndpointArgs extends PulumiArgs<z.input<typeof endpointArgsSchema>> {}

/** Inputs after `check`: every default filled in. */
export type EndpointInputs = z.output<typeof endpointArgsSchema>;

/** Outputs: every input (the service's value for a queue time or timeout the program leaves out), and what the service tells of it. Never its token (`api_key`). */
export interface EndpointOutputs extends EndpointInputs {
    /** The service's numeric id; the Pulumi id too. A worker group names its endpoint by it. */
    endpointId: number;
    /**
     * The account that holds the endpoint (the service's `user_id`). Another account's key sees
     * none of this account's endpoints, so a refresh or delete with one fails, naming both
     * accounts, instead of taking the endpoint as deleted.
     */
    accountId?: number;
    /** When the service created it, ISO 8601. */
    createdAt?: string;
}

export const ENDPOINT_PROPERTIES = propertiesOf(endpointArgsSchema);
export type EndpointProperty = (typeof ENDPOINT_PROPERTIES)[number];
export const ENDPOINT_DEFAULTS = defaultsOf(endpointArgsSchema);

/** The properties with no default of ours: left out, the service's value stands, and is not a change. */
export const KEPT_WHEN_LEFT_OUT: readonly EndpointProperty[] = ["maxQueueTime", "targetQueueTime", "inactivityTimeout"];

export const ENDPOINT_COMPUTED_OUTPUTS = { endpointId: {}, accountId: {}, createdAt: {} } as const satisfies ComputedOutputs<EndpointOutputs, EndpointInputs>;
export const ENDPOINT_COMPUTED = computedOf(ENDPOINT_COMPUTED_OUTPUTS);
