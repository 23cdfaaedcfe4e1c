// A policy pack of its own, for `pulumi policy publish <org>`: a published pack is uploaded as its
// folder and its dependencies installed from package.json, so it cannot point into node_modules as
// `--policy-pack node_modules/pulumi-vastai/policy` does. The third argument holds the team's
// defaults; a policy group's config (`pulumi policy enable --config`) overrides them. Give each
// entry its level too: the CLI reads an entry without one as advisory. Add policies of your own
// beside these.
import { PolicyPack } from "@pulumi/policy";
import { VastaiGuardrailsConfig, vastaiPolicies } from "pulumi-vastai/policy";

const teamDefaults: VastaiGuardrailsConfig = {
    "vastai-stack-budget": { enforcementLevel: "mandatory", maxPricePerHour: 25 },
    "vastai-allowed-gpus": { enforcementLevel: "mandatory", gpuNames: ["RTX 4090", "RTX 3090", "H100 SXM"], maxGpusPerInstance: 8 },
    "vastai-registry-logins-secret": "mandatory",
};

new PolicyPack("vastai-guardrails", { policies: [...vastaiPolicies] }, teamDefaults);
