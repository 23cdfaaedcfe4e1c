import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs } from "../instanceArgs";
import { describeStatus, howToRunAnew } from "./readiness";
import { sharedPoller } from "./sharedPoller";
import { StartFailureKind } from "./startFailure";
import { ProviderError } from "../../../errors/providerError";

// Waiting for an instance that exists to run (a create's, or one an earlier `up` left starting),
// and the error that keeps an instance which exists but is not ready in state.

/**
 * An instance exists (and is paid for) but did not become ready. Carries its id, so the create can
 * fail the way that makes the engine keep the instance in state rather than leak it.
 */
export class InstanceNotReadyError extends ProviderError {
    constructor(
        message: string,
        readonly instanceId: number,
        readonly record?: InstanceRecord,
        /** The label the instance has, when it is not yet the program's (none, when a long one could not be set). */
        readonly label?: string,
        /** The create was cut short with this instance not running: the machines where its instances would not run. */
        readonly failedMachineIds?: number[],
    ) {
        super("instance_not_ready", message);
    }
}

/**
 * Runs `step` on an instance that exists; any failure becomes an InstanceNotReadyError naming it
 * (and, given, what the step was doing and the instance's last record, for state).
 */
export async function onExisting<T>(
    instanceId: number,
    what: string,
    step: () => Promise<T>,
    doing?: { what: string; record: InstanceRecord; failedMachineIds?: number[] },
): Promise<T> {
    try {
        return await step();
    } catch (e) {
        if (e instanceof InstanceNotReadyError) throw e;
        const then = doing ? `${doing.what} failed` : "";
        const kept = !doing
            ? ""
            : doing.failedMachineIds
              ? ". It is kept in state: the next `pulumi up` finishes the create (destroys it and rents on another machine), `pulumi destroy` removes it"
              : ". It is kept in state: `pulumi destroy` removes it, `pulumi up` tries again";
        throw new InstanceNotReadyError(
            `vastai: ${what} was created, then${then ? ` ${then}` : ""}: ${(e as Error).message}${kept}`,
            instanceId,
            doing?.record,
            undefined,
            doing?.failedMachineIds,
        );
    }
}

export type Started =
    | { kind: "running"; record: InstanceRecord }
    | { kind: "failed"; reason: string; record: InstanceRecord; failure: StartFailureKind }
    | { kind: "gone"; reason: string };

/**
 * Waits for the instance through the shared poller. Running, failed for good, or gone are answers;
 * a deadline passed or a wait that cannot go on throw InstanceNotReadyError.
 */
export async function untilStarted(ctx: ProviderContext, vast: VastClient, instanceId: number, inputs: InstanceInputs, what: string): Promise<Started> {
    const timeoutMs = ctx.clock.scaled(inputs.readyTimeoutSeconds * 1000);
    const outcome = await onExisting(instanceId, what, () => sharedPoller(ctx, vast).waitUntilRunning(instanceId, { timeoutMs, what }));
    switch (outcome.kind) {
        case "running":
            ctx.log.progress(`${what} is running`);
            return outcome;
        case "failed":
            return { kind: "failed", reason: outcome.reason, record: outcome.record, failure: outcome.failure };
        case "gone":
            return { kind: "gone", reason: "disappeared while starting (destroyed elsewhere?)" };
        case "timedOut": {
            const last = outcome.record ? describeStatus(outcome.record) : "never reported";
            throw new InstanceNotReadyError(
                `vastai: ${what} did not reach running within ${inputs.readyTimeoutSeconds} s (last status: ${last}). ` +
                    "It is kept in state: `pulumi up` waits for it again, `pulumi destroy` removes it; " +
                    "raise readyTimeoutSeconds for images that take longer to load",
                instanceId,
                outcome.record,
            );
        }
    }
}

/**
 * Waits again for an instance an earlier `up` left starting (its create failed on the deadline).
 * One that will never run is reported, not replaced: the program decides that.
 */
export async function awaitExisting(ctx: ProviderContext, vast: VastClient, instanceId: number, inputs: InstanceInputs): Promise<InstanceRecord> {
    const what = `instance ${instanceId}${inputs.offerId !== undefined ? ` on offer ${inputs.offerId}` : ""}`;
    const started = await untilStarted(ctx, vast, instanceId, inputs, what);
    if (started.kind === "running") return started.record;
    if (started.kind === "gone") throw new ProviderError("deleted_elsewhere", `vastai: ${what} ${started.reason}; run \`pulumi refresh\``);
    throw new InstanceNotReadyError(
        `vastai: ${what} ${started.reason}; it will not reach running: remove it from the program, or ${howToRunAnew(inputs.offerId !== undefined)}`,
        instanceId,
        // What it ended as, for state: the next `up` neither waits for it nor starts it again (a
        // batch job that ended would run again), and warns that it ended, its disk still billed.
        started.record,
    );
}
