import * as vast from "pulumi-vastai";

// 500 GB in the cheapest storage cluster at most $0.20 per GB-month, mounted by an instance on any machine.
const shared = new vast.NetworkVolume("shared", { offer: { maxPricePerGbMonth: 0.2 }, sizeGb: 500 });
const worker = new vast.Instance("worker", {
    offer: { filters: { gpu_name: { eq: "RTX 4090" } }, maxPricePerHour: 1 },
    image: "pytorch/pytorch",
    volumes: [{ volume: shared.id, mountPath: "/shared" }],
});
export const cluster = shared.clusterId;
export const workerId = worker.instanceId;
