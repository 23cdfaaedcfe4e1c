/**
 * The guardrails policy pack's policies (docs/guides/policy-pack.md), for a pack of your own:
 * `new PolicyPack("ours", { policies: [...vastaiPolicies, ...] })`. Needs `@pulumi/policy`.
 */
import { EnforcementLevel, Policies } from "@pulumi/policy";
import { allowedGpus } from "./allowedGpus";
import { allowedLocations } from "./allowedLocations";
import { instanceCeiling } from "./instanceCeiling";
import { stackBudget } from "./stackBudget";
import { privateTemplates, registryLoginsSecret } from "./templates";

export { allowedGpus, allowedLocations, instanceCeiling, privateTemplates, registryLoginsSecret, stackBudget };
import type { AllowedGpusConfig } from "./allowedGpus";
import type { AllowedLocationsConfig } from "./allowedLocations";
import type { InstanceCeilingConfig } from "./instanceCeiling";
import type { StackBudgetConfig } from "./stackBudget";
import type { PrivateTemplatesConfig } from "./templates";
export type { AllowedGpusConfig, AllowedLocationsConfig, InstanceCeilingConfig, StackBudgetConfig, PrivateTemplatesConfig };

/** The pack's name, as `--policy-pack-config` files and the Pulumi Cloud name it. */
export const PACK_NAME = "vastai-guardrails";

export const vastaiPolicies: Policies = [stackBudget, instanceCeiling, allowedGpus, allowedLocations, privateTemplates, registryLoginsSecret];

/** A policy's entry in a pack's config: a level, or its properties with an optional level. */
type Entry<C> = EnforcementLevel | (C & { enforcementLevel?: EnforcementLevel });

/**
 * The pack's config, typed: a `--policy-pack-config` file's shape, and what `new PolicyPack(name,
 * { policies: vastaiPolicies }, config)` takes as the team's defaults (a policy group's config
 * still overrides them), as `new AwsGuard({...})` does for its policies.
 */
export type VastaiGuardrailsConfig = {
    all?: EnforcementLevel;
    "vastai-stack-budget"?: Entry<Partial<StackBudgetConfig>>;
    "vastai-instance-ceiling"?: Entry<InstanceCeilingConfig>;
    "vastai-allowed-gpus"?: Entry<AllowedGpusConfig>;
    "vastai-allowed-locations"?: Entry<AllowedLocationsConfig>;
    "vastai-private-templates"?: Entry<PrivateTemplatesConfig>;
    "vastai-registry-logins-secret"?: EnforcementLevel | { enforcementLevel?: EnforcementLevel };
};
