import { VastClient } from "pulumi-vastai";

async function main() {
    const vast = new VastClient({ apiKey: process.env.VAST_API_KEY!, baseUrl: "https://console.vast.ai" });
    const mine = await vast.templates.search({ creator_id: { eq: 12345 }, recommended_disk_space: { gte: 16 } });
    const [offer] = await vast.offers.search({ gpu_name: { eq: "RTX 4090" }, order: [["dph_total", "asc"]], limit: 1 });
    const { instanceId } = await vast.instances.create(offer.id, { template_hash_id: mine[0].hash_id, disk: 32 });
    console.log(`started instance ${instanceId}`);
}
main().catch((e) => { console.error(e); process.exit(1); });
