/**
 * A WorkerGroup delete: the group deleted (one already gone is fine; a success is believed once the
 * listing leaves it out), then its workers destroyed until the account lists none, since the
 * service may keep a deleted group's workers running and billed (docs/live-service.md "Deletes,
 * states and the workers"). Workers that keep failing to go fail the delete with `workers_remain`,
 * naming them: the resource stays in state and the next destroy goes on from there.
 */
import { ProviderContext } from "../../dynamic/context";
import { confirmedDelete } from "../confirmedDelete";
import { destroyWorkers } from "../serverless/workers";
import { WorkerGroupOutputs } from "./workerGroupArgs";
import { createKeyInputs, listedUnlessRemoved, workersOfGroup } from "./workerGroupRecords";
import { createKeyOf } from "./workerGroupWire";

/** How long a group the service answered deleted may stay listed (live ms): while it is, its engine may rent. */
const DELETE_LISTED_WAIT_MS = 30_000;

export async function deleteWorkerGroup(ctx: ProviderContext, id: string, props: Partial<WorkerGroupOutputs>): Promise<void> {
    const workerGroupId = Number(props.workerGroupId ?? id);
    const vast = ctx.client();
    const { alreadyGone } = await confirmedDelete(
        ctx,
        { operation: "delete worker group", target: String(workerGroupId) },
        () => vast.serverless.deleteWorkerGroup(workerGroupId),
        async () => (await listedUnlessRemoved(ctx, workerGroupId)) !== undefined,
        { successConfirmedWithinMs: DELETE_LISTED_WAIT_MS },
    );
    ctx.log.progress(alreadyGone ? `worker group ${workerGroupId} was already gone` : `worker group ${workerGroupId} deleted`);
    // State's create key is the one its workers carry (an update or a take-over keeps it).
    await destroyWorkers(ctx, vast, workersOfGroup(workerGroupId, createKeyOf(createKeyInputs(props as Record<string, unknown>))));
}
