import { ApiKeyCreateRequest, ApiKeyRecord, apiKeyCreateRequestSchema, apiKeyDeleteResponseSchema, apiKeyCreateResponseSchema, apiKeyListResponseSchema } from "../../schemas/apiKey";
import { MachineRecord, machineListResponseSchema } from "../../schemas/machine";
import { CurrentUser, currentUserSchema } from "../../schemas/user";
import { ENDPOINTS } from "../endpoints";
import { Transport } from "../transport";
import { checkRequest } from "./checkRequest";
import { removal } from "./removal";

/** The account: its user record, its host machines and its API keys. */
export class AccountApi {
    constructor(private readonly transport: Transport) {}

    /** The current user. The `api_key` the service puts in this body is dropped by the schema. */
    async currentUser(): Promise<CurrentUser> {
        return this.transport.call(ENDPOINTS.currentUser, {}, currentUserSchema);
    }

    /**
     * Host machines of `userId` (docs/service-contract.md §4.1); `gpu_ram` in bytes here. Asked with
     * the contract's `user_id`, where the vendor CLI asks `owner=me`: the live service takes both.
     */
    async machines(userId: number | string): Promise<MachineRecord[]> {
        const response = await this.transport.call(
            ENDPOINTS.listMachines,
            { query: { user_id: String(userId) }, target: `of user ${userId}` },
            machineListResponseSchema,
        );
        return response.machines;
    }

    /** Creates a key; the secret is in this response only. */
    async createApiKey(request: ApiKeyCreateRequest): Promise<{ id: number; key: string }> {
        const endpoint = ENDPOINTS.createApiKey;
        const body = checkRequest(endpoint, apiKeyCreateRequestSchema, request);
        const response = await this.transport.call(endpoint, { body, target: `"${request.name}"` }, apiKeyCreateResponseSchema);
        return { id: response.id, key: response.key };
    }

    /** The account's keys, without their secrets. */
    async listApiKeys(): Promise<ApiKeyRecord[]> {
        const response = await this.transport.call(ENDPOINTS.listApiKeys, {}, apiKeyListResponseSchema);
        return response.apikeys;
    }

    /** Revokes a key; one already gone is reported, not thrown. The body `{}` is what the vendor's client sends with every DELETE. */
    async deleteApiKey(keyId: number): Promise<{ alreadyGone: boolean }> {
        return removal(() =>
            this.transport.call(ENDPOINTS.deleteApiKey, { params: { id: keyId }, body: {}, target: String(keyId) }, apiKeyDeleteResponseSchema),
        );
    }
}
