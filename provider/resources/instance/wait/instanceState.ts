import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs } from "../instanceArgs";
import { InstanceNotReadyError, awaitExisting } from "./untilRunning";
import { describeStatus } from "./readiness";
import { ProviderError } from "../../../errors/providerError";

/**
 * Start and stop in place (`PUT /instances/{id}/ {state}`). The service answers at once and gets
 * there on its own time, so each waits until `actual_status` says so, within `readyTimeoutSeconds`.
 * A start waits as a create does (the shared poller: a start may sit in `scheduling` while the
 * machine finds room); a stop, rare and quick, is checked on with the show call.
 */

/** How often a stop is checked on, at live speed. */
const STOP_POLL_MS = 5000;

/**
 * Starts a stopped instance and waits until it runs; with `waitForRunning: false`, as a create
 * does, returns once the service took the start, with the instance as it shows then.
 */
export async function startInstance(ctx: ProviderContext, vast: VastClient, instanceId: number, inputs: InstanceInputs): Promise<InstanceRecord | undefined> {
    const { queued } = await vast.instances.changeState(instanceId, "running");
    const queuedNote = queued ? "; its machine has no room for it now, so the service queued the start" : "";
    ctx.log.progress(`instance ${instanceId}: start asked${queuedNote}${inputs.waitForRunning ? "; waiting for it to run" : ""}`);
    return inputs.waitForRunning ? awaitExisting(ctx, vast, instanceId, inputs) : vast.instances.show(instanceId);
}

/**
 * Stopped: `actual_status` says so. For an instance created stopped (`target_state`), also when it
 * is meant to be stopped and has never been started (no status yet, or `created`: its container
 * made, not run), as such an instance may show; its GPUs are not billed. Not for a stop asked of
 * one still provisioning after a running create: that one could yet start, so it must show `stopped`.
 */
export function isStopped(record: Pick<InstanceRecord, "actual_status" | "intended_status">, createdStopped = false): boolean {
    if (record.actual_status === "stopped") return true;
    return createdStopped && record.intended_status === "stopped" && (record.actual_status == null || record.actual_status === "created");
}

/** Stops the instance and waits until it shows `stopped` (see isStopped; `createdStopped` for the stop after a stopped create). */
export async function stopInstance(
    ctx: ProviderContext,
    vast: VastClient,
    instanceId: number,
    inputs: InstanceInputs,
    createdStopped = false,
): Promise<InstanceRecord> {
    const what = `instance ${instanceId}`;
    await vast.instances.changeState(instanceId, "stopped");
    ctx.log.progress(`${what}: stop asked; waiting for it to stop`);
    const deadlineAt = ctx.clock.now() + ctx.clock.scaled(inputs.readyTimeoutSeconds * 1000);
    let lastStatus: string | undefined;
    for (;;) {
        await ctx.clock.sleep(STOP_POLL_MS);
        const record = await vast.instances.show(instanceId);
        if (!record) throw new ProviderError("deleted_elsewhere", `vastai: ${what} disappeared while stopping (destroyed elsewhere?); run \`pulumi refresh\``);
        if (isStopped(record, createdStopped)) {
            ctx.log.progress(`${what} is stopped: its GPUs are no longer billed, its storage still is`);
            return record;
        }
        const status = describeStatus(record);
        if (status !== lastStatus) ctx.log.progress(`${what} is ${status}; waiting for it to stop`);
        lastStatus = status;
        if (ctx.clock.now() >= deadlineAt) {
            throw new ProviderError(
                "instance_not_ready",
                `vastai: ${what} did not stop within ${inputs.readyTimeoutSeconds} s (last status: ${status}). ` +
                    "The stop was asked; `pulumi up` asks again and waits",
            );
        }
    }
}

/** The stop of an instance created `stopped` (harmless when it never ran); a failure keeps the instance (it exists) in state. */
export async function stopAfterCreate(ctx: ProviderContext, vast: VastClient, instanceId: number, inputs: InstanceInputs, record: InstanceRecord | undefined): Promise<InstanceRecord> {
    try {
        return await stopInstance(ctx, vast, instanceId, inputs, true);
    } catch (e) {
        throw new InstanceNotReadyError(`vastai: instance ${instanceId} was created to be stopped, then: ${(e as Error).message}`, instanceId, record);
    }
}
