// `pulumi up` in the repository root runs this program (see Pulumi.yaml).
//   pulumi config set --secret vastai:apiKey <key>
//   pulumi config set offerId <offer id>
import * as pulumi from "@pulumi/pulumi";
import { quickstart } from "./program";

const config = new pulumi.Config();
const { resources, ssh } = quickstart({ imageTag: config.require("imageTag"), offerId: config.requireNumber("offerId") });

export const templateHashId = resources.trainer.hashId;
export const instanceId = resources.gpu.instanceId;
export const status = resources.gpu.actualStatus;
export const sshCommand = ssh;
