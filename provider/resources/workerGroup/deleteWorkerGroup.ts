/**
 * A WorkerGroup delete: the group deleted (one already gone is fine), then its workers destroyed
 * until the account lists none, since the service may keep a deleted group's workers running and
 * billed (docs/live-service.md "Deletes, states and the workers"). Workers that keep failing to
 * go fail the delete with `workers_remain`, naming them: the resource stays in state and the next
 * destroy goes on from there.
 */
import { ProviderContext } from "../../dynamic/context";
import { destroyWorkers } from "../serverless/workers";
import { WorkerGroupOutputs } from "./workerGroupArgs";

export async function deleteWorkerGroup(ctx: ProviderContext, id: string, props: Partial<WorkerGroupOutputs>): Promise<void> {
    const workerGroupId = Number(props.workerGroupId ?? id);
    const vast = ctx.client();
    const { alreadyGone } = await vast.serverless.deleteWorkerGroup(workerGroupId);
    ctx.log.progress(alreadyGone ? `worker group ${workerGroupId} was already gone` : `worker group ${workerGroupId} deleted`);
    await destroyWorkers(ctx, vast, { workergroupId: workerGroupId });
}
