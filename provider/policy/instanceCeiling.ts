import { ResourceValidationPolicy } from "@pulumi/policy";
import { instanceCeiling as ceilingOf } from "./ceilings";
import { UNKNOWN, dollars, kindOf, named, reportUnchecked, valueAt } from "./props";

export interface InstanceCeilingConfig {
    maxPricePerHour?: number;
}

/**
 * Every instance the stack rents has a ceiling it gives itself: its search's `maxPricePerHour`,
 * or a bid (`price`). An instance pinned to `offerId` on demand has none: the offer's price is
 * known only once it is rented. With `maxPricePerHour` configured, no ceiling may be above it.
 * Adopted instances are not rented by the stack and are left to the budget.
 */
export const instanceCeiling: ResourceValidationPolicy = {
    name: "vastai-instance-ceiling",
    description: "Every instance the stack rents (not one it adopts) has a price ceiling of its own (offer.maxPricePerHour, or a bid in price), at most the configured maximum.",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            maxPricePerHour: { type: "number", exclusiveMinimum: 0, description: "The highest ceiling one instance may have, in dollars per hour. Unset: any ceiling, as long as there is one." },
        },
    },
    validateResource: (args, reportViolation) => {
        if (kindOf(args.type) !== "instance") return;
        const who = named("instance", args.name);
        const adopt = valueAt(args.props, "adopt");
        if (typeof adopt === "number") return;
        const { maxPricePerHour: limit } = args.getConfig<InstanceCeilingConfig>();
        const ceiling = ceilingOf(args.props);
        if ("unknown" in ceiling) {
            const offerId = valueAt(args.props, "offerId");
            if (valueAt(args.props, "price") === undefined && (offerId === UNKNOWN || typeof offerId === "number")) {
                reportViolation(`${who} has no ceiling: it is rented on offerId ${offerId === UNKNOWN ? "(not known yet)" : offerId} on demand, whose price is known only once it is rented. Rent by offer with offer.maxPricePerHour, or bid with price`);
            } else {
                reportUnchecked(reportViolation, instanceCeiling.name, `${who}'s ceiling: ${ceiling.unknown}`);
            }
        } else if ("none" in ceiling) {
            reportViolation(`${who} has no ceiling: ${ceiling.none}. Set offer.maxPricePerHour, or bid with price`);
        } else if (limit !== undefined && ceiling.perHour > limit) {
            reportViolation(`${who}: ${ceiling.from} is ${dollars(ceiling.perHour)}, above the limit ${dollars(limit)} (maxPricePerHour)`);
        }
    },
};
