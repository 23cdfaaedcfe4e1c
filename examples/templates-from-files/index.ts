// One template per file in ./templates; reviewed in pull requests, applied with `pulumi up`
// (.github/workflows/templates.yml runs `pulumi preview` on each pull request, `pulumi up` on merge).
//   pulumi config set --secret vastai:apiKey <key>
//   pulumi config set --secret registryToken <token>   (for the private image)
// Templates the account already has: `npx pulumi-vastai export-templates --out templates/` writes
// their files, each with `adopt: <id>`, and the next `pulumi up` takes them over without a create.
import * as pulumi from "@pulumi/pulumi";
import * as path from "path";
import { templatesFromFiles } from "pulumi-vastai";

const config = new pulumi.Config();
const templates = templatesFromFiles(path.join(__dirname, "templates"), {
    secrets: { "private-inference": { dockerLoginPass: config.requireSecret("registryToken") } },
});

/** What instances reference: each template's current hash, by file name (new after every edit of that file). */
export const hashIds = Object.fromEntries(Object.entries(templates).map(([name, t]) => [name, t.hashId]));
/** The numeric ids, stable across edits. */
export const templateIds = Object.fromEntries(Object.entries(templates).map(([name, t]) => [name, t.templateId]));
