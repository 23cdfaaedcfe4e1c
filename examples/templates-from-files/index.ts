// One template per file in ./templates; reviewed in pull requests, applied with `pulumi up`.
//   pulumi config set --secret vastai:apiKey <key>
//   pulumi config set --secret registryToken <token>   (for the private image)
import * as pulumi from "@pulumi/pulumi";
import * as path from "path";
import { templatesFromFiles } from "pulumi-vastai";

const config = new pulumi.Config();
const templates = templatesFromFiles(path.join(__dirname, "templates"), {
    secrets: { "private-inference": { dockerLoginPass: config.requireSecret("registryToken") } },
});

/** What instances reference: each template's current hash, by file name. */
export const hashIds = Object.fromEntries(Object.entries(templates).map(([name, t]) => [name, t.hashId]));
