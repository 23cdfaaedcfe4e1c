/** The policy pack's entry point: `policy/package.json` names it; `pulumi preview --policy-pack node_modules/pulumi-vastai/policy` runs it. */
import { PolicyPack } from "@pulumi/policy";
import { PACK_NAME, vastaiPolicies } from "./index";

new PolicyPack(PACK_NAME, { policies: vastaiPolicies });
