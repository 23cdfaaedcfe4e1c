/**
 * A WorkerGroup create, its steps in order: find what a stopped `up` made, send the create, and
 * after a lost response find the group by the key in its `launch_args` instead of sending again
 * (docs/design/instance-create.md, "Lost responses"; docs/design/service-record.md).
 */
import { VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { ProviderContext } from "../../dynamic/context";
import { ProviderError } from "../../errors/providerError";
import { WorkerGroupRecord } from "../../schemas/serverless";
import { findLostCreate } from "../lostCreate";
import { WorkerGroupInputs, WorkerGroupOutputs } from "./workerGroupArgs";
import { outputsOf, workersNow } from "./workerGroupRecords";
import { WORKER_GROUP_KEY_ENV, createKeyOf, keyOfRecord, sameCreate, settingsOf } from "./workerGroupWire";

export async function createWorkerGroup(ctx: ProviderContext, inputs: WorkerGroupInputs): Promise<{ id: string; outs: WorkerGroupOutputs }> {
    const vast = ctx.client();
    const key = createKeyOf(inputs);
    const what = `worker group on endpoint ${inputs.endpointId}`;
    const interrupted = key === undefined ? undefined : await madeBy(vast, key);
    if (interrupted) {
        ctx.log.warn(`worker group ${interrupted.id} was made for this resource by a \`pulumi up\` that stopped before its create returned (found by ${WORKER_GROUP_KEY_ENV} in its launch_args): taken over instead of creating another`);
        return takeOver(ctx, vast, interrupted, inputs);
    }
    let workerGroupId: number;
    try {
        workerGroupId = await vast.serverless.createWorkerGroup(settingsOf(inputs));
    } catch (e) {
        if (!(e instanceof VastOutcomeUnknownError) || key === undefined) throw e; // refused: nothing made (or no key to look by)
        ctx.log.warn(`the answer to create ${what} was lost; looking for it by its key before trying again`);
        const found = await findLostCreate(ctx, {
            what,
            lookFor: `a worker group on endpoint ${inputs.endpointId} whose launch_args carry ${WORKER_GROUP_KEY_ENV}=${key}`,
            look: () => madeBy(vast, key),
        });
        if (!found) throw new ProviderError("lost_create_not_made", `vastai: create ${what} failed: its answer was lost, and no such group was made; run \`pulumi up\` again`, { cause: e });
        workerGroupId = found.id;
    }
    ctx.log.progress(`worker group ${workerGroupId} created on endpoint ${inputs.endpointId}`);
    return { id: String(workerGroupId), outs: outputsOf(inputs, workerGroupId, await workersNow(vast, workerGroupId, key)) };
}

/** The newest group on the account that a create with `key` made. */
async function madeBy(vast: VastClient, key: string): Promise<WorkerGroupRecord | undefined> {
    const groups = await vast.serverless.listWorkerGroups();
    return groups.filter((g) => sameCreate(keyOfRecord(g), key)).sort((a, b) => b.id - a.id)[0];
}

/** A group a stopped `up` made, made as the program says now (one update, the settings it was made with may be older), and taken into state. */
async function takeOver(ctx: ProviderContext, vast: VastClient, record: WorkerGroupRecord, inputs: WorkerGroupInputs): Promise<{ id: string; outs: WorkerGroupOutputs }> {
    const found = keyOfRecord(record);
    // The key it carries stays its key: a later replacement's create must not take it.
    const generation = Number(found?.split(".")[1] ?? inputs.createGeneration ?? 0);
    const held = { ...inputs, createGeneration: generation };
    await vast.serverless.updateWorkerGroup(record.id, settingsOf(held));
    return { id: String(record.id), outs: outputsOf(held, record.id, await workersNow(vast, record.id, found)) };
}
