import { FUNCTION_NAMES, FunctionName, PACKAGE_NAME, functionToken } from "../dynamic/typeTokens";
import { VastClient } from "../client/vastClient";
import { currentUserOf } from "../functions/getCurrentUser";
import { machinesOf } from "../functions/getMachines";
import { offersMatching } from "../functions/searchOffers";
import { templatesMatching } from "../functions/searchTemplates";
import { volumeOffersMatching } from "../functions/searchVolumeOffers";
import { vastClient } from "../runtime/providerContext";
import { Props } from "./wire";
import { ProviderError } from "../errors/providerError";

// The functions, as invokes: each runs the function's own core on the configured client. A
// function's result is an object (the schema's outputs); a list is under one named property.
const FUNCTIONS: Record<FunctionName, (client: VastClient, args: Props) => Promise<object>> = {
    searchOffers: async (client, args) => ({ offers: await offersMatching(client, args) }),
    searchVolumeOffers: async (client, args) => ({ offers: await volumeOffersMatching(client, args) }),
    searchTemplates: async (client, args) => ({ templates: await templatesMatching(client, (args.filters ?? {}) as never) }),
    getMachines: async (client, args) => ({ machines: await machinesOf(client, args) }),
    getCurrentUser: async (client) => currentUserOf(client),
};

/** Invoke: the function named by `token`, on this plugin's configured client. */
export async function invoke(token: string, args: Props): Promise<object> {
    const name = FUNCTION_NAMES.find((n) => functionToken(n) === token);
    if (!name) throw new ProviderError("not_in_package", `vastai: ${token} is not a function of the ${PACKAGE_NAME} package (it has ${FUNCTION_NAMES.map(functionToken).join(", ")})`);
    return FUNCTIONS[name](vastClient(), args);
}
