import { AccountApi } from "./api/account";
import { InstancesApi } from "./api/instances";
import { SshKeysApi } from "./api/sshKeys";
import { OffersApi } from "./api/offers";
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
    readonly baseUrl: string;

    constructor(options: VastClientOptions) {
        const transport = new Transport(options);
        this.baseUrl = transport.baseUrl;
        this.templates = new TemplatesApi(transport);
        this.instances = new InstancesApi(transport);
        this.account = new AccountApi(transport);
        this.sshKeys = new SshKeysApi(transport);
        this.offers = new OffersApi(transport);
    }
}
