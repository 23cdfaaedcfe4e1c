/**
 * Serverless endpoints and their worker groups (docs/live-service.md "Serverless: endpoints and
 * worker groups"): create, list, update and delete; their logs are in serverlessLogs.ts. The
 * workers themselves are rented and released by ../autoscaler.ts.
 */
import { EmuResponse, fail, invalidArgs, ok } from "../response";
import { EmuEndpoint, EmuTemplate, EmuWorkergroup, EndpointSettings, EndpointState, EmulatorModel, appendLog } from "../model";
import { intendedStatus, statusAt } from "../instanceStatus";
import { asNumber } from "../selectFilters";
import { parseLaunchArgs, searchQueryOf } from "../searchParams";
import { HandlerContext, isObject } from "./context";
import { destroyInstance } from "./instances";
import { findVisibleByHash, findVisibleById } from "./templates";

/** Defaults the vendor docs give for an endpoint created without them (guides/serverless/serverless-parameters.mdx). */
const ENDPOINT_DEFAULTS: EndpointSettings = {
    endpoint_name: "default-endpoint",
    min_load: 1,
    min_cold_load: 0,
    target_util: 0.9,
    cold_mult: 3,
    cold_workers: 5,
    max_workers: 16,
    max_queue_time: null,
    target_queue_time: null,
    inactivity_timeout: null,
    endpoint_state: "active",
    autoscaler_instance: "prod",
};

const STATES: EndpointState[] = ["active", "suspended", "stopped"];

/**
 * Letters, digits, `_`, `-` (the API reference's pattern), and spaces and dots, which the vendor's
 * own benchmark puts in its endpoint names ("benchmark 1x RTX 4090 ab12cd34"); not parentheses or
 * shell characters, which its comment says the service refuses.
 */
const ENDPOINT_NAME = /^[A-Za-z0-9 ._-]{1,255}$/;

const NO_ENDPOINT = "Please assign your workergroup to a valid endpoint identifier";

type NumberRule = "fraction" | "atLeastZero" | "count" | "any";
const RULE_WORDS: Record<NumberRule, string> = {
    fraction: "a fraction above 0, at most 1",
    atLeastZero: "a number, at least 0",
    count: "a whole number, at least 0",
    any: "a number",
};

const ENDPOINT_NUMBERS: Record<string, NumberRule> = {
    min_load: "atLeastZero",
    min_cold_load: "atLeastZero",
    target_util: "fraction",
    cold_mult: "atLeastZero",
    cold_workers: "count",
    max_workers: "count",
    max_queue_time: "atLeastZero",
    target_queue_time: "atLeastZero",
    // Negative means something: -1 never lets the endpoint scale to zero.
    inactivity_timeout: "any",
};

const GROUP_NUMBERS: Record<string, NumberRule> = {
    min_load: "atLeastZero",
    target_util: "fraction",
    cold_mult: "atLeastZero",
    cold_workers: "count",
    max_workers: "count",
    test_workers: "count",
    gpu_ram: "atLeastZero",
};

const GROUP_STRINGS = ["template_hash", "launch_args", "endpoint_name", "autoscaler_instance", "docker_login_repo", "docker_login_user", "docker_login_pass"];

/** The numbers the body gives, checked; a number written as text is taken, as elsewhere on the service. */
function numbersIn(body: Record<string, unknown>, rules: Record<string, NumberRule>): { numbers: Record<string, number> } | { problem: string } {
    const numbers: Record<string, number> = {};
    for (const [name, rule] of Object.entries(rules)) {
        if (body[name] === undefined) continue;
        const value = asNumber(body[name]);
        const fits =
            typeof value === "number" &&
            Number.isFinite(value) &&
            (rule === "any" || (value >= 0 && (rule !== "fraction" || (value > 0 && value <= 1)) && (rule !== "count" || Number.isInteger(value))));
        if (!fits) return { problem: `${name} must be ${RULE_WORDS[rule]}` };
        numbers[name] = value as number;
    }
    return { numbers };
}

function stringProblem(body: Record<string, unknown>, names: string[]): string | undefined {
    const wrong = names.find((name) => body[name] !== undefined && typeof body[name] !== "string");
    return wrong && `${wrong} must be a string`;
}

function integerProblem(body: Record<string, unknown>, names: string[]): string | undefined {
    const wrong = names.find((name) => body[name] !== undefined && !Number.isInteger(body[name]));
    return wrong && `${wrong} must be an integer`;
}

