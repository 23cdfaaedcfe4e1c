/** A worker group as the account lists it, and as a resource's outputs record it. */
import { pickInputs } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { VastClient } from "../../client/vastClient";
import { WorkerGroupRecord } from "../../schemas/serverless";
import { InstanceRecord } from "../../schemas/instance";
import { retryIfMissing } from "../retryIfMissing";
import { WorkersOf, workersOf } from "../serverless/workers";
import { CreateKeyInputs, WORKER_GROUP_PROPERTIES, Worker, WorkerGroupInputs, WorkerGroupOutputs } from "./workerGroupArgs";
import { WORKER_GROUP_KEY_ENV, launchOf } from "./workerGroupWire";

/** The create-key inputs of a property bag, as they are. */
export function createKeyInputs(props: Record<string, unknown>): CreateKeyInputs {
    const kept: CreateKeyInputs = {};
    if (typeof props.createSlot === "string") kept.createSlot = props.createSlot;
    if (typeof props.createGeneration === "number") kept.createGeneration = props.createGeneration;
    return kept;
}

/** The inputs among a resource's state or arguments. */
export const inputsOf = (props: object) =>
    ({ ...pickInputs(props as Record<string, any>, WORKER_GROUP_PROPERTIES), ...createKeyInputs(props as Record<string, unknown>) }) as unknown as WorkerGroupInputs;

/** One worker as the outputs show it; plain JSON, nothing undefined. */
function workerOf(record: InstanceRecord): Worker {
    const worker: Worker = { instanceId: record.id };
    if (record.actual_status != null) worker.status = record.actual_status;
    if (record.dph_total != null) worker.pricePerHour = record.dph_total;
    return worker;
}

/** Whose workers a group's are: its id, and the create key its launch arguments give each worker's env. */
export function workersOfGroup(workerGroupId: number, key: string | undefined): WorkersOf {
    return { workergroupId: workerGroupId, key: key === undefined ? undefined : { env: WORKER_GROUP_KEY_ENV, value: key } };
}

/** The group's workers now, in id order. */
export async function workersNow(vast: VastClient, workerGroupId: number, key: string | undefined): Promise<Worker[]> {
    return (await workersOf(vast, workersOfGroup(workerGroupId, key))).sort((a, b) => a.id - b.id).map(workerOf);
}

export function outputsOf(inputs: WorkerGroupInputs, workerGroupId: number, workers: Worker[]): WorkerGroupOutputs {
    return { ...inputs, workerGroupId, workers };
}

/**
 * The inputs a listed group stands for: what the listing shows back (template, launch, GPU memory,
 * worker counts, endpoint) over what state holds; the search (listed parsed, in other units) and
 * `max_workers` (not listed) as state holds them.
 */
export function inputsFromRecord(record: WorkerGroupRecord, held: Partial<WorkerGroupInputs>): WorkerGroupInputs {
    const read: Record<string, unknown> = { ...held };
    if (record.endpoint_id != null) read.endpointId = record.endpoint_id;
    if (record.template_hash != null) read.templateHashId = record.template_hash;
    if (record.gpu_ram != null) read.gpuRamGb = record.gpu_ram;
    if (record.test_workers != null) read.testWorkers = record.test_workers;
    read.coldWorkers = record.cold_workers ?? undefined;
    read.launch = launchOf(record.launch_args).launch;
    return inputsOf(read);
}

/** The group as the account lists it, or undefined only when three listings a moment apart leave it out (retryIfMissing.ts). */
export async function listedUnlessRemoved(ctx: ProviderContext, workerGroupId: number): Promise<WorkerGroupRecord | undefined> {
    const look = async () => (await ctx.client().serverless.listWorkerGroups()).find((g) => g.id === workerGroupId);
    return retryIfMissing(ctx.clock, await look(), look);
}
