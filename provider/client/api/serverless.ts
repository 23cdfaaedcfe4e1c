import {
    EndpointRecord,
    EndpointSettings,
    WorkerGroupRecord,
    WorkerGroupSettings,
    endpointCreateRequestSchema,
    endpointCreateResponseSchema,
    endpointListResponseSchema,
    endpointShowResponseSchema,
    endpointUpdateRequestSchema,
    serverlessDeleteResponseSchema,
    workerGroupCreateRequestSchema,
    workerGroupCreateResponseSchema,
    workerGroupListResponseSchema,
    workerGroupUpdateRequestSchema,
} from "../../schemas/serverless";
import { successResponseSchema } from "../../schemas/success";
import { ENDPOINTS } from "../endpoints";
import { VastInvalidArgsError, VastRequestRejectedError } from "../errors";
import { Transport } from "../transport";
import { checkRequest } from "./checkRequest";
import { removal } from "./removal";

/** The engine deployment the vendor's clients name on every create and update (a hidden flag of the CLI). */
const AUTOSCALER_INSTANCE = "prod";

/**
 * An account with no endpoints: the live service answers its listing 400 "No endpoints for user
 * {id} found." (docs/live-service.md); read as an empty list whether it comes as that 400 or as a
 * 200 with `success: false`.
 */
function noEndpoints(e: unknown): boolean {
    return (e instanceof VastInvalidArgsError || e instanceof VastRequestRejectedError) && /^no endpoints for user \d+ found\.?$/i.test(e.serviceMessage?.trim() ?? "");
}

/** Serverless endpoints and their worker groups (docs/live-service.md "Serverless: endpoints and worker groups"). */
export class ServerlessApi {
    constructor(private readonly transport: Transport) {}

    /** Creates an endpoint; its id. Not idempotent: a lost answer is looked up by name (the account holds a name once). */
    async createEndpoint(settings: EndpointSettings): Promise<number> {
        const endpoint = ENDPOINTS.createEndpoint;
        const body = checkRequest(endpoint, endpointCreateRequestSchema, { client_id: "me", ...settings, autoscaler_instance: AUTOSCALER_INSTANCE });
        return this.transport.call(endpoint, { body, target: JSON.stringify(settings.endpoint_name) }, endpointCreateResponseSchema);
    }

    async listEndpoints(): Promise<EndpointRecord[]> {
        try {
            return await this.transport.call(ENDPOINTS.listEndpoints, {}, endpointListResponseSchema);
        } catch (e) {
            if (noEndpoints(e)) return [];
            throw e;
        }
    }

    /** One endpoint, or undefined when the service says it is gone. */
    async showEndpoint(endpointId: number): Promise<EndpointRecord | undefined> {
        let record: EndpointRecord | undefined;
        const found = await removal(async () => {
            record = await this.transport.call(ENDPOINTS.showEndpoint, { params: { id: endpointId }, target: String(endpointId) }, endpointShowResponseSchema);
        });
        return found.alreadyGone ? undefined : record;
    }

    async updateEndpoint(endpointId: number, settings: EndpointSettings): Promise<void> {
        const endpoint = ENDPOINTS.updateEndpoint;
        const body = checkRequest(endpoint, endpointUpdateRequestSchema, { client_id: "me", endptjob_id: endpointId, ...settings, autoscaler_instance: AUTOSCALER_INSTANCE });
        await this.transport.call(endpoint, { params: { id: endpointId }, body, target: String(endpointId) }, successResponseSchema);
    }

    /** Deletes an endpoint; one already gone is reported. Its workers may outlive it: the caller destroys them. */
    async deleteEndpoint(endpointId: number): Promise<{ alreadyGone: boolean }> {
        return removal(() =>
            this.transport.call(ENDPOINTS.deleteEndpoint, { params: { id: endpointId }, body: { client_id: "me", endptjob_id: endpointId }, target: String(endpointId) }, serverlessDeleteResponseSchema),
        );
    }

    /** Creates a worker group; its id. Not idempotent: a lost answer is looked up by the marker in its launch arguments. */
    async createWorkerGroup(settings: WorkerGroupSettings): Promise<number> {
        const endpoint = ENDPOINTS.createWorkerGroup;
        const body = checkRequest(endpoint, workerGroupCreateRequestSchema, { client_id: "me", ...settings, autoscaler_instance: AUTOSCALER_INSTANCE });
        return this.transport.call(endpoint, { body, target: `on endpoint ${settings.endpoint_id}` }, workerGroupCreateResponseSchema);
    }

    async listWorkerGroups(): Promise<WorkerGroupRecord[]> {
        return this.transport.call(ENDPOINTS.listWorkerGroups, {}, workerGroupListResponseSchema);
    }

    async updateWorkerGroup(groupId: number, settings: WorkerGroupSettings): Promise<void> {
        const endpoint = ENDPOINTS.updateWorkerGroup;
        const body = checkRequest(endpoint, workerGroupUpdateRequestSchema, { client_id: "me", autojob_id: groupId, ...settings });
        await this.transport.call(endpoint, { params: { id: groupId }, body, target: String(groupId) }, successResponseSchema);
    }

    /** Deletes a worker group; one already gone is reported. Its workers outlive it (the vendor CLI warns so): the caller destroys them. */
    async deleteWorkerGroup(groupId: number): Promise<{ alreadyGone: boolean }> {
        return removal(() =>
            this.transport.call(ENDPOINTS.deleteWorkerGroup, { params: { id: groupId }, body: { client_id: "me", autojob_id: groupId }, target: String(groupId) }, serverlessDeleteResponseSchema),
        );
    }
}
