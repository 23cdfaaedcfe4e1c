import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";
import * as vast from "pulumi-vastai";

const trainer = new vast.Template("trainer", { name: "trainer", image: "pytorch/pytorch", tag: "2.3.0-cuda12.1-cudnn8-runtime", env: "-e MODE=train -p 8888:8888" });
const gpu = new vast.Instance("gpu", {
    offer: {                          // rent by need (or `offerId: 1234567`, one offer)
        filters: { gpu_name: { in: ["RTX 4090", "RTX 3090"] }, gpu_ram: { gte: 20_000 }, reliability: { gte: 0.98 } },
        order: [["dph_total", "asc"]],
        maxPricePerHour: 0.5,
    },
    templateHashId: trainer.hashId,   // never templateId: check says so
    env: { WANDB_PROJECT: "llm", "-p 8080:8080": "1" },
    disk: 64,
    label: "trainer",
    onstart: fs.readFileSync("setup.sh", "utf8"),
});
export const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
export const rented = pulumi.interpolate`${gpu.numGpus} × ${gpu.gpuName} at $${gpu.dphTotal}/hour`;
