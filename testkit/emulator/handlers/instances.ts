import { EmuResponse, fail, invalidArgs, ok } from "../response";
import { envFlagsToDict } from "../envFlags";
import { EmuInstance, newSecret } from "../model";
import { InstanceTimings, intendedStatus, statusAt } from "../instanceStatus";
import { FieldType, filtersFromQuery, matchesFilters } from "../selectFilters";
import { HandlerContext, isObject } from "./context";
import { extraFiltersProblem, findVisibleByHash } from "./templates";

/** Limits of the create call (contract §8; docs `create_instance.yaml`). */
const LIMITS = { onstart: 4048, commandTotal: 4096, label: 256, labelEdit: 1024, envValue: 256, envTotal: 32768, image: 1024 };

/**
 * Instance runtypes as the vendor clients send them (vast.py `get_runtype`, `resolve_runtype` in
 * vastai/api/instances.py): `ssh` (the CLI's default), `args`, and compound strings that also choose
 * proxied or direct connections.
 */
const WIRE_RUNTYPES = ["ssh", "args", "ssh_proxy", "ssh_direc ssh_proxy", "jupyter_proxy ssh_proxy", "jupyter_direc ssh_direc ssh_proxy"];

/**
 * A bare `jupyter` is a template's runtype. Only a CLI of years ago sent it for an instance; today's
 * clients never do, and read as today's tokens it names no Jupyter connection at all, so the live
 * service most likely starts the instance without one. Refused here, so a client that sends it
 * finds out before the live service quietly misreads it.
 */
const BARE_JUPYTER =
    'runtype "jupyter" is a template\'s runtype; for an instance send "jupyter_proxy ssh_proxy" (proxied) or "jupyter_direc ssh_direc ssh_proxy" (direct), as the vendor clients do';

const LIST_FILTER_FIELDS: Record<string, FieldType> = { id: "int", label: "string", actual_status: "string" };
const PAGE_SIZE = 25;

export function createInstance(ctx: HandlerContext): EmuResponse {
    const offerId = Number(ctx.params[0]);
    const body = ctx.body;
    if (!isObject(body)) return invalidArgs("body must be a JSON object");
    if ("template_id" in body) {
        return invalidArgs("template_id is not accepted for instance creation; pass template_hash_id");
    }
    const offer = ctx.emu.model.offers.get(offerId);
    // An offer its host keeps off the market (`rentable: false`) is no ask to accept: as one that
    // does not exist. Before, it was rented like any other.
    if (!offer || !offer.listing.rentable) return noSuchAsk(offerId);
    // A taken offer: 410, or the same 404 as one that does not exist; both are seen live
    // (docs/live-service.md "Renting by need").
    if (ctx.now < offer.freeAt) {
        return ctx.emu.options.takenOfferStatus === 404 ? noSuchAsk(offerId) : fail(410, "no_such_ask", `offer ${offerId} is no longer available`);
    }

    const problem = checkCreateBody(body);
    if (problem) return invalidArgs(problem);
    const linked = volumesToLink(ctx, body.volume_info, offer.machineId);
    if ("refused" in linked) return linked.refused;

    let template: Record<string, unknown> = {};
    if (body.template_hash_id !== undefined) {
        const found = findVisibleByHash(ctx, String(body.template_hash_id));
        if (!found) return invalidArgs(`no template with hash_id ${String(body.template_hash_id)}`);
        found.count_created++;
        template = found.fields;
    }

    // Precedence with a template (contract §4.7): request scalars win; env merged with the
    // template's flag string read as a dictionary; extra_filters merged by key; never the
    // template's volume_info.
    const templateImage = template.image ? `${template.image}${template.tag ? `:${template.tag}` : ""}` : undefined;
    const image = (body.image as string | undefined) ?? templateImage;
    if (!image) return invalidArgs("image is required (in the request or its template)");
    const effective: EmuInstance["effective"] = {
        image,
        env: { ...envFlagsToDict(template.env as string | undefined), ...((body.env as Record<string, string>) ?? {}) },
        onstart: (body.onstart as string | undefined) ?? (template.onstart as string | undefined),
        runtype: (body.runtype as string | undefined) ?? (template.runtype as string | undefined),
        args_str: (body.args_str as string | undefined) ?? (template.args_str as string | undefined),
        disk: (body.disk as number | undefined) ?? (template.recommended_disk_space as number | undefined) ?? 8,
        extra_filters: { ...((template.extra_filters as object) ?? {}), ...((body.extra_filters as object) ?? {}) },
        volume_info: body.volume_info,
        template_hash_id: body.template_hash_id as string | undefined,
    };

    const model = ctx.emu.model;
    const instance: EmuInstance = {
        id: model.newInstanceId(),
        ownerId: ctx.caller.user.id,
        offerId,
        machineId: offer.machineId,
        createdAt: ctx.now,
        destroyed: false,
        label: typeof body.label === "string" ? body.label : null,
        request: structuredClone(body),
        effective,
        script: offer.upcoming.shift() ?? offer.script,
        isBid: typeof body.price === "number",
        dphTotal: typeof body.price === "number" ? body.price : offer.dphTotal,
        hardware: { gpu_name: offer.listing.gpu_name, num_gpus: offer.listing.num_gpus, geolocation: offer.listing.geolocation },
        sshPort: 20000 + (offerId % 10000),
        ...(linked.volumes ? { volumes: linked.volumes } : {}),
    };
    // Created stopped when asked (`target_state`): it never runs until a start.
    if (body.target_state === "stopped") instance.stateChange = { to: "stopped", at: ctx.now, from: null };
    offer.freeAt = Infinity;
    model.instances.set(instance.id, instance);
    // The live response's `success` is "true if the container started running, false if it started
    // in stopped state" (the service's API reference): the instance exists either way.
    const startsStopped = instance.script.status === "stopped" || body.target_state === "stopped";
    return ok({ success: !startsStopped, new_contract: instance.id, instance_api_key: newSecret("instkey") });
}

