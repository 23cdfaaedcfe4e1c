import { UNKNOWN, isGiven, valueAt } from "./props";

/** Hours in an average month (365 × 24 / 12): a volume's price per GB-month as dollars per hour. */
export const HOURS_PER_MONTH = 730;

/**
 * The most an instance or volume can cost per hour, and the property that says so; or why there
 * is no such number: `none` (nothing bounds it) or `unknown` (a value not known yet).
 */
export type Ceiling = { perHour: number; from: string } | { none: string } | { unknown: string };

/**
 * An instance's ceiling, from its properties (a program's inputs, or its outputs in state): its
 * bid (`price`, which is what an interruptible instance pays); its search's `maxPricePerHour`;
 * or, rented on a given offer or adopted, the price the service shows (`dphTotal`).
 */
export function instanceCeiling(props: Record<string, unknown>): Ceiling {
    const bid = valueAt(props, "price");
    if (bid === UNKNOWN) return { unknown: "price (the bid) is not known yet" };
    if (typeof bid === "number") return { perHour: bid, from: "price (its bid)" };
    const offer = isGiven(props, "offer");
    if (offer === UNKNOWN) return { unknown: "offer is not known yet" };
    if (offer) {
        const max = valueAt(props, "offer", "maxPricePerHour");
        if (max === UNKNOWN) return { unknown: "offer.maxPricePerHour is not known yet" };
        if (typeof max === "number") return { perHour: max, from: "offer.maxPricePerHour" };
        return { none: "its offer search has no maxPricePerHour" };
    }
    const shown = valueAt(props, "dphTotal");
    if (typeof shown === "number") return { perHour: shown, from: "dphTotal (its price)" };
    const offerId = valueAt(props, "offerId");
    const adopt = valueAt(props, "adopt");
    if (typeof adopt === "number") return { unknown: `the price of instance ${adopt} is known once it is adopted` };
    return { unknown: `the price of ${typeof offerId === "number" ? `offer ${offerId}` : "its offer"} is known once it is rented` };
}

/**
 * A volume's ceiling per hour, where it has one: its size times its search's `maxPricePerGbMonth`,
 * or the price per GB-month its outputs show. A volume rented on a given offer before that was
 * recorded has none.
 */
export function volumeCeiling(props: Record<string, unknown>): Ceiling {
    const size = valueAt(props, "sizeGb");
    if (size === UNKNOWN) return { unknown: "sizeGb is not known yet" };
    if (typeof size !== "number") return { none: "it has no size" };
    const max = valueAt(props, "offer", "maxPricePerGbMonth");
    if (max === UNKNOWN) return { unknown: "offer.maxPricePerGbMonth is not known yet" };
    if (typeof max === "number") return { perHour: (size * max) / HOURS_PER_MONTH, from: `sizeGb × offer.maxPricePerGbMonth (${size} GB at $${max}/GB-month)` };
    const shown = valueAt(props, "storageCostPerGbMonth");
    if (typeof shown === "number") return { perHour: (size * shown) / HOURS_PER_MONTH, from: `sizeGb × storageCostPerGbMonth (${size} GB at $${shown}/GB-month)` };
    if (isGiven(props, "offer") === true) return { none: "its offer search has no maxPricePerGbMonth" };
    return { none: "made on a given offer or adopted, its price per GB-month is not recorded" };
}

/**
 * A worker group's ceiling per hour: the most workers the service's engine may rent for it
 * (`maxWorkers`) times the most each may cost (`offer.maxPricePerHour`). Without either, nothing
 * bounds what the engine rents.
 */
export function workerGroupCeiling(props: Record<string, unknown>): Ceiling {
    const workers = valueAt(props, "maxWorkers");
    const max = valueAt(props, "offer", "maxPricePerHour");
    if (workers === UNKNOWN) return { unknown: "maxWorkers is not known yet" };
    if (max === UNKNOWN) return { unknown: "offer.maxPricePerHour is not known yet" };
    if (typeof workers !== "number") return { none: "it has no maxWorkers, so the service's engine may rent as many workers as its endpoint allows" };
    if (typeof max !== "number") return { none: `it has no offer.maxPricePerHour, so each of its up to ${workers} workers may cost any price` };
    return { perHour: workers * max, from: `maxWorkers × offer.maxPricePerHour (${workers} workers at $${max}/hour)` };
}
