import { UNKNOWN } from "./props";

/**
 * What an offer search's condition on one field lets through, for a policy that bounds it: the
 * values it allows (`eq`, `in`; every one when neither is given), and the highest number it allows
 * (`eq`, `in`, `lte`, `lt`). A search without the condition allows anything.
 */
export type Allowed<T> = { values: T[] } | "any" | typeof UNKNOWN;

export function allowedValues<T>(condition: unknown): Allowed<T> {
    if (condition === UNKNOWN) return UNKNOWN;
    if (condition === undefined || condition === null || typeof condition !== "object") return "any";
    const c = condition as { eq?: T; in?: T[] };
    if (c.eq !== undefined) return { values: [c.eq] };
    if (Array.isArray(c.in)) return { values: c.in };
    return "any";
}

/** The highest whole number (a count) `condition` lets through; "any" when it sets no upper bound. */
export function upperBound(condition: unknown): number | "any" | typeof UNKNOWN {
    if (condition === UNKNOWN) return UNKNOWN;
    if (condition === undefined || condition === null || typeof condition !== "object") return "any";
    const c = condition as { eq?: number; in?: number[]; lte?: number; lt?: number };
    const bounds: number[] = [];
    if (typeof c.eq === "number") bounds.push(c.eq);
    if (Array.isArray(c.in) && c.in.length > 0) bounds.push(Math.max(...c.in));
    if (typeof c.lte === "number") bounds.push(c.lte);
    if (typeof c.lt === "number") bounds.push(Math.ceil(c.lt) - 1);
    return bounds.length > 0 ? Math.min(...bounds) : "any";
}