/**
 * `volume_info` as contract §2.3 states it: `create_new` boolean, `volume_id` integer (the existing
 * volume, or the volume offer for a new one), `mount_path` string, `size` GB (used for a new one).
 * Before, anything was taken and stored, so a client that sent the wrong names or types (camelCase,
 * a string id) attached nothing live and passed here.
 */
function volumeInfoProblem(v: unknown): string | undefined {
    if (!isObject(v)) return "volume_info must be an object {create_new, volume_id, size, mount_path}";
    if (typeof v.create_new !== "boolean") return "volume_info.create_new must be true or false";
    if (typeof v.volume_id !== "number" || !Number.isInteger(v.volume_id)) return "volume_info.volume_id must be an integer";
    if (typeof v.mount_path !== "string" || v.mount_path === "") return "volume_info.mount_path must be a path";
    if (v.size !== undefined && v.size !== null && (typeof v.size !== "number" || !(v.size > 0))) return "volume_info.size must be a number of GB";
    return undefined;
}

/**
 * The volumes an instance create links (`volume_info` with `create_new: false`), or its refusal. A
 * local volume is linked only on its own machine; a network volume on any (which machines reach a
 * cluster is not modelled). A `volume_id` the emulator never issued as a volume is taken as before
 * volumes were modelled, and links nothing. `create_new: true` links nothing here either: the
 * `volume_info` is kept with the instance and no volume is made.
 */
export function volumesToLink(
    ctx: HandlerContext,
    volumeInfo: unknown,
    machineId: number,
): { volumes?: Array<{ id: number; mount_path: string }> } | { refused: EmuResponse } {
    if (!isObject(volumeInfo) || volumeInfo.create_new !== false) return {};
    const id = volumeInfo.volume_id as number;
    const volume = ctx.emu.model.volumes.get(id);
    if (!volume) return {};
    if (volume.deleted || volume.ownerId !== ctx.caller.user.id) return { refused: invalidArgs(`volume_info.volume_id: no volume ${id} on the account`) };
    if (!volume.network && volume.machineId !== machineId) {
        return {
            refused: invalidArgs(`volume_info.volume_id: volume ${id} is a local volume on machine ${volume.machineId}; this offer is on machine ${machineId}`),
        };
    }
    return { volumes: [{ id, mount_path: volumeInfo.mount_path as string }] };
}

function noSuchAsk(offerId: number): EmuResponse {
    return fail(404, "invalid_args", `error 404/3603: no_such_ask  Instance type by id ${offerId} is not available.`);
}

