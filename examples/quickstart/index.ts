// `pulumi up` in the repository root runs this program (see Pulumi.yaml).
//   pulumi config set --secret vastai:apiKey <key>
import * as pulumi from "@pulumi/pulumi";
import { quickstart } from "./program";

const config = new pulumi.Config();
const { trainer } = quickstart({ imageTag: config.require("imageTag") });

export const templateId = trainer.templateId;
export const templateHashId = trainer.hashId;
