import * as vast from "pulumi-vastai";

// 200 GB on the cheapest verified offer at most $0.15 per GB-month; an instance on its machine mounts it.
const data = new vast.Volume("datasets", { offer: { maxPricePerGbMonth: 0.15 }, sizeGb: 200 });
const trainer = new vast.Instance("trainer", {
    offer: { filters: { machine_id: { eq: data.machineId.apply((id) => id ?? 0) } }, maxPricePerHour: 1.5 },
    image: "pytorch/pytorch",
    volumeInfo: { createNew: false, volumeId: data.volumeId, mountPath: "/data" },
});
export const volumeId = data.volumeId;
export const trainerId = trainer.instanceId;
