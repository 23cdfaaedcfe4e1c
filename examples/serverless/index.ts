// A model served on Vast.ai Serverless: a template (what the workers run), an endpoint (the router
// and its scaling limits) and a worker group (where the service's engine rents the workers).
//   pulumi config set --secret vastai:apiKey <key>
//   pulumi up --policy-pack node_modules/pulumi-vastai/policy --policy-pack-config policy-config.json
// `pulumi destroy` removes the group and the endpoint and destroys every worker they had: the
// service itself keeps a deleted group's workers running.
import * as vast from "pulumi-vastai";

const template = new vast.Template("vllm", {
    name: "vllm-llama",
    image: "vllm/vllm-openai",
    tag: "v0.6.3",
    env: { MODEL_ID: "meta-llama/Llama-3.1-8B-Instruct" },
    onstart: "vllm serve $MODEL_ID --port 8000",
    recommendedDiskSpace: 80,
});

const endpoint = new vast.Endpoint("llm", {
    name: "llama-chat",
    coldWorkers: 1,
    maxWorkers: 4,
    targetUtil: 0.8,
});

const workers = new vast.WorkerGroup("llm-4090", {
    endpointId: endpoint.endpointId,
    templateHashId: template.hashId,
    // At most 4 workers at $0.60/hour each: $2.40/hour at worst, within policy-config.json's budget.
    offer: { filters: { gpu_name: { eq: "RTX 4090" }, num_gpus: { eq: 1 }, reliability: { gte: 0.98 } }, maxPricePerHour: 0.6 },
    launch: { diskGb: 80 },
    gpuRamGb: 24,
    coldWorkers: 1,
    maxWorkers: 4,
});

/** The endpoint's id, for the vendor's serverless client and its logs. */
export const endpointId = endpoint.endpointId;
/** The workers the engine rented, as of the last `up` or `refresh`. */
export const currentWorkers = workers.workers;
