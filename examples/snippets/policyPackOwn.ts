import { PolicyPack } from "@pulumi/policy";
import { stackBudget, instanceCeiling } from "pulumi-vastai/policy";

new PolicyPack("gpu-spend", { policies: [stackBudget, { ...instanceCeiling, enforcementLevel: "advisory" }] });