/**
 * The body's id (`endptjob_id`, `autojob_id`) against the path's: the vendor clients send both,
 * equal; which the service acts on when they differ is not documented, so a mismatch is refused.
 */
function bodyIdMismatch(ctx: HandlerContext, field: string): EmuResponse | undefined {
    const given = isObject(ctx.body) ? ctx.body[field] : undefined;
    if (given === undefined || Number(given) === Number(ctx.params[0])) return undefined;
    return invalidArgs(`${field} ${JSON.stringify(given)} in the body is not the id ${ctx.params[0]} in the path`);
}

// ---- endpoints -------------------------------------------------------------------------------

function endpointView(endpoint: EmuEndpoint): Record<string, unknown> {
    const { autoscaler_instance: _instance, ...settings } = endpoint.settings;
    return {
        id: endpoint.id,
        ...settings,
        api_key: endpoint.apiKey,
        user_id: endpoint.ownerId,
        created_at: endpoint.createdAt / 1000,
        // Auto-deletion of an endpoint left without groups is not modelled (its delay is not documented).
        auto_delete_in_seconds: null,
        auto_delete_due_24h: false,
    };
}

export function ownEndpoints(model: EmulatorModel, ownerId: number): EmuEndpoint[] {
    return [...model.endpoints.values()].filter((e) => !e.deleted && e.ownerId === ownerId).sort((a, b) => a.id - b.id);
}

export function ownEndpoint(ctx: HandlerContext, id: unknown): EmuEndpoint | undefined {
    const endpoint = ctx.emu.model.endpoints.get(Number(id));
    return endpoint && !endpoint.deleted && endpoint.ownerId === ctx.caller.user.id ? endpoint : undefined;
}

