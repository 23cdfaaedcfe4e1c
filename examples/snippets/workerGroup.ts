import * as pulumi from "@pulumi/pulumi";
import * as vast from "pulumi-vastai";

// Workers for an endpoint (an Endpoint resource's endpointId; here from config), each on a 24 GB
// RTX 4090 at most $0.60/hour, at most 4 of them: with the ceiling, at most $2.40/hour in all.
const endpointId = new pulumi.Config().requireNumber("endpointId");
const server = new vast.Template("llm-server", { name: "llm-server", image: "vllm/vllm-openai", tag: "latest" });
const group = new vast.WorkerGroup("llm", {
    endpointId,
    templateHashId: server.hashId,
    offer: { filters: { gpu_name: { eq: "RTX 4090" }, gpu_ram: { gte: 24000 } }, maxPricePerHour: 0.6 },
    launch: { diskGb: 64, env: { MODEL: "Qwen/Qwen3-8B" } },
    coldWorkers: 1,
    maxWorkers: 4,
});
export const workerGroupId = group.workerGroupId;
export const workers = group.workers;
