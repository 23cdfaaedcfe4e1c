import * as fs from "fs";
import * as os from "os";
import * as pulumi from "@pulumi/pulumi";
import * as vast from "pulumi-vastai";

// A container template. It is private unless you say `private: false`; every edit gives it a new hashId.
const trainer = new vast.Template("trainer", {
    name: "trainer",
    image: "pytorch/pytorch",
    tag: "2.3.0-cuda12.1-cudnn8-runtime",
    env: { HF_HOME: "/workspace/hf", "-p 8888:8888": "1" },
    runtype: "ssh",
    sshDirect: true,
    recommendedDiskSpace: 40,
});

// Your public key on the account. The instance depends on it, so it has the key from its first boot.
const laptop = new vast.SshKey("laptop", {
    publicKey: fs.readFileSync(`${os.homedir()}/.ssh/id_ed25519.pub`, "utf8"),   // the .pub file, never the private key
});

// A GPU rented by need: the cheapest offer that matches, never above the price ceiling.
const gpu = new vast.Instance("gpu", {
    offer: {
        filters: { gpu_name: { in: ["RTX 4090", "RTX 3090"] }, gpu_ram: { gte: 20_000 }, reliability: { gte: 0.98 } },
        order: [["dph_total", "asc"]],
        maxPricePerHour: 0.5,                 // USD per hour
    },
    templateHashId: trainer.hashId,           // the instance is replaced when the template changes
    disk: 64,                                 // GB
    label: "trainer",
}, { dependsOn: [laptop] });

export const instanceId = gpu.instanceId;
export const rented = pulumi.interpolate`${gpu.numGpus} × ${gpu.gpuName} at $${gpu.dphTotal}/hour`;
export const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
