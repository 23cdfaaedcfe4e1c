import { SshKeyRecord, sshKeyCreateRequestSchema, sshKeyCreateResponseSchema, sshKeyListResponseSchema } from "../../schemas/sshKey";
import { ENDPOINTS } from "../endpoints";
import { Transport } from "../transport";
import { checkRequest } from "./checkRequest";
import { removal } from "./removal";
import { successResponseSchema } from "../../schemas/success";

/** The account's SSH public keys (docs/live-service.md "Offers, SSH keys, start and stop"); the service adds a new one to every current instance. */
export class SshKeysApi {
    constructor(private readonly transport: Transport) {}

    /** Registers a public key on the account. */
    async create(publicKey: string): Promise<SshKeyRecord> {
        const endpoint = ENDPOINTS.createSshKey;
        const body = checkRequest(endpoint, sshKeyCreateRequestSchema, { ssh_key: publicKey });
        const response = await this.transport.call(endpoint, { body, target: keyTarget(publicKey) }, sshKeyCreateResponseSchema);
        return response.key;
    }

    async list(): Promise<SshKeyRecord[]> {
        return this.transport.call(ENDPOINTS.listSshKeys, {}, sshKeyListResponseSchema);
    }

    /** Removes a key; one already gone is reported, not thrown. The body `{}` is what the vendor's client sends with every DELETE. */
    async delete(keyId: number): Promise<{ alreadyGone: boolean }> {
        return removal(() =>
            this.transport.call(ENDPOINTS.deleteSshKey, { params: { id: keyId }, body: {}, target: String(keyId) }, successResponseSchema),
        );
    }
}

/** A key for messages: its type and comment, not the long base64 body. */
export function keyTarget(publicKey: string): string {
    const [type, , ...comment] = publicKey.trim().split(/\s+/);
    return comment.length > 0 ? `${type} "${comment.join(" ")}"` : type;
}
