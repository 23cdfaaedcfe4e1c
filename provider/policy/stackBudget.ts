import { StackValidationPolicy } from "@pulumi/policy";
import { Ceiling, instanceCeiling, volumeCeiling, workerGroupCeiling } from "./ceilings";
import { dollars, kindOf, named, reportUnchecked, resourcesOf } from "./props";

export interface StackBudgetConfig {
    maxPricePerHour: number;
}

/**
 * The stack's worst case in dollars per hour: every instance's ceiling (`ceilings.ts`), every worker
 * group's (its most workers at its per-worker ceiling), plus every volume's where it has one, at
 * most the budget. An instance or worker group with no ceiling makes the worst case unbounded, which
 * is reported too; one whose ceiling is not known yet is said, not counted. A volume with no ceiling
 * (on a given offer, before its price was recorded) is named, not counted.
 */
export const stackBudget: StackValidationPolicy = {
    name: "vastai-stack-budget",
    description:
        "The stack's worst-case spend in dollars per hour (instance ceilings, worker groups' maxWorkers × per-worker ceiling, and volume ceilings) stays within the budget.",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            maxPricePerHour: { type: "number", exclusiveMinimum: 0, default: 10, description: "The budget: the most the stack's instances, worker groups and volumes may cost together, in dollars per hour." },
        },
    },
    validateStack: (args, reportViolation) => {
        const { maxPricePerHour: budget } = args.getConfig<StackBudgetConfig>();
        const counted: string[] = [];
        const unbounded: string[] = [];
        const unknown: string[] = [];
        const uncounted: string[] = [];
        let sum = 0;
        for (const r of resourcesOf(args.resources, "instance", "workerGroup", "volume", "networkVolume")) {
            const kind = kindOf(r.type)!;
            const ceiling: Ceiling = kind === "instance" ? instanceCeiling(r.props) : kind === "workerGroup" ? workerGroupCeiling(r.props) : volumeCeiling(r.props);
            const who = named(kind, r.name);
            if ("perHour" in ceiling) {
                sum += ceiling.perHour;
                counted.push(`${who} ${dollars(ceiling.perHour)} (${ceiling.from})`);
            } else if ("unknown" in ceiling) {
                unknown.push(`${who}: ${ceiling.unknown}`);
            } else if (kind === "instance" || kind === "workerGroup") {
                unbounded.push(`${who}: ${ceiling.none}`);
            } else {
                uncounted.push(`${who} (${ceiling.none})`);
            }
        }
        const notCounted = uncounted.length > 0 ? `; not counted, having no ceiling: ${uncounted.join(", ")}` : "";
        const total = `${dollars(sum)} (${counted.join(", ") || "nothing counted"}${notCounted})`;
        if (unbounded.length > 0) {
            reportViolation(`the stack's worst case is unbounded, above the budget ${dollars(budget)}: ${unbounded.join("; ")}. Give each instance a ceiling (offer.maxPricePerHour, or a bid in price), and each worker group maxWorkers and offer.maxPricePerHour. Counted so far: ${total}`);
        } else if (sum > budget) {
            reportViolation(`the stack's worst case is ${total}, above the budget ${dollars(budget)} (maxPricePerHour)`);
        }
        if (unknown.length > 0) {
            reportUnchecked(reportViolation, stackBudget.name, `the budget ${dollars(budget)} for what is not known yet: ${unknown.join("; ")}. Known so far: ${total}`);
        }
    },
};