function endpointFields(body: Record<string, unknown>): { fields: Partial<EndpointSettings> } | { problem: string } {
    const read = numbersIn(body, ENDPOINT_NUMBERS);
    if ("problem" in read) return read;
    const problem = stringProblem(body, ["endpoint_name", "autoscaler_instance", "endpoint_state"]);
    if (problem) return { problem };
    if (body.endpoint_state !== undefined && !STATES.includes(body.endpoint_state as EndpointState)) return { problem: `endpoint_state must be one of ${STATES.join(", ")}` };
    const strings = Object.fromEntries(["endpoint_name", "autoscaler_instance", "endpoint_state"].filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
    return { fields: { ...read.numbers, ...strings } };
}

/** What makes these settings wrong for the caller's endpoint `selfId` (or a new one). */
function endpointProblem(ctx: HandlerContext, settings: EndpointSettings, selfId?: number): string | undefined {
    const name = settings.endpoint_name;
    if (!ENDPOINT_NAME.test(name)) return "endpoint_name must be 1 to 255 letters, digits, spaces, dots, underscores or hyphens";
    if (ownEndpoints(ctx.emu.model, ctx.caller.user.id).some((e) => e.id !== selfId && e.settings.endpoint_name === name)) {
        return `Duplicate endpoint name ${name} already exists for this account`;
    }
    if (settings.cold_workers > settings.max_workers) return "cold_workers must be at most max_workers";
    const { max_queue_time: max, target_queue_time: target } = settings;
    if (max !== null && target !== null && target > max) return "target_queue_time must be at most max_queue_time";
    return undefined;
}

/** `POST /api/v0/endptjobs/`: `{success, result: <id>}`. */
export function createEndpoint(ctx: HandlerContext): EmuResponse {
    const body = ctx.body ?? {};
    if (!isObject(body)) return invalidArgs("body must be a JSON object");
    const read = endpointFields(body);
    if ("problem" in read) return invalidArgs(read.problem);
    const settings = { ...ENDPOINT_DEFAULTS, ...read.fields };
    const problem = endpointProblem(ctx, settings);
    if (problem) return invalidArgs(problem);
    const endpoint = ctx.emu.model.addEndpoint(ctx.caller.user.id, settings, ctx.now);
    return ok({ success: true, result: endpoint.id });
}

/** `GET /api/v0/endptjobs/`: the caller's endpoints; none is a 400, as the API reference documents it. */
export function listEndpoints(ctx: HandlerContext): EmuResponse {
    const endpoints = ownEndpoints(ctx.emu.model, ctx.caller.user.id);
    if (endpoints.length === 0 && ctx.emu.options.emptyEndpointListing === "400") return invalidArgs(`No endpoints for user ${ctx.caller.user.id} found.`);
    return ok({ success: true, results: endpoints.map(endpointView) });
}

/** `GET /api/v0/endptjobs/{id}/` (the vendor SDK's `fetch_endpoint`): `{success, result: {...}}`. */
export function showEndpoint(ctx: HandlerContext): EmuResponse {
    const endpoint = ownEndpoint(ctx, ctx.params[0]);
    if (!endpoint) return fail(404, "no_such_endpoint", `Endpoint job ${ctx.params[0]} not found`);
    return ok({ success: true, result: endpointView(endpoint) });
}

/** `PUT /api/v0/endptjobs/{id}/`: the fields given change; a stop stops the endpoint's workers. */
export function updateEndpoint(ctx: HandlerContext): EmuResponse {
    const body = ctx.body ?? {};
    if (!isObject(body)) return invalidArgs("body must be a JSON object");
    const mismatch = bodyIdMismatch(ctx, "endptjob_id");
    if (mismatch) return mismatch;
    const endpoint = ownEndpoint(ctx, ctx.params[0]);
    if (!endpoint) return invalidArgs(`Endpoint ${ctx.params[0]} for user ${ctx.caller.user.id} not found.`);
    const read = endpointFields(body);
    if ("problem" in read) return invalidArgs(read.problem);
    const settings = { ...endpoint.settings, ...read.fields };
    const problem = endpointProblem(ctx, settings, endpoint.id);
    if (problem) return invalidArgs(problem);
    const stopping = settings.endpoint_state === "stopped" && endpoint.settings.endpoint_state !== "stopped";
    endpoint.settings = settings;
    if (stopping) stopWorkers(ctx, endpoint);
    return ok({ success: true });
}

/** A stopped endpoint's workers are all made inactive (the vendor's pricing page): stopped, not destroyed. */
function stopWorkers(ctx: HandlerContext, endpoint: EmuEndpoint): void {
    const model = ctx.emu.model;
    const timings = ctx.emu.options.instanceTimings;
    const workers = [...model.instances.values()].filter((i) => !i.destroyed && i.worker?.endpointId === endpoint.id);
    for (const worker of workers) {
        if (intendedStatus(worker) !== "stopped") worker.stateChange = { to: "stopped", at: ctx.now, from: statusAt(worker, ctx.now, timings) };
    }
    appendLog(endpoint.log, ctx.now, `endpoint ${endpoint.id} stopped: ${workers.length} workers stopped`);
}

/** `DELETE /api/v0/endptjobs/{id}/`: the endpoint and its groups go; their workers stay unless `deletedGroupWorkers` says otherwise. */
export function deleteEndpoint(ctx: HandlerContext): EmuResponse {
    const mismatch = bodyIdMismatch(ctx, "endptjob_id");
    if (mismatch) return mismatch;
    const endpoint = ownEndpoint(ctx, ctx.params[0]);
    if (!endpoint) return fail(404, "no_such_endpoint", `Endpoint ${ctx.params[0]} for user ${ctx.caller.user.id} not found.`);
    endpoint.deleted = true;
    const groups = [...ctx.emu.model.workergroups.values()].filter((g) => !g.deleted && g.endpointId === endpoint.id);
    for (const group of groups) group.deleted = true;
    const deleted = releaseWorkers(ctx, groups);
    return ok({ success: true, deleted_workers: deleted, failed_workers: [], msg: `Deleted endpoint job and ${deleted.length} workers` });
}

// ---- worker groups ---------------------------------------------------------------------------

function groupView(model: EmulatorModel, group: EmuWorkergroup): Record<string, unknown> {
    const endpoint = model.endpoints.get(group.endpointId);
    const s = group.settings;
    return {
        id: group.id,
        min_load: s.min_load,
        target_util: s.target_util,
        cold_mult: s.cold_mult,
        cold_workers: s.cold_workers,
        test_workers: s.test_workers,
        template_hash: s.template_hash,
        template_id: s.template_id,
        search_query: group.searchQuery,
        launch_args: s.launch_args,
        gpu_ram: s.gpu_ram,
        endpoint_name: endpoint?.settings.endpoint_name ?? null,
        endpoint_id: group.endpointId,
        api_key: endpoint?.apiKey ?? null,
        created_at: group.createdAt / 1000,
        user_id: group.ownerId,
    };
}

function ownGroup(ctx: HandlerContext): EmuWorkergroup | undefined {
    const group = ctx.emu.model.workergroups.get(Number(ctx.params[0]));
    return group && !group.deleted && group.ownerId === ctx.caller.user.id ? group : undefined;
}

/** The template a group names (by hash, by id, or both, the same one), among those the caller can see. */
function templateOf(ctx: HandlerContext, body: Record<string, unknown>): { template?: EmuTemplate } | { problem: string } {
    const { template_hash: hash, template_id: id } = body;
    const byHash = hash === undefined ? undefined : findVisibleByHash(ctx, hash as string);
    const byId = id === undefined ? undefined : findVisibleById(ctx, id as number);
    if (hash !== undefined && !byHash) return { problem: `no template with hash ${String(hash)}` };
    if (id !== undefined && !byId) return { problem: `no template with id ${String(id)}` };
    if (byHash && byId && byHash !== byId) return { problem: "template_hash and template_id name different templates" };
    return { template: byHash ?? byId };
}

/** What the body says of a group (on create, everything; on update, the fields given), checked. */
function groupFields(ctx: HandlerContext, body: Record<string, unknown>) {
    const problem = stringProblem(body, GROUP_STRINGS) ?? integerProblem(body, ["template_id", "endpoint_id"]);
    if (problem) return { problem };
    const read = numbersIn(body, GROUP_NUMBERS);
    if ("problem" in read) return read;
    const search = body.search_params === undefined ? undefined : searchQueryOf(body.search_params);
    if (search && "problem" in search) return search;
    const launch = parseLaunchArgs((body.launch_args as string | undefined) ?? "");
    if ("problem" in launch) return launch;
    const found = templateOf(ctx, body);
    if ("problem" in found) return found;
    return { numbers: read.numbers, conditions: search?.conditions, image: launch.fields.image, template: found.template };
}

/**
 * The endpoint a group create names: by id (the caller's, and of that name when a name is given
 * too), else by name, made with the defaults when there is none (the API reference), unless the
 * emulator is told to refuse.
 */
function endpointForCreate(ctx: HandlerContext, body: Record<string, unknown>): EmuEndpoint | EmuResponse {
    const name = body.endpoint_name as string | undefined;
    if (body.endpoint_id !== undefined) {
        const endpoint = ownEndpoint(ctx, body.endpoint_id);
        return endpoint && (name === undefined || endpoint.settings.endpoint_name === name) ? endpoint : invalidArgs(NO_ENDPOINT);
    }
    if (name === undefined) return invalidArgs(NO_ENDPOINT);
    const named = ownEndpoints(ctx.emu.model, ctx.caller.user.id).find((e) => e.settings.endpoint_name === name);
    if (named) return named;
    if (ctx.emu.options.unknownEndpointName === "refuse") return invalidArgs(NO_ENDPOINT);
    const minColdLoad = asNumber(body.min_cold_load);
    const settings = { ...ENDPOINT_DEFAULTS, endpoint_name: name, ...(typeof minColdLoad === "number" && minColdLoad >= 0 ? { min_cold_load: minColdLoad } : {}) };
    const problem = endpointProblem(ctx, settings);
    return problem ? invalidArgs(problem) : ctx.emu.model.addEndpoint(ctx.caller.user.id, settings, ctx.now);
}

/** `POST /api/v0/autojobs/` (or `/workergroups/`): `{success, id}`; the autoscaler rents its workers from then on. */
export function createWorkergroup(ctx: HandlerContext): EmuResponse {
    const body = ctx.body ?? {};
    if (!isObject(body)) return invalidArgs("body must be a JSON object");
    // The vendor SDK: "search_params is always required by the server"; its clients send "" for none.
    if (body.search_params === undefined) return invalidArgs("search_params is required (an empty string for no conditions)");
    const read = groupFields(ctx, body);
    if ("problem" in read) return invalidArgs(read.problem);
    if (!read.template && !read.image) return invalidArgs("a workergroup needs an image: template_hash or template_id, or --image in launch_args");
    const { numbers } = read;
    if (numbers.cold_workers !== undefined && numbers.max_workers !== undefined && numbers.cold_workers > numbers.max_workers) {
        return invalidArgs("cold_workers must be at most max_workers");
    }
    // Last, so a refused create leaves no endpoint behind.
    const endpoint = endpointForCreate(ctx, body);
    if (!("settings" in endpoint)) return endpoint;
    const group = ctx.emu.model.addWorkergroup({
        ownerId: ctx.caller.user.id,
        endpointId: endpoint.id,
        settings: {
            min_load: numbers.min_load ?? null,
            target_util: numbers.target_util ?? null,
            cold_mult: numbers.cold_mult ?? null,
            cold_workers: numbers.cold_workers ?? null,
            max_workers: numbers.max_workers ?? null,
            test_workers: numbers.test_workers ?? 3,
            gpu_ram: numbers.gpu_ram ?? 24,
            template_hash: read.template?.hash_id ?? null,
            template_id: read.template?.id ?? null,
            launch_args: (body.launch_args as string | undefined) ?? null,
            autoscaler_instance: (body.autoscaler_instance as string | undefined) ?? "prod",
            docker_login_repo: (body.docker_login_repo as string | undefined) ?? null,
            docker_login_user: (body.docker_login_user as string | undefined) ?? null,
            docker_login_pass: (body.docker_login_pass as string | undefined) ?? null,
        },
        templateBy: body.template_id !== undefined ? "id" : body.template_hash !== undefined ? "hash" : null,
        searchQuery: read.conditions ?? {},
        createdAt: ctx.now,
        nextRoundAt: ctx.now + ctx.emu.options.autoscalerRoundMs,
    });
    return ok({ success: true, id: group.id });
}

/** `GET /api/v0/autojobs/` (or `/workergroups/`): the caller's groups, in id order. */
export function listWorkergroups(ctx: HandlerContext): EmuResponse {
    const model = ctx.emu.model;
    const groups = [...model.workergroups.values()].filter((g) => !g.deleted && g.ownerId === ctx.caller.user.id).sort((a, b) => a.id - b.id);
    return ok({ success: true, results: groups.map((g) => groupView(model, g)) });
}

/**
 * `PUT /api/v0/autojobs/{id}/`: `endpoint_id` is required (the API reference); the other fields
 * given change. `search_params`, which the vendor CLI sends on every update, replaces the search.
 */
export function updateWorkergroup(ctx: HandlerContext): EmuResponse {
    const body = ctx.body ?? {};
    if (!isObject(body)) return invalidArgs("body must be a JSON object");
    const mismatch = bodyIdMismatch(ctx, "autojob_id");
    if (mismatch) return mismatch;
    const group = ownGroup(ctx);
    if (!group) return invalidArgs("Workgroup not found for user");
    if (body.endpoint_id === undefined) return invalidArgs("endpoint_id is required: the endpoint this workergroup belongs to");
    const read = groupFields(ctx, body);
    if ("problem" in read) return invalidArgs(read.problem);
    const endpoint = ownEndpoint(ctx, body.endpoint_id);
    if (!endpoint || (body.endpoint_name !== undefined && endpoint.settings.endpoint_name !== body.endpoint_name)) return invalidArgs(NO_ENDPOINT);
    const settings = { ...group.settings, ...read.numbers };
    if (settings.cold_workers !== null && settings.max_workers !== null && settings.cold_workers > settings.max_workers) {
        return invalidArgs("cold_workers must be at most max_workers");
    }
    for (const name of GROUP_STRINGS.filter((n) => n.startsWith("docker_login") || n === "launch_args")) {
        if (body[name] !== undefined) (settings as Record<string, unknown>)[name] = body[name];
    }
    if (read.template) {
        settings.template_hash = read.template.hash_id;
        settings.template_id = read.template.id;
        group.templateBy = body.template_id !== undefined ? "id" : "hash";
    }
    group.settings = settings;
    group.endpointId = endpoint.id;
    if (read.conditions) group.searchQuery = read.conditions;
    return ok({ success: true });
}

/** `DELETE /api/v0/autojobs/{id}/`: the group goes; its workers stay unless `deletedGroupWorkers` says otherwise. */
export function deleteWorkergroup(ctx: HandlerContext): EmuResponse {
    const mismatch = bodyIdMismatch(ctx, "autojob_id");
    if (mismatch) return mismatch;
    const group = ownGroup(ctx);
    if (!group) return { status: 404, body: { success: false, error: "no_such_workergroup", msg: "No workergroup by that id is available.", id: Number(ctx.params[0]) } };
    group.deleted = true;
    const deleted = releaseWorkers(ctx, [group]);
    return ok({ success: true, deleted_workers: deleted, failed_workers: [], msg: `Deleted workergroup and ${deleted.length} workers` });
}

/** With `deletedGroupWorkers: "destroyed"`, the groups' workers are destroyed; their ids. */
function releaseWorkers(ctx: HandlerContext, groups: EmuWorkergroup[]): number[] {
    if (ctx.emu.options.deletedGroupWorkers !== "destroyed") return [];
    const workers = groups.flatMap((g) => ctx.emu.model.workersOf(g.id));
    for (const worker of workers) destroyInstance({ ...ctx, params: [String(worker.id)] });
    return workers.map((w) => w.id);
}
