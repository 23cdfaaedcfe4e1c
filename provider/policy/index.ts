/**
 * The guardrails policy pack's policies (docs/guides/policy-pack.md), for a pack of your own:
 * `new PolicyPack("ours", { policies: [...vastaiPolicies, ...] })`. Needs `@pulumi/policy`.
 */
import { Policies } from "@pulumi/policy";
import { allowedGpus } from "./allowedGpus";
import { allowedLocations } from "./allowedLocations";
import { instanceCeiling } from "./instanceCeiling";
import { stackBudget } from "./stackBudget";
import { privateTemplates, registryLoginsSecret } from "./templates";

export { allowedGpus, allowedLocations, instanceCeiling, privateTemplates, registryLoginsSecret, stackBudget };
export type { AllowedGpusConfig } from "./allowedGpus";
export type { AllowedLocationsConfig } from "./allowedLocations";
export type { InstanceCeilingConfig } from "./instanceCeiling";
export type { StackBudgetConfig } from "./stackBudget";
export type { PrivateTemplatesConfig } from "./templates";

/** The pack's name, as `--policy-pack-config` files and the Pulumi Cloud name it. */
export const PACK_NAME = "vastai-guardrails";

export const vastaiPolicies: Policies = [stackBudget, instanceCeiling, allowedGpus, allowedLocations, privateTemplates, registryLoginsSecret];
