import { EmuResponse } from "./response";
import { HandlerContext } from "./handlers/context";
import * as account from "./handlers/account";
import * as catalog from "./handlers/catalog";
import * as instances from "./handlers/instances";
import * as instanceState from "./handlers/instanceState";
import * as sshKeys from "./handlers/sshKeys";
import * as offers from "./handlers/offers";
import * as serverless from "./handlers/serverless";
import * as serverlessLogs from "./handlers/serverlessLogs";
import * as templates from "./handlers/templates";

/**
 * The service's routes as the emulator knows them: the permission each needs (docs/live-service.md's
 * scope table) and its minimum interval per key at live speed (the service's API reference's
 * `x-rateLimit`, see docs/live-service.md "Rate limits per endpoint"; the key-less GPU-name list,
 * which has none, a modest guess). Kept apart from the client's own table on purpose: the emulator
 * stands in for the service, so the client's knowledge is tested against it, not copied into it.
 */
export interface Route {
    name: string;
    method: string;
    pattern: RegExp;
    scope: string;
    intervalMs: number;
    handler: (ctx: HandlerContext) => EmuResponse;
}

/** A route the service answers without a key (the vendor CLI asks it with none). */
export interface PublicRoute {
    name: string;
    method: string;
    pattern: RegExp;
    public: true;
    intervalMs: number;
    handler: (ctx: Omit<HandlerContext, "caller">) => EmuResponse;
}

const id = "(\\d+)";
const path = (p: string) => new RegExp(`^${p}/?$`);