function checkCreateBody(body: Record<string, unknown>): string | undefined {
    const str = (name: string) => (body[name] === undefined ? "" : String(body[name]));
    for (const name of ["image", "onstart", "label", "args_str", "runtype", "template_hash_id", "image_login", "jupyter_dir", "extra", "user"]) {
        if (body[name] !== undefined && typeof body[name] !== "string") return `${name} must be a string`;
    }
    // Switches the vendor clients always send, false unless asked.
    for (const name of ["python_utf8", "lang_utf8", "use_jupyter_lab", "force", "cancel_unavail"]) {
        if (body[name] !== undefined && typeof body[name] !== "boolean") return `${name} must be true or false`;
    }
    if (body.args !== undefined && !(Array.isArray(body.args) && body.args.every((a) => typeof a === "string"))) return "args must be a list of strings";
    if (body.runtype === "jupyter") return BARE_JUPYTER;
    if (body.runtype !== undefined && !WIRE_RUNTYPES.includes(body.runtype as string)) {
        return `runtype must be one of ${WIRE_RUNTYPES.map((r) => JSON.stringify(r)).join(", ")}`;
    }
    if (body.env !== undefined) {
        if (!isObject(body.env)) return "env must be an object of strings";
        let total = 0;
        for (const [k, v] of Object.entries(body.env)) {
            if (typeof v !== "string") return `env.${k} must be a string`;
            if (v.length > LIMITS.envValue) return `env.${k} is longer than ${LIMITS.envValue} characters`;
            total += k.length + v.length;
        }
        if (total > LIMITS.envTotal) return `env is longer than ${LIMITS.envTotal} characters`;
    }
    if (body.volume_info !== undefined) {
        const problem = volumeInfoProblem(body.volume_info);
        if (problem) return problem;
    }
    const filtersProblem = extraFiltersProblem(body.extra_filters);
    if (filtersProblem) return filtersProblem;
    if (str("image").length > LIMITS.image) return `image is longer than ${LIMITS.image} characters`;
    if (str("label").length > LIMITS.label) return `label is longer than ${LIMITS.label} characters`;
    if (str("onstart").length > LIMITS.onstart) return `onstart is longer than ${LIMITS.onstart} characters`;
    const args = body.args === undefined ? "" : (body.args as string[]).join(" ");
    if (args.length + str("args_str").length + str("onstart").length > LIMITS.commandTotal) {
        return `args + args_str + onstart is longer than ${LIMITS.commandTotal} characters`;
    }
    // The live minimum (docs/live-service.md): 8 GB. `null`, as the vendor CLI sends an unset field, is "not set".
    if (body.disk != null && (typeof body.disk !== "number" || body.disk < 8)) return "disk must be a number of GB, at least 8";
    // The service's API reference: a bid of 0.001 to 128 $/hour in a create.
    if (body.price !== undefined && (typeof body.price !== "number" || body.price < 0.001 || body.price > 128)) return "price must be a bid of 0.001 to 128 $/hour";
    if (body.target_state !== undefined && body.target_state !== "running" && body.target_state !== "stopped") return 'target_state must be "running" or "stopped"';
    // The vendor CLI sends runtype only without a template (docs/live-service.md).
    if (body.runtype !== undefined && body.template_hash_id !== undefined) {
        return "runtype cannot be combined with template_hash_id: the template's runtype applies";
    }
    return undefined;
}

/** An instance as `GET /instances/{id}/` shows it. */
/** An instance as the service shows it; `workerFieldsShown`: see EmulatorOptions. */
export function instanceView(instance: EmuInstance, now: number, timings: InstanceTimings, workerFieldsShown = true): Record<string, unknown> {
    const status = statusAt(instance, now, timings);
    const running = status === "running";
    const ports: Record<string, Array<{ HostIp: string; HostPort: string }>> = {
        "22/tcp": [{ HostIp: "0.0.0.0", HostPort: String(instance.sshPort) }],
    };
    for (const key of Object.keys(instance.effective.env)) {
        const mapping = /^-p (\d+):(\d+)(\/(tcp|udp))?$/.exec(key);
        if (mapping) ports[`${mapping[2]}/${mapping[4] ?? "tcp"}`] = [{ HostIp: "0.0.0.0", HostPort: String(30000 + Number(mapping[1]) % 30000) }];
    }
    // While loading on the way up, the image pull; once the script's end is reached, its message
    // (an offer scripted to stay `loading` may report an error there).
    const ended = now - instance.createdAt >= timings.runningAfterMs || instance.stateChange !== undefined;
    const loadingMsg = status === "created" ? "Container created" : "Pulling image layers";
    // A start that ended where the script ends reports the script's message, as the create would have.
    const scriptedEnd = !instance.stateChange || (instance.stateChange.to === "running" && status === instance.script.status && status !== "running");
    const finalMsg = !scriptedEnd ? `${status}` : instance.script.statusMsg ?? (status === "loading" || status === "created" ? loadingMsg : `${status}`);
    return {
        id: instance.id,
        machine_id: instance.machineId,
        actual_status: status,
        intended_status: instance.stateChange?.intendedShown ?? intendedStatus(instance),
        // The machine contract: a frozen instance keeps its GPUs (the service docs: "GPU charges apply").
        cur_state: running || status === "frozen" ? "running" : status === null || status === "created" ? "created" : "stopped",
        status_msg: status === null ? null : ended ? finalMsg : loadingMsg,
        label: instance.label,
        template_hash_id: instance.effective.template_hash_id ?? null,
        image_uuid: instance.effective.image,
        ssh_host: "ssh5.vast.ai",
        ssh_port: running ? instance.sshPort : null,
        // The live service has been seen to pad this field.
        public_ipaddr: running ? " 203.0.113.10\n" : null,
        ports: running ? ports : {},
        dph_total: instance.dphTotal,
        is_bid: instance.isBid,
        ...instance.hardware,
        extra_env: Object.entries(instance.effective.env).filter(([k]) => !k.startsWith("-")),
        disk_space: instance.effective.disk,
        start_date: instance.createdAt / 1000,
        onstart: instance.effective.onstart ?? null,
        // Only for an instance that linked an existing volume: what other instances show is not modelled.
        ...(instance.volumes ? { volume_info: instance.volumes.map((v) => ({ ...v })) } : {}),
        // A serverless worker names its endpoint and group, as the service's charges name a contract's (docs `show_charges.yaml`).
        ...(instance.worker && workerFieldsShown ? { endpoint_id: instance.worker.endpointId, workergroup_id: instance.worker.workergroupId } : {}),
    };
}

