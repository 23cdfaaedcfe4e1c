import * as vast from "pulumi-vastai";

export = async () => {
    const offers = await vast.searchOffers({
        filters: { gpu_name: { in: ["RTX 4090", "RTX 3090"] }, gpu_ram: { gte: 24_000 }, reliability: { gte: 0.98 } },
        order: [["dph_total", "asc"]],
        limit: 3,
    });
    const cheapest = offers[0];   // { id, machine_id, gpu_name, num_gpus, dph_total, ... }
    return { cheapestOffer: cheapest?.id, pricePerHour: cheapest?.dph_total };
};
