import { PolicyResource, ReportViolation, UnknownValueError } from "@pulumi/policy";
import { ResourceKind } from "../dynamic/shim";
import { kindOfType, typeToken } from "../dynamic/typeTokens";

/** A value the engine does not know yet: one that depends on an output of a resource still to be made (preview). */
export const UNKNOWN = Symbol("not known yet");
export type Known<T> = T | undefined | typeof UNKNOWN;

/**
 * The value at `path` in a policy's `props`, as plain data; UNKNOWN when it, or anything inside
 * it, is not known yet. The policy SDK's props throw on reading an unknown value, which would end
 * the policy at the first one; read here, a policy checks everything else and says what it could not.
 */
export function valueAt(props: Record<string, unknown>, ...path: string[]): unknown {
    return read(props, path, plain);
}

/** Whether the property at `path` is given (true even when what is inside it is not known yet); UNKNOWN when it is itself unknown. */
export function isGiven(props: Record<string, unknown>, ...path: string[]): boolean | typeof UNKNOWN {
    const value = read(props, path, (v) => v);
    return value === UNKNOWN ? UNKNOWN : value !== undefined && value !== null;
}

/** The keys of the object at `path` (reading none of their values); none when it is not an object or not known. */
export function keysAt(props: Record<string, unknown>, ...path: string[]): string[] {
    const value = read(props, path, (v) => v);
    return value !== null && typeof value === "object" ? Object.keys(value) : [];
}

function read(props: Record<string, unknown>, path: string[], copy: (value: unknown) => unknown): unknown {
    try {
        let value: unknown = props;
        for (const key of path) {
            if (value === undefined || value === null || typeof value !== "object") return undefined;
            value = (value as Record<string, unknown>)[key];
        }
        return copy(value);
    } catch (e) {
        if (e instanceof UnknownValueError) return UNKNOWN;
        throw e;
    }
}

/** A copy of `value` read through the SDK's proxy, every part read once (and throwing if unknown). */
function plain(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(plain);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.keys(value).map((key) => [key, plain((value as Record<string, unknown>)[key])]));
}

/** The resource's kind when it is one of this package's, by its type token: a dynamic resource's or the plugin's. */
export function kindOf(type: string): ResourceKind | undefined {
    return kindOfType(type);
}

/** The stack's resources of these kinds. */
export function resourcesOf(resources: PolicyResource[], ...kinds: ResourceKind[]): PolicyResource[] {
    return resources.filter((r) => kinds.includes(kindOf(r.type) as ResourceKind));
}

/** How a resource is named in a message: `Instance "trainer"`. */
export function named(kind: ResourceKind, name: string): string {
    return `${typeToken(kind).split(":").pop()} "${name}"`;
}

/**
 * Reports what a policy could not check because a value is not known yet, always as advisory: a
 * preview must say it, and must not fail for it. The SDK takes a violation object at run time
 * (server.js makeReportViolationFun), though its type names only the message form.
 */
export function reportUnchecked(reportViolation: ReportViolation, policyName: string, message: string, urn?: string): void {
    const report = reportViolation as unknown as (violation: { name: string; message: string; urn?: string; enforcementLevel: "advisory" }) => void;
    report({ name: policyName, message: `could not check: ${message}`, urn, enforcementLevel: "advisory" });
}

/**
 * Why what a resource's machine has (GPU, place) is not known, when no offer search says it:
 * the offer is not known yet, or it is rented on a given offer or adopted, whose machine its
 * record tells once it is made.
 */
export function machineNotKnownYet(kind: ResourceKind, props: Record<string, unknown>): string {
    const offerId = valueAt(props, "offerId");
    const adopt = valueAt(props, "adopt");
    const made = kind === "instance" ? "rented" : "created";
    if (typeof offerId === "number") return `it is ${made} on offer ${offerId} without a search, so its machine is known once it is ${made}`;
    if (typeof adopt === "number") return `it adopts ${kind === "instance" ? "instance" : "volume"} ${adopt}, whose machine is known once it is adopted`;
    return "its offer is not known yet";
}

/** `$1.25/hour`. */
export function dollars(perHour: number): string {
    return `$${Math.round(perHour * 10000) / 10000}/hour`;
}
