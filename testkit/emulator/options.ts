/** What an emulator can be told at start (the service's variants seen live, speed, faults of the network), and their defaults. */
import { InstanceTimings } from "./instanceStatus";

export interface EmulatorOptions {
    /** 0 (the default) picks a free port. Always bound to 127.0.0.1. */
    port?: number;
    /** Multiplies every per-endpoint minimum interval: 1 is live speed, 0 turns limits off. */
    rateLimitScale?: number;
    /** Whether a 429 names the endpoint's interval ("endpoint threshold=0.5"); default true. */
    rateLimitNamesThreshold?: boolean;
    /**
     * Whether a call turned away also restarts its endpoint's interval. Default false, as the live
     * service documents (a token bucket whose rejections cost no tokens); true is the harsher service
     * a client must still get through to.
     */
    rateLimitCountsRejections?: boolean;
    /** Per-route interval overrides in ms at live speed, by route name (see routes.ts). */
    intervalOverrides?: Record<string, number>;
    instanceTimings?: InstanceTimings;
    /** How a gone instance reads: `{instances: null}` or `{instances: {}}`; both are seen live. */
    goneInstanceShape?: "null" | "empty";
    /** The live create answers "existing template found" for identical content. */
    dedupeTemplates?: boolean;
    /** How a revoked key is answered from then on; 404 with auth_error has been seen live. */
    revokedKeyStatus?: 401 | 404;
    /**
     * The status a scoped key is refused with on a route its permissions lack. The contract (§5.4)
     * and the vendor's authentication page both say "401 or 403"; default 403.
     */
    scopeRefusalStatus?: 401 | 403;
    /**
     * What the API-key listing shows of a key: `reference` (the default), as the service's API
     * reference's example does (`id, user_id, key: null, key_type, name, team_*`: no creation time,
     * no permissions); `detailed` adds `created_at` and `permissions`, which a client must not need.
     */
    apiKeyListing?: "reference" | "detailed";
    /**
     * How long a destroyed instance's offer stays taken before it can be rented again (the
     * marketplace takes a moment to list it); default 5000 ms.
     */
    offerReturnAfterMs?: number;
    /**
     * How a create on a taken offer is answered: 410 `no_such_ask` (the default), or the 404
     * `no_such_ask` an offer that does not exist gets. The live service has been seen to do both.
     */
    takenOfferStatus?: 404 | 410;
    /** The serverless autoscaler rents, replaces and releases nothing: groups keep whatever workers they have. Default false. */
    autoscalerIdle?: boolean;
    /**
     * How often the autoscaler looks at a worker group, ms: its first workers come this long after
     * it is made, a lost worker's replacement within as long. Default 5000 (the live pace is not documented).
     */
    autoscalerRoundMs?: number;
    /**
     * What deleting a worker group, or its endpoint, does to the group's workers: `kept` (the
     * default), as the vendor CLI warns ("doesn't automatically destroy all the instances"), or
     * `destroyed`, as the API reference's delete describes it ("terminating associated worker instances").
     */
    deletedGroupWorkers?: "kept" | "destroyed";
    /**
     * Whether a worker's instance record names its group and endpoint (`endpoint_id`,
     * `workergroup_id`): the emulator's guess, undocumented. `false` is the guess wrong: a client
     * must still find the workers. Default true.
     */
    workerFieldsShown?: boolean;
    /**
     * A worker group create naming an endpoint that does not exist: `create` makes it (the
     * default, as the API reference's create describes it), `refuse` answers 400 as for an unknown endpoint id.
     */
    unknownEndpointName?: "create" | "refuse";
    /**
     * How the endpoint listing answers an account with none: `400` "No endpoints for user ... found."
     * (the default, as the API reference documents it), or `empty`, `{success: true, results: []}`.
     */
    emptyEndpointListing?: "400" | "empty";
    /** Keep the process alive while listening (for `npm run emulator`); tests leave it false. */
    keepProcessAlive?: boolean;
    /**
     * Network latency to stand in for a region's distance from the service: every request's round
     * trip takes this much longer (half before it is handled, half before its response leaves). Default 0.
     */
    latencyMs?: number;
    /** How long an idle connection is kept open before the emulator closes it, ms; default 5000, as Node's and many servers'. */
    keepAliveTimeoutMs?: number;
    /** Serve https with this key and certificate (PEM; testkit/tls/selfSignedCert.ts) instead of plain http. */
    tls?: { key: string; cert: string };
}

export type ResolvedOptions = Required<Omit<EmulatorOptions, "port" | "intervalOverrides" | "tls">> & {
    intervalOverrides: Record<string, number>;
    tls?: EmulatorOptions["tls"];
};

/** The options with every default filled in. */
export function resolveOptions(options: EmulatorOptions): ResolvedOptions {
    return {
        rateLimitScale: options.rateLimitScale ?? 1,
        rateLimitNamesThreshold: options.rateLimitNamesThreshold ?? true,
        rateLimitCountsRejections: options.rateLimitCountsRejections ?? false,
        intervalOverrides: options.intervalOverrides ?? {},
        instanceTimings: options.instanceTimings ?? { loadingAfterMs: 1000, runningAfterMs: 4000 },
        goneInstanceShape: options.goneInstanceShape ?? "null",
        dedupeTemplates: options.dedupeTemplates ?? true,
        revokedKeyStatus: options.revokedKeyStatus ?? 401,
        scopeRefusalStatus: options.scopeRefusalStatus ?? 403,
        apiKeyListing: options.apiKeyListing ?? "reference",
        offerReturnAfterMs: options.offerReturnAfterMs ?? 5000,
        takenOfferStatus: options.takenOfferStatus ?? 410,
        autoscalerIdle: options.autoscalerIdle ?? false,
        autoscalerRoundMs: options.autoscalerRoundMs ?? 5000,
        deletedGroupWorkers: options.deletedGroupWorkers ?? "kept",
        workerFieldsShown: options.workerFieldsShown ?? true,
        unknownEndpointName: options.unknownEndpointName ?? "create",
        emptyEndpointListing: options.emptyEndpointListing ?? "400",
        keepProcessAlive: options.keepProcessAlive ?? false,
        latencyMs: options.latencyMs ?? 0,
        keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 5000,
        tls: options.tls,
    };
}
