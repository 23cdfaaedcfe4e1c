/** Start, stop and bid changes of an instance (docs/live-service.md "start / stop", "change a bid"); the status clock is in ../instanceStatus.ts. */
import { EmuResponse, fail, invalidArgs, ok } from "../response";
import { HandlerContext, isObject } from "./context";
import { intendedStatus, statusAt } from "../instanceStatus";
import { labelInstance, ownLive } from "./instances";

/** `PUT /instances/{id}/`: a body with `state` starts or stops the instance, any other is a label edit. */
export function putInstance(ctx: HandlerContext): EmuResponse {
    if (!isObject(ctx.body) || !("state" in ctx.body)) return labelInstance(ctx);
    const instance = ownLive(ctx);
    if (!instance) return fail(404, "no_such_instance", `instance ${ctx.params[0]} not found`);
    const state = ctx.body.state;
    if (state !== "running" && state !== "stopped") return invalidArgs('state must be "running" or "stopped"');
    if (state === "running" && instance.script.status === "stopped") {
        // Its machine has no room (an offer scripted `stopped`): the service queues the start, and
        // says so with success false (its API reference); the instance runs once there is room.
        if (intendedStatus(instance) !== "running") instance.stateChange = { to: "running", at: ctx.now, from: statusAt(instance, ctx.now, ctx.emu.options.instanceTimings) };
        return ok({ success: false, error: "resources_unavailable", msg: "Required resources are currently unavailable, state change queued." });
    }
    // Asking for what is already asked changes nothing: a repeated start or stop is harmless.
    if (intendedStatus(instance) !== state) {
        const timings = ctx.emu.options.instanceTimings;
        instance.stateChange = { to: state, at: ctx.now, from: statusAt(instance, ctx.now, timings) };
    }
    return ok({ success: true, msg: `${state === "running" ? "starting" : "stopping"} instance ${instance.id}` });
}

/** `PUT /instances/bid_price/{id}/ {client_id, price}`: a new bid for an interruptible instance. */
export function changeBid(ctx: HandlerContext): EmuResponse {
    const instance = ownLive(ctx);
    if (!instance) return fail(404, "no_such_instance", `instance ${ctx.params[0]} not found`);
    const price = isObject(ctx.body) ? ctx.body.price : undefined;
    // The service's API reference: 0.001 to 32 $/hour in a bid change.
    if (typeof price !== "number" || !(price >= 0.001)) return invalidArgs("Please set a bid price >= 0.001.");
    if (price > 32) return invalidArgs("price must be at most 32 $/hour");
    if (!instance.isBid) return invalidArgs(`instance ${instance.id} is on demand: only an interruptible (bid) instance takes a bid price`);
    instance.dphTotal = price;
    return ok({ success: true, msg: `bid of instance ${instance.id} set to ${price}` });
}
