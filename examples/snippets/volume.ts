import * as vast from "pulumi-vastai";

// 200 GB on the cheapest verified offer at most $0.15 per GB-month, and an instance that mounts it:
// rented by search, it is kept to the volume's machine.
const data = new vast.Volume("datasets", { offer: { maxPricePerGbMonth: 0.15 }, sizeGb: 200 });
const trainer = new vast.Instance("trainer", {
    offer: { filters: { gpu_name: { eq: "RTX 4090" } }, maxPricePerHour: 1.5 },
    image: "pytorch/pytorch",
    volumes: [{ volume: data.id, mountPath: "/data" }],
});
export const volumeId = data.volumeId;
export const machine = trainer.machineId;
