import type { PermissionName } from "../schemas/permissions";
import { ProviderError } from "../errors/providerError";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/**
 * Everything the client knows about one route: where it is, what it is called in messages, the
 * permission a scoped key needs for it, the service's minimum interval between calls, and whether
 * sending it twice is harmless.
 */
export interface Endpoint {
    method: HttpMethod;
    /** Path with `{name}` placeholders. */
    path: string;
    /** Words for error messages: "create template". */
    operation: string;
    scope: PermissionName;
    /** Minimum interval per key the live service enforces, in ms at live speed. */
    minIntervalMs: number;
    /** True when a second identical request has no further effect. */
    idempotent: boolean;
    /**
     * The answer holds a credential (the account's `api_key`, a new key, an instance key) or what a
     * program may keep secret (an instance's or a template's env and onstart, which a read's
     * redaction cannot know by value): an unreadable one is never quoted in a message.
     */
    carriesCredentials?: boolean;
    /**
     * Sent on a connection of its own, never a kept one (connections.ts): a kept connection the
     * service has just closed fails a call as a reset, its outcome unknown. A lost API key create
     * loses the key's secret for good, and a lost SSH key create that never arrived fails the
     * `up`; these pay the connection's round trips instead. A lost instance create is found by its
     * placement token (lostCreate.ts) like any other lost response, so it keeps its connection.
     */
    ownConnection?: true;
    /**
     * The documented response may be a bare text rather than a JSON object (the API-key delete's
     * "Successfully Deleted API Key"): the schema is given the text as it came. Other endpoints
     * refuse anything but an object.
     */
    respondsWithText?: true;
    /**
     * A 2xx response with `success: false` that still made something (the service's API reference):
     * it carries `field` and, when `msg` is given, no `error` code and a message that matches it.
     * The instance create answers so, with the new instance's `new_contract`, when the instance
     * "started in stopped state": an instance on the account, to keep in state, not a failure to
     * report, whatever else the response says (an instance named is never let go). The template
     * create answers so, with the `template`, when it found one with the same content ("Existing
     * Template Found: 123. User relationship added."): the caller decides. Any other
     * `success: false` stays a failure.
     */
    createdInResponse?: { field: string; msg?: RegExp };
    /**
     * The resource a `no_such_*` answer on this route must name to mean it is gone (`instance`): one
     * naming anything else (the create's `no_such_ask`, about an offer) is not about it, and never
     * reads as it gone. Set on the reads that decide "gone"; a removal's not-found is checked by one.
     */
    about?: string;
    /**
     * The error code this route answers for a target it does not have, where it says neither
     * `not_found` nor `no_such_*`: the SSH key delete's 400 `no_ssh_key` ("key not found or does not
     * belong to user", the service's API reference). Read as not found, which a removal confirms by a read.
     */
    goneCode?: string;
}

/**
 * Intervals: the service's own figure for each route, the `x-rateLimit` of its API reference (seconds between calls per
 * key; docs/live-service.md "Rate limits per endpoint"). Where that reference gives none (the old v0 instance list is
 * not used; every route here has one), a route would go unpaced until a 429 taught the pacer one. A 429 still teaches
 * the pacer a longer interval when the service's figure changes: the one it names ("endpoint threshold=0.5"), or a
 * widening one when it names none.
 * Scopes: docs/live-service.md "Scopes per route".
 */
