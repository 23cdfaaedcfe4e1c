// A policy pack of its own, for `pulumi policy publish <org>`: a published pack is uploaded as its
// folder and its dependencies installed from package.json, so it cannot point into node_modules as
// `--policy-pack node_modules/pulumi-vastai/policy` does. Add policies of your own beside these.
import { PolicyPack } from "@pulumi/policy";
import { vastaiPolicies } from "pulumi-vastai/policy";

new PolicyPack("vastai-guardrails", { policies: [...vastaiPolicies] });
