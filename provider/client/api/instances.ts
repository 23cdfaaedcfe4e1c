import {
    InstanceCreateRequest,
    InstanceListFilters,
    InstanceRecord,
    InstanceState,
    instanceBidRequestSchema,
    instanceCreateRequestSchema,
    instanceCreateResponseSchema,
    instanceLabelRequestSchema,
    instanceListFiltersSchema,
    instanceListResponseSchema,
    instanceRecordSchema,
    instanceShowResponseSchema,
    instanceStateRequestSchema,
} from "../../schemas/instance";
import { successResponseSchema } from "../../schemas/success";
import { ENDPOINTS } from "../endpoints";
import { VastNotFoundError, VastUnexpectedResponseError } from "../errors";
import { saidUnsuccessful } from "../errorClassification";
import { Transport } from "../transport";
import { describeIssues } from "../zodIssues";
import { checkRequest } from "./checkRequest";
import { removal } from "./removal";
import { safeParse } from "../../schemas/parse";

/** The v1 list answers at most this many instances a page. */
export const INSTANCE_PAGE_SIZE = 25;

export interface InstancePage {
    instances: InstanceRecord[];
    /** Pass as `afterToken` for the next page; absent on the last one. */
    nextToken?: string;
}

/** Instances: create from an offer (docs/service-contract.md §4.7) and the paths docs/live-service.md adds. */
export class InstancesApi {
    constructor(private readonly transport: Transport) {}

    /**
     * Accepts offer `offerId`. Returns the new instance id (`new_contract`), and whether the service
     * said it started stopped (its `success: false` in that response). The `instance_api_key`
     * the service may add to the response is dropped here: it is a credential. The body has the vendor
     * clients' field names; a field they would send as null is left out, which the service reads
     * the same ("not set").
     */
    async create(offerId: number, request: InstanceCreateRequest): Promise<{ instanceId: number; startedStopped: boolean }> {
        const endpoint = ENDPOINTS.createInstance;
        const body = checkRequest(endpoint, instanceCreateRequestSchema, request);
        const response = await this.transport.call(
            endpoint,
            { params: { offerId }, body: { client_id: "me", ...body }, target: `on offer ${offerId}` },
            instanceCreateResponseSchema,
        );
        // `success: false` beside a `new_contract`: made, but stopped (the machine cannot run it now).
        return { instanceId: response.new_contract, startedStopped: response.success === false };
    }

    /**
     * The instance, or undefined when it is gone in the service's own words: `instances: null`,
     * `instances: {}`, or a `not_found` / `no_such_*` error that names an instance. Any other 404
     * (a web server's page, `{"detail": "Not Found"}`, an `auth_error`) throws, as does one naming
     * something else (`no_such_ask`).
     */
    async show(instanceId: number): Promise<InstanceRecord | undefined> {
        const endpoint = ENDPOINTS.showInstance;
        const target = String(instanceId);
        let response;
        try {
            response = await this.transport.call(
                endpoint,
                { params: { id: instanceId }, query: { owner: "me" }, target },
                instanceShowResponseSchema,
            );
        } catch (e) {
            if (e instanceof VastNotFoundError) return undefined;
            throw e;
        }
        const found = response.instances;
        if (!found || found.id === undefined || found.id === null) return undefined;
        const parsed = safeParse(instanceRecordSchema, found);
        if (!parsed.success) {
            const problems = describeIssues(parsed.error, "instances", ["instances"]);
            throw new VastUnexpectedResponseError({ operation: endpoint.operation, target }, `unexpected answer: ${problems}`);
        }
        // Another instance's record says nothing about this one: taken as it, state would follow the wrong instance.
        if (parsed.data.id !== instanceId) {
            throw new VastUnexpectedResponseError(
                { operation: endpoint.operation, target },
                `unexpected answer: asked for instance ${instanceId}, the service answered with instance ${parsed.data.id}`,
            );
        }
        return parsed.data;
    }

    /** Destroys the instance; one already gone is reported, not thrown. */
    async destroy(instanceId: number): Promise<{ alreadyGone: boolean }> {
        return removal(() =>
            this.transport.call(
                ENDPOINTS.destroyInstance,
                { params: { id: instanceId }, body: {}, target: String(instanceId) },
                successResponseSchema,
            ),
        );
    }

    async label(instanceId: number, label: string): Promise<void> {
        const endpoint = ENDPOINTS.labelInstance;
        const body = checkRequest(endpoint, instanceLabelRequestSchema, { label });
        await this.transport.call(endpoint, { params: { id: instanceId }, body, target: String(instanceId) }, successResponseSchema);
    }

    /** Starts (`running`) or stops (`stopped`) the instance; the service gets there on its own time. */
    async changeState(instanceId: number, state: InstanceState): Promise<{ queued: boolean }> {
        const endpoint = ENDPOINTS.changeInstanceState;
        const body = checkRequest(endpoint, instanceStateRequestSchema, { state });
        try {
            await this.transport.call(endpoint, { params: { id: instanceId }, body, target: String(instanceId) }, successResponseSchema);
            return { queued: false };
        } catch (e) {
            // "Required resources are currently unavailable, state change queued." (the service's API
            // reference): the start was taken, and runs once the machine has room. Not a refusal: the
            // instance is now meant to run, and may start at any time.
            const queued = state === "running" && saidUnsuccessful(e) && e.serviceCode === "resources_unavailable";
            if (queued) return { queued: true };
            throw e;
        }
    }

    /** A new bid ($/hour) for an interruptible instance; the service refuses it for one on demand. */
    async changeBid(instanceId: number, price: number): Promise<void> {
        const endpoint = ENDPOINTS.changeBid;
        const body = checkRequest(endpoint, instanceBidRequestSchema, { client_id: "me", price });
        await this.transport.call(endpoint, { params: { id: instanceId }, body, target: String(instanceId) }, successResponseSchema);
    }

    /** One page of the v1 list, filtered on `id`, `label` or `actual_status`. */
    async list(
        options: { filters?: InstanceListFilters; afterToken?: string; limit?: number } = {},
    ): Promise<InstancePage> {
        const endpoint = ENDPOINTS.listInstances;
        const filters = checkRequest(endpoint, instanceListFiltersSchema, options.filters ?? {}, "filters");
        const response = await this.transport.call(
            endpoint,
            {
                query: {
                    select_filters: JSON.stringify(filters),
                    limit: options.limit ?? INSTANCE_PAGE_SIZE,
                    after_token: options.afterToken,
                },
            },
            instanceListResponseSchema,
        );
        return { instances: response.instances, nextToken: response.next_token ?? undefined };
    }

    /** Every instance matching `filters`, following `next_token` through all pages. */
    async listAll(filters: InstanceListFilters = {}): Promise<InstanceRecord[]> {
        const all: InstanceRecord[] = [];
        let afterToken: string | undefined;
        do {
            const page = await this.list({ filters, afterToken });
            all.push(...page.instances);
            afterToken = page.nextToken;
        } while (afterToken);
        return all;
    }
}
