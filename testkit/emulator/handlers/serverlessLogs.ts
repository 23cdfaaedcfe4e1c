/** The serverless engine's logs of an endpoint or a worker group (docs/live-service.md "Logs"), on the engine's own host. */
import { EmuResponse, invalidArgs, ok } from "../response";
import { HandlerContext, isObject } from "./context";
import { ownEndpoint, ownEndpoints } from "./serverless";

/**
 * The logs as both the vendor CLI reads them (a key per level: `info0`, `info1`, `trace`,
 * `debug`) and the API reference documents them (`logs`); every level holds the same lines here.
 */
function logsAnswer(lines: string[], tail: unknown): EmuResponse {
    if (tail !== undefined && !(Number.isInteger(tail) && (tail as number) >= 1)) return invalidArgs("tail must be a whole number, at least 1");
    const text = lines.slice(-((tail as number | undefined) ?? 10000)).join("\n");
    return ok({ logs: text, info0: text, info1: text, trace: text, debug: text });
}

/** What the autoscaler answers for a group or endpoint it does not find for the key: a 200 with this text (the API reference). */
const notFoundText = (what: string, id: unknown): EmuResponse => ({
    status: 200,
    body: `authenticate_${what}_apikey: invalid api_key or ${what} ${String(id)} not found`,
    text: true,
});

/** `POST /get_endpoint_logs/ {id, api_key, tail?}` (the CLI), or `{endpoint: <name>, tail?}` (the API reference). */
export function endpointLogs(ctx: HandlerContext): EmuResponse {
    const body = isObject(ctx.body) ? ctx.body : {};
    const byName = body.id === undefined && typeof body.endpoint === "string";
    const endpoint = byName
        ? ownEndpoints(ctx.emu.model, ctx.caller.user.id).find((e) => e.settings.endpoint_name === body.endpoint)
        : ownEndpoint(ctx, body.id);
    if (!endpoint) return notFoundText("endpoint", byName ? body.endpoint : body.id);
    return logsAnswer(endpoint.log, body.tail);
}

/** `POST /get_autogroup_logs/ {id, api_key, tail?}` (the CLI), `/get_workergroup_logs/` (the API reference). */
export function workergroupLogs(ctx: HandlerContext): EmuResponse {
    const body = isObject(ctx.body) ? ctx.body : {};
    const group = ctx.emu.model.workergroups.get(Number(body.id));
    if (!group || group.deleted || group.ownerId !== ctx.caller.user.id) return notFoundText("workergroup", body.id);
    return logsAnswer(group.log, body.tail);
}
