import { unknownValue } from "@pulumi/pulumi/runtime/rpc";

/**
 * During `pulumi preview` an input that depends on a resource not yet created arrives as this
 * string (the SDK's own sentinel), whatever its declared type. Validation lets it pass; diff
 * treats it as "may change".
 */
export const UNKNOWN: string = unknownValue;

export function isUnknown(value: unknown): boolean {
    return value === UNKNOWN;
}

/** True when the value is unknown or holds an unknown anywhere inside. */
export function containsUnknown(value: unknown): boolean {
    if (value === UNKNOWN) return true;
    if (Array.isArray(value)) return value.some(containsUnknown);
    if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
    return false;
}
