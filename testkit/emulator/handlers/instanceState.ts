import { Answer, fail, invalidArgs, ok } from "../answer";
import { EmuInstance } from "../model";
import { HandlerContext, isObject } from "./context";
import { InstanceTimings, labelInstance, ownLive, statusAt } from "./instances";

/**
 * Start, stop and bid changes of an instance (docs/live-service.md "start / stop", "change a bid").
 * A stop takes `loadingAfterMs` to show `stopped` (the status before it until then); a start shows
 * `scheduling` for as long (the machine finding room), then `loading`, then the offer's scripted
 * end (normally `running`) once `runningAfterMs` has passed since the start was asked. `intended_status` follows at once. A
 * freeze, which only the web console asks for here (the API reference documents none), shows
 * `frozen` at once; a start or a stop takes a frozen instance out of it as from any other status.
 */

/** The status once a start or stop was asked; undefined when none was (the creation script applies). */
export function statusAfterStateChange(instance: EmuInstance, now: number, timings: InstanceTimings): string | null | undefined {
    const change = instance.stateChange;
    if (!change) return undefined;
    const elapsed = now - change.at;
    if (change.to === "frozen") return "frozen";
    if (change.to === "stopped") return elapsed < timings.loadingAfterMs ? change.from : "stopped";
    // A queued start (its machine without room) waits stopped.
    if (instance.script.status === "stopped") return "stopped";
    if (elapsed < timings.loadingAfterMs) return "scheduling";
    // A start ends where the offer's script ends, as a create does: an instance scripted to exit
    // (or to go unknown, offline, or stay loading) does so again, for `exited`, `unknown` and
    // `offline` never reach `running` (contract §3). Before, any start ended `running`.
    return elapsed < timings.runningAfterMs ? "loading" : instance.script.status;
}

/** What the instance is meant to be: `running` unless a stop (or a freeze) was asked last. */
export function intendedStatus(instance: EmuInstance): string {
    return instance.stateChange?.to ?? "running";
}

/** `PUT /instances/{id}/`: a body with `state` starts or stops the instance, any other is a label edit. */
export function putInstance(ctx: HandlerContext): Answer {
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
export function changeBid(ctx: HandlerContext): Answer {
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
