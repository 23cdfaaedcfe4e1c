import * as vast from "pulumi-vastai";

export async function cheapestStorage() {
    const offers = await vast.searchVolumeOffers({
        filters: { disk_space: { gte: 500 }, geolocation: { eq: "US" }, reliability: { gte: 0.98 } },
        limit: 5,
    });
    return offers.map((o) => `volume offer ${o.id} on machine ${o.machine_id}: ${o.disk_space} GB free at $${o.storage_cost}/GB-month`);
}
