import * as vast from "pulumi-vastai";

const llm = new vast.Endpoint("llm", {
    name: "vllm-qwen3-8b",
    coldWorkers: 1,    // kept inactive when there is no load
    maxWorkers: 4,     // never more, across its worker groups
    targetUtil: 0.8,
});
export const endpointId = llm.endpointId;   // a worker group names its endpoint by it
