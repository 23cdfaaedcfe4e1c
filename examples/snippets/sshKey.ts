import * as fs from "fs";
import * as os from "os";
import * as pulumi from "@pulumi/pulumi";
import * as vast from "pulumi-vastai";

const laptop = new vast.SshKey("laptop", {
    publicKey: fs.readFileSync(`${os.homedir()}/.ssh/id_ed25519.pub`, "utf8"),   // the .pub file, never the private key
});
const gpu = new vast.Instance("gpu", { offerId: 1234567, image: "pytorch/pytorch" }, { dependsOn: [laptop] });
export const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
export const rented = pulumi.interpolate`${gpu.numGpus} × ${gpu.gpuName} at $${gpu.dphTotal}/hour`;
