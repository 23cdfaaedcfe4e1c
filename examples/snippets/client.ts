import { VastClient } from "pulumi-vastai";

async function main() {
    const vast = new VastClient({ apiKey: process.env.VAST_API_KEY!, baseUrl: "https://console.vast.ai" });
    const mine = await vast.templates.search({ creator_id: { eq: 12345 }, recommended_disk_space: { gte: 16 } });
    // The client sends the query as written: the CLI's defaults (verified, rentable, not rented) are the resources' and searchOffers', not its own.
    const [offer] = await vast.offers.search({
        gpu_name: { eq: "RTX 4090" }, verified: { eq: true }, rentable: { eq: true }, rented: { eq: false },
        order: [["dph_total", "asc"]], limit: 1,
    });
    const { instanceId } = await vast.instances.create(offer.id, { template_hash_id: mine[0].hash_id, disk: 32 });
    console.log(`started instance ${instanceId}: billed until it is destroyed`);
    await vast.instances.destroy(instanceId);
}
main().catch((e) => { console.error(e); process.exit(1); });