export function ownLive(ctx: HandlerContext): EmuInstance | undefined {
    const instance = ctx.emu.model.instances.get(Number(ctx.params[0]));
    return instance && !instance.destroyed && instance.ownerId === ctx.caller.user.id ? instance : undefined;
}

export function showInstance(ctx: HandlerContext): EmuResponse {
    const instance = ownLive(ctx);
    if (!instance) return ok({ instances: ctx.emu.options.goneInstanceShape === "empty" ? {} : null });
    return ok({ instances: instanceView(instance, ctx.now, ctx.emu.options.instanceTimings, ctx.emu.options.workerFieldsShown) });
}

export function labelInstance(ctx: HandlerContext): EmuResponse {
    const instance = ownLive(ctx);
    if (!instance) return fail(404, "no_such_instance", `instance ${ctx.params[0]} not found`);
    const label = isObject(ctx.body) ? ctx.body.label : undefined;
    if (typeof label !== "string") return invalidArgs("label must be a string");
    if (label.length > LIMITS.labelEdit) return invalidArgs(`label is longer than ${LIMITS.labelEdit} characters`);
    instance.label = label;
    return ok({ success: true });
}

export function destroyInstance(ctx: HandlerContext): EmuResponse {
    const instance = ownLive(ctx);
    if (!instance) return fail(404, "no_such_instance", `instance ${ctx.params[0]} not found`);
    instance.destroyed = true;
    // The offer is free again, but not at once: the marketplace takes a moment to list it, and a
    // replacement or a retry after a failed start that takes it sooner is refused as for a taken one.
    const offer = ctx.emu.model.offers.get(instance.offerId);
    if (offer) offer.freeAt = ctx.now + ctx.emu.options.offerReturnAfterMs;
    return ok({ success: true, msg: `destroying instance ${instance.id}` });
}

export function listInstancesV0(): EmuResponse {
    return fail(410, "deprecated_endpoint", "This endpoint is deprecated; use /api/v1/instances/");
}

/** `GET /api/v1/instances/`: filtered on id, label, actual_status; 25 a page, in id order. */
export function listInstances(ctx: HandlerContext): EmuResponse {
    const parsed = filtersFromQuery(ctx.query, LIST_FILTER_FIELDS);
    if ("problem" in parsed) return invalidArgs(parsed.problem);
    const { filters } = parsed;
    const limit = Math.min(PAGE_SIZE, Math.max(1, Number(ctx.query.get("limit") ?? PAGE_SIZE) || PAGE_SIZE));
    const token = ctx.query.get("after_token");
    const afterId = token ? Number(Buffer.from(token, "base64url").toString()) : 0;
    if (Number.isNaN(afterId)) return invalidArgs("after_token is not valid");

    const timings = ctx.emu.options.instanceTimings;
    const matching = [...ctx.emu.model.instances.values()]
        .filter((i) => !i.destroyed && i.ownerId === ctx.caller.user.id && i.id > afterId)
        .sort((a, b) => a.id - b.id)
        .map((i) => instanceView(i, ctx.now, timings, ctx.emu.options.workerFieldsShown))
        .filter((view) => matchesFilters(view, filters));
    const page = matching.slice(0, limit);
    const more = matching.length > limit;
    const next = more ? Buffer.from(String(page[page.length - 1].id)).toString("base64url") : null;
    return ok({ success: true, instances: page, next_token: next });
}
