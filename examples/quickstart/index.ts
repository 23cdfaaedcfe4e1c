// `pulumi up` in the repository root runs this program (see Pulumi.yaml).
//   pulumi config set --secret vastai:apiKey <key>
//   pulumi config set sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"   # unless the account holds it already
import * as pulumi from "@pulumi/pulumi";
import { quickstart } from "./program";

const config = new pulumi.Config();
const { resources, ssh } = quickstart({
    imageTag: config.require("imageTag"),
    sshPublicKey: config.get("sshPublicKey"),
    maxPricePerHour: config.getNumber("maxPricePerHour"),
});

export const templateHashId = resources.trainer.hashId;
export const instanceId = resources.gpu.instanceId;
export const gpu = pulumi.interpolate`${resources.gpu.numGpus} × ${resources.gpu.gpuName} at $${resources.gpu.dphTotal}/hour (offer ${resources.gpu.rentedOfferId})`;
export const status = resources.gpu.actualStatus;
export const sshCommand = ssh;
export const datasets = pulumi.interpolate`volume ${resources.datasets.volumeId}, ${resources.datasets.sizeGb} GB on machine ${resources.datasets.machineId} at $${resources.datasets.storageCostPerGbMonth}/GB-month, at /data`;
