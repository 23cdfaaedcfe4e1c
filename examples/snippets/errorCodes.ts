import * as vast from "pulumi-vastai";

export = async () => {
    try {
        return { offers: await vast.searchOffers({ filters: { gpu_name: { eq: "H100 SXM" } }, limit: 3 }) };
    } catch (e) {
        // A stable code, whatever the words: rate_limited, key_refused, network_error, ...
        if (e instanceof vast.ProviderError && e.code === "rate_limited") return { offers: [] };
        throw e;
    }
};