export const ENDPOINTS = {
    listMachines: { method: "GET", path: "/api/v0/machines/", operation: "list machines", scope: "machine_read", minIntervalMs: 2500, idempotent: true },
    currentUser: { method: "GET", path: "/api/v0/users/current/", operation: "show current user", scope: "user_read", minIntervalMs: 2000, idempotent: true, carriesCredentials: true },
    searchTemplates: { method: "GET", path: "/api/v0/template/", operation: "search templates", scope: "user_read", minIntervalMs: 3000, idempotent: true, carriesCredentials: true },
    createTemplate: { method: "POST", path: "/api/v0/template/", operation: "create template", scope: "user_write", minIntervalMs: 1900, idempotent: false, carriesCredentials: true, createdInResponse: { field: "template", msg: /^existing template found/i } },
    editTemplate: { method: "PUT", path: "/api/v0/template/", operation: "edit template", scope: "user_write", minIntervalMs: 1900, idempotent: false, carriesCredentials: true },
    deleteTemplate: { method: "DELETE", path: "/api/v0/template/", operation: "delete template", scope: "user_write", minIntervalMs: 2000, idempotent: true },
    createInstance: { method: "PUT", path: "/api/v0/asks/{offerId}/", operation: "create instance", scope: "instance_write", minIntervalMs: 4500, idempotent: false, carriesCredentials: true, createdInResponse: { field: "new_contract" } },
    showInstance: { method: "GET", path: "/api/v0/instances/{id}/", operation: "show instance", scope: "instance_read", minIntervalMs: 2000, idempotent: true, carriesCredentials: true, about: "instance" },
    labelInstance: { method: "PUT", path: "/api/v0/instances/{id}/", operation: "label instance", scope: "instance_write", minIntervalMs: 1000, idempotent: true },
    // The label's route: a body with `state` starts or stops the instance (docs/live-service.md "Offers, SSH keys, start and stop").
    changeInstanceState: { method: "PUT", path: "/api/v0/instances/{id}/", operation: "change instance state", scope: "instance_write", minIntervalMs: 1000, idempotent: true },
    changeBid: { method: "PUT", path: "/api/v0/instances/bid_price/{id}/", operation: "change bid", scope: "instance_write", minIntervalMs: 5500, idempotent: true },
    destroyInstance: { method: "DELETE", path: "/api/v0/instances/{id}/", operation: "destroy instance", scope: "instance_write", minIntervalMs: 3000, idempotent: true },
    listInstances: { method: "GET", path: "/api/v1/instances/", operation: "list instances", scope: "instance_read", minIntervalMs: 1000, idempotent: true, carriesCredentials: true },
    searchOffers: { method: "GET", path: "/api/v0/bundles/", operation: "search offers", scope: "misc", minIntervalMs: 2000, idempotent: true },
    listApiKeys: { method: "GET", path: "/api/v0/auth/apikeys/", operation: "list API keys", scope: "user_read", minIntervalMs: 1000, idempotent: true },
    createApiKey: { method: "POST", path: "/api/v0/auth/apikeys/", operation: "create API key", scope: "user_write", minIntervalMs: 2000, idempotent: false, carriesCredentials: true, ownConnection: true },
    deleteApiKey: { method: "DELETE", path: "/api/v0/auth/apikeys/{id}/", operation: "delete API key", scope: "user_write", minIntervalMs: 2000, idempotent: true, respondsWithText: true },
    listSshKeys: { method: "GET", path: "/api/v0/ssh/", operation: "list SSH keys", scope: "user_read", minIntervalMs: 1000, idempotent: true },
    createSshKey: { method: "POST", path: "/api/v0/ssh/", operation: "create SSH key", scope: "user_write", minIntervalMs: 1000, idempotent: false, ownConnection: true },
    deleteSshKey: { method: "DELETE", path: "/api/v0/ssh/{id}/", operation: "delete SSH key", scope: "user_write", minIntervalMs: 1000, idempotent: true, goneCode: "no_ssh_key" },
    searchVolumeOffers: { method: "POST", path: "/api/v0/volumes/search/", operation: "search volume offers", scope: "misc", minIntervalMs: 5500, idempotent: true },
    createVolume: { method: "PUT", path: "/api/v0/volumes/", operation: "create volume", scope: "instance_write", minIntervalMs: 5500, idempotent: false },
    searchNetworkVolumeOffers: { method: "POST", path: "/api/v0/network_volumes/search/", operation: "search network volume offers", scope: "misc", minIntervalMs: 5500, idempotent: true },
    createNetworkVolume: { method: "PUT", path: "/api/v0/network_volumes/", operation: "create network volume", scope: "instance_write", minIntervalMs: 5500, idempotent: false },
    listVolumes: { method: "GET", path: "/api/v0/volumes/", operation: "list volumes", scope: "instance_read", minIntervalMs: 5500, idempotent: true },
    deleteVolume: { method: "DELETE", path: "/api/v0/volumes/", operation: "delete volume", scope: "instance_write", minIntervalMs: 5500, idempotent: true },
    // Serverless (docs/live-service.md "Serverless: endpoints and worker groups"); worker groups at `autojobs`, as the vendor CLI and SDK call them.
    createEndpoint: { method: "POST", path: "/api/v0/endptjobs/", operation: "create endpoint", scope: "misc", minIntervalMs: 4000, idempotent: false },
    listEndpoints: { method: "GET", path: "/api/v0/endptjobs/", operation: "list endpoints", scope: "misc", minIntervalMs: 3000, idempotent: true, carriesCredentials: true },
    showEndpoint: { method: "GET", path: "/api/v0/endptjobs/{id}/", operation: "show endpoint", scope: "misc", minIntervalMs: 2000, idempotent: true, carriesCredentials: true, about: "endpoint" },
    updateEndpoint: { method: "PUT", path: "/api/v0/endptjobs/{id}/", operation: "update endpoint", scope: "misc", minIntervalMs: 2000, idempotent: true },
    deleteEndpoint: { method: "DELETE", path: "/api/v0/endptjobs/{id}/", operation: "delete endpoint", scope: "misc", minIntervalMs: 3000, idempotent: true, about: "endpoint" },
    createWorkerGroup: { method: "POST", path: "/api/v0/autojobs/", operation: "create worker group", scope: "misc", minIntervalMs: 4000, idempotent: false },
    listWorkerGroups: { method: "GET", path: "/api/v0/autojobs/", operation: "list worker groups", scope: "misc", minIntervalMs: 2000, idempotent: true, carriesCredentials: true },
    updateWorkerGroup: { method: "PUT", path: "/api/v0/autojobs/{id}/", operation: "update worker group", scope: "misc", minIntervalMs: 2000, idempotent: true },
    deleteWorkerGroup: { method: "DELETE", path: "/api/v0/autojobs/{id}/", operation: "delete worker group", scope: "misc", minIntervalMs: 3000, idempotent: true, about: "workergroup" },
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** Fills `{name}` placeholders, encoding each value. */
export function endpointPath(endpoint: Endpoint, params: Record<string, string | number> = {}): string {
    return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = params[name];
        if (value === undefined) throw new ProviderError("internal", `missing path parameter ${name} for ${endpoint.operation}`);
        return encodeURIComponent(String(value));
    });
}
