/** The WorkerGroup resource a program declares (its provider is workerGroupProvider.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { slotInput } from "../resourceSlot";
import { WORKER_GROUP_COMPUTED_OUTPUTS, WorkerGroupArgs, WorkerGroupOutputs, workerGroupArgsSchema } from "./workerGroupArgs";

/**
 * A Serverless worker group: on an endpoint, what its workers run (a template), where they are
 * rented (an offer search under a per-worker price ceiling) and how many (`coldWorkers`, at most
 * `maxWorkers`). The service's engine rents and releases the workers, ordinary instances of the
 * account, listed in the `workers` output. Destroying it destroys its workers too.
 *
 *     const group = new vast.WorkerGroup("llm", {
 *         endpointId: endpoint.endpointId,
 *         templateHashId: template.hashId,
 *         offer: { filters: { gpu_ram: { gte: 24000 } }, maxPricePerHour: 0.6 },
 *         maxWorkers: 4,
 *     });
 */
export class WorkerGroup extends pulumi.dynamic.Resource {
    constructor(name: string, args: WorkerGroupArgs, opts?: pulumi.CustomResourceOptions) {
        const resource = resourceArgs(args, workerGroupArgsSchema, WORKER_GROUP_COMPUTED_OUTPUTS, opts);
        super(providerShim("workerGroup"), name, { ...resource.props, createSlot: slotInput("vastai:WorkerGroup", name, opts) }, resource.opts, TYPE_MODULE, TYPE_NAMES.workerGroup);
    }
}

/** Its outputs, one per property of `WorkerGroupOutputs` (declared there, with their docs). */
export interface WorkerGroup extends ResourceOutputs<WorkerGroupOutputs> {}
