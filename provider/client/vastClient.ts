import { AccountApi } from "./api/account";
import { InstancesApi } from "./api/instances";
import { SshKeysApi } from "./api/sshKeys";
import { OffersApi } from "./api/offers";
import { ServerlessApi } from "./api/serverless";
import { VolumesApi } from "./api/volumes";
import { TemplatesApi } from "./api/templates";
import { Transport, TransportOptions } from "./transport";

export type VastClientOptions = TransportOptions;

/**
 * The Vast.ai REST client: thin typed groups over one transport that owns pacing, retries, errors
 * and response checking.
 *
 *     const vast = new VastClient({ apiKey, baseUrl: "https://console.vast.ai" });
 *     const templates = await vast.templates.search({ name: { eq: "pytorch" } });
 */
export class VastClient {
    readonly templates: TemplatesApi;
    readonly instances: InstancesApi;
    readonly account: AccountApi;
    readonly sshKeys: SshKeysApi;
    readonly offers: OffersApi;
    readonly volumes: VolumesApi;
    readonly serverless: ServerlessApi;
    readonly baseUrl: string;
    readonly #transport: Transport;

    constructor(options: VastClientOptions) {
        const transport = new Transport(options);
        this.#transport = transport;
        this.baseUrl = transport.baseUrl;
        this.templates = new TemplatesApi(transport);
        this.instances = new InstancesApi(transport);
        this.account = new AccountApi(transport);
        this.sshKeys = new SshKeysApi(transport);
        this.offers = new OffersApi(transport);
        this.volumes = new VolumesApi(transport);
        this.serverless = new ServerlessApi(transport);
    }

    /**
     * A moment of this machine's clock (`Date.now()`) on the service's clock, as the `Date` header
     * of its last response tells (to within a second or two); undefined before any response had one.
     * For comparing the service's timestamps with moments of this machine, whose clock may be off.
     */
    serviceTime(localMs: number): number | undefined {
        return this.#transport.serviceTime(localMs);
    }

    /**
     * A number that changes whenever this client sends a write (any call but a GET), or undefined
     * while one is on its way. Two equal marks mean no write of this client came between: what a
     * read answered under the first still holds under the second, as far as this client goes.
     */
    writeMark(): number | undefined {
        return this.#transport.writeMark();
    }
}