export const ROUTES: Array<Route | PublicRoute> = [
    // The vendor CLI asks this at start-up with no key and caches it for a day (docs/live-service.md "At start-up").
    { name: "gpu-names", method: "GET", pattern: path("/api/v0/gpu_names/unique"), public: true, intervalMs: 500, handler: catalog.gpuNames },
    { name: "machines", method: "GET", pattern: path("/api/v0/machines"), scope: "machine_read", intervalMs: 2500, handler: account.listMachines },
    { name: "current-user", method: "GET", pattern: path("/api/v0/users/current"), scope: "user_read", intervalMs: 2000, handler: account.currentUser },
    { name: "template-search", method: "GET", pattern: path("/api/v0/template"), scope: "user_read", intervalMs: 3000, handler: templates.searchTemplates },
    { name: "template-create", method: "POST", pattern: path("/api/v0/template"), scope: "user_write", intervalMs: 1900, handler: templates.createTemplate },
    { name: "template-edit", method: "PUT", pattern: path("/api/v0/template"), scope: "user_write", intervalMs: 1900, handler: templates.editTemplate },
    { name: "template-delete", method: "DELETE", pattern: path("/api/v0/template"), scope: "user_write", intervalMs: 2000, handler: templates.deleteTemplate },
    // The contract's path is PUT; a general remark names POST for the same operation.
    { name: "instance-create", method: "PUT", pattern: path(`/api/v0/asks/${id}`), scope: "instance_write", intervalMs: 4500, handler: instances.createInstance },
    { name: "instance-create", method: "POST", pattern: path(`/api/v0/asks/${id}`), scope: "instance_write", intervalMs: 4500, handler: instances.createInstance },
    { name: "instance-show", method: "GET", pattern: path(`/api/v0/instances/${id}`), scope: "instance_read", intervalMs: 2000, handler: instances.showInstance },
    // One route for label edits and start/stop, as on the service: the body says which.
    { name: "instance-label", method: "PUT", pattern: path(`/api/v0/instances/${id}`), scope: "instance_write", intervalMs: 1000, handler: instanceState.putInstance },
    { name: "instance-bid", method: "PUT", pattern: path(`/api/v0/instances/bid_price/${id}`), scope: "instance_write", intervalMs: 5500, handler: instanceState.changeBid },
    { name: "instance-destroy", method: "DELETE", pattern: path(`/api/v0/instances/${id}`), scope: "instance_write", intervalMs: 3000, handler: instances.destroyInstance },
    { name: "instance-list-v0", method: "GET", pattern: path("/api/v0/instances"), scope: "instance_read", intervalMs: 20000, handler: instances.listInstancesV0 },
    { name: "instance-list", method: "GET", pattern: path("/api/v1/instances"), scope: "instance_read", intervalMs: 1000, handler: instances.listInstances },
    // Offer search: the query as `q`, or the same JSON as a POST body (docs/live-service.md).
    { name: "offer-search", method: "GET", pattern: path("/api/v0/bundles"), scope: "misc", intervalMs: 2000, handler: offers.searchOffersByQuery },
    { name: "offer-search", method: "POST", pattern: path("/api/v0/bundles"), scope: "misc", intervalMs: 2000, handler: offers.searchOffersByBody },
    // The newer search the vendor SDK also has: the same query, inside `{select_cols, q}`.
    { name: "offer-search", method: "PUT", pattern: path("/api/v0/search/asks"), scope: "misc", intervalMs: 2000, handler: offers.searchAsks },
    { name: "apikey-list", method: "GET", pattern: path("/api/v0/auth/apikeys"), scope: "user_read", intervalMs: 1000, handler: account.listApiKeys },
    { name: "apikey-create", method: "POST", pattern: path("/api/v0/auth/apikeys"), scope: "user_write", intervalMs: 2000, handler: account.createApiKey },
    { name: "apikey-delete", method: "DELETE", pattern: path(`/api/v0/auth/apikeys/${id}`), scope: "user_write", intervalMs: 2000, handler: account.deleteApiKey },
    // Create's 1 s is documented (docs `create-ssh-key`).
    { name: "sshkey-list", method: "GET", pattern: path("/api/v0/ssh"), scope: "user_read", intervalMs: 1000, handler: sshKeys.listSshKeys },
    { name: "sshkey-create", method: "POST", pattern: path("/api/v0/ssh"), scope: "user_write", intervalMs: 1000, handler: sshKeys.createSshKey },
    { name: "sshkey-delete", method: "DELETE", pattern: path(`/api/v0/ssh/${id}`), scope: "user_write", intervalMs: 1000, handler: sshKeys.deleteSshKey },
    // Volumes: 5.5 s on each endpoint (the notes on the live service). Local and network searches and
    // creates are endpoints of their own; list and delete serve both kinds.
    { name: "volume-search", method: "POST", pattern: path("/api/v0/volumes/search"), scope: "misc", intervalMs: 5500, handler: offers.searchVolumeOffers },
    { name: "network-volume-search", method: "POST", pattern: path("/api/v0/network_volumes/search"), scope: "misc", intervalMs: 5500, handler: offers.searchNetworkVolumeOffers },
    { name: "volume-create", method: "PUT", pattern: path("/api/v0/volumes"), scope: "instance_write", intervalMs: 5500, handler: offers.createVolume },
    { name: "network-volume-create", method: "PUT", pattern: path("/api/v0/network_volumes"), scope: "instance_write", intervalMs: 5500, handler: offers.createNetworkVolume },
    { name: "volume-list", method: "GET", pattern: path("/api/v0/volumes"), scope: "instance_read", intervalMs: 5500, handler: offers.listVolumes },
    { name: "volume-delete", method: "DELETE", pattern: path("/api/v0/volumes"), scope: "instance_write", intervalMs: 5500, handler: offers.deleteVolume },
    // Serverless (docs/live-service.md "Serverless: endpoints and worker groups"): `misc` on every
    // route. Worker groups are `autojobs` to the vendor CLI and SDK, `workergroups` to the serverless
    // client and the API reference; both are served, each path its own interval.
    { name: "endpoint-list", method: "GET", pattern: path("/api/v0/endptjobs"), scope: "misc", intervalMs: 3000, handler: serverless.listEndpoints },
    { name: "endpoint-create", method: "POST", pattern: path("/api/v0/endptjobs"), scope: "misc", intervalMs: 4000, handler: serverless.createEndpoint },
    { name: "endpoint-show", method: "GET", pattern: path(`/api/v0/endptjobs/${id}`), scope: "misc", intervalMs: 2000, handler: serverless.showEndpoint },
    { name: "endpoint-update", method: "PUT", pattern: path(`/api/v0/endptjobs/${id}`), scope: "misc", intervalMs: 2000, handler: serverless.updateEndpoint },
    { name: "endpoint-delete", method: "DELETE", pattern: path(`/api/v0/endptjobs/${id}`), scope: "misc", intervalMs: 3000, handler: serverless.deleteEndpoint },
    { name: "autojob-list", method: "GET", pattern: path("/api/v0/autojobs"), scope: "misc", intervalMs: 2000, handler: serverless.listWorkergroups },
    { name: "autojob-create", method: "POST", pattern: path("/api/v0/autojobs"), scope: "misc", intervalMs: 4000, handler: serverless.createWorkergroup },
    { name: "autojob-update", method: "PUT", pattern: path(`/api/v0/autojobs/${id}`), scope: "misc", intervalMs: 2000, handler: serverless.updateWorkergroup },
    { name: "autojob-delete", method: "DELETE", pattern: path(`/api/v0/autojobs/${id}`), scope: "misc", intervalMs: 3000, handler: serverless.deleteWorkergroup },
    { name: "workergroup-list", method: "GET", pattern: path("/api/v0/workergroups"), scope: "misc", intervalMs: 2000, handler: serverless.listWorkergroups },
    { name: "workergroup-create", method: "POST", pattern: path("/api/v0/workergroups"), scope: "misc", intervalMs: 2000, handler: serverless.createWorkergroup },
    { name: "workergroup-update", method: "PUT", pattern: path(`/api/v0/workergroups/${id}`), scope: "misc", intervalMs: 2000, handler: serverless.updateWorkergroup },
    { name: "workergroup-delete", method: "DELETE", pattern: path(`/api/v0/workergroups/${id}`), scope: "misc", intervalMs: 2000, handler: serverless.deleteWorkergroup },
    // The autoscaler's own host (run.vast.ai); the vendor CLI sends these to a custom URL as given.
    // No interval or permission is documented: a modest interval, and `misc` as for the rest.
    { name: "endpoint-logs", method: "POST", pattern: path("/get_endpoint_logs"), scope: "misc", intervalMs: 500, handler: serverlessLogs.endpointLogs },
    { name: "autogroup-logs", method: "POST", pattern: path("/get_autogroup_logs"), scope: "misc", intervalMs: 500, handler: serverlessLogs.workergroupLogs },
    { name: "workergroup-logs", method: "POST", pattern: path("/get_workergroup_logs"), scope: "misc", intervalMs: 500, handler: serverlessLogs.workergroupLogs },
];

export function findRoute(method: string, pathname: string): { route: Route | PublicRoute; params: string[] } | "wrong-method" | undefined {
    let pathMatched = false;
    for (const route of ROUTES) {
        const m = route.pattern.exec(pathname);
        if (!m) continue;
        if (route.method === method) return { route, params: m.slice(1) };
        pathMatched = true;
    }
    return pathMatched ? "wrong-method" : undefined;
}
