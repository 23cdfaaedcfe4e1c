import { z } from "zod";
import { suggestion } from "../schemas/nearestName";
import { isUnknown } from "./unknowns";

/** What `check` reports per bad input; `pulumi preview` shows each with its property path. */
export interface CheckFailure {
    property: string;
    reason: string;
}

/** `["extraFilters", "gpu_ram", "gte"]` → `extraFilters.gpu_ram.gte`; indexes as `[0]`. */
export function propertyPath(path: ReadonlyArray<PropertyKey>): string {
    return path.reduce<string>((acc, key) => {
        if (typeof key === "number") return `${acc}[${key}]`;
        return acc ? `${acc}.${String(key)}` : String(key);
    }, "");
}

function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): { found: boolean; unknown: boolean } {
    let current: unknown = input;
    for (const key of path) {
        if (isUnknown(current)) return { found: true, unknown: true };
        if (current === null || typeof current !== "object") return { found: false, unknown: false };
        current = (current as Record<PropertyKey, unknown>)[key];
    }
    return { found: true, unknown: isUnknown(current) };
}

/**
 * Turns zod issues into check failures, one per problem, each naming its property. Issues about
 * values that are unknown during preview are dropped: they will be checked once known.
 * `knownProperties` feeds "did you mean" for unrecognised keys at the top level, `knownNames` for
 * those of nested objects, by the object's property path (`{ "permissions.api": [...] }`).
 */
export function checkFailuresFrom(
    error: z.ZodError,
    input: unknown,
    knownProperties: readonly string[] = [],
    knownNames: Readonly<Record<string, readonly string[]>> = {},
): CheckFailure[] {
    const failures: CheckFailure[] = [];
    for (const issue of error.issues) {
        if (valueAt(input, issue.path).unknown) continue;
        if (issue.code === "unrecognized_keys") {
            for (const key of issue.keys) {
                const known = issue.path.length === 0 ? knownProperties : (knownNames[propertyPath(issue.path)] ?? []);
                const hint = suggestion(key, known);
                failures.push({
                    property: propertyPath([...issue.path, key]),
                    reason: `unknown property "${key}"${hint}`,
                });
            }
            continue;
        }
        failures.push({ property: propertyPath(issue.path), reason: issue.message });
    }
    return failures;
}

/**
 * Failures as the engine is to get them. The engine prints a failure's property with that
 * property's value from the program's inputs ("property 'env' value … has a problem"), whatever
 * the provider says. So a failure keeps its property only when that value is safe to print: a
 * declared property that cannot hold a credential (`disk`), or a path inside a declared property
 * (`env.HF_TOKEN`: the engine looks up no such input, and prints none). Any other (`env`, a
 * misspelt `docker_login_pass`, a computed `key` given as an input) is named in the reason instead,
 * and the engine prints no value.
 */
export function unquotedFailures(failures: readonly CheckFailure[], properties: { declared: readonly string[]; unquotable: readonly string[] }): CheckFailure[] {
    const quotable = (property: string) => {
        const top = /^[^.[]*/.exec(property)![0];
        return properties.declared.includes(top) && (top !== property || !properties.unquotable.includes(property));
    };
    const named = (f: CheckFailure) => (f.reason.startsWith(`${f.property} `) || f.reason.includes(`"${f.property}"`) ? f.reason : `${f.property}: ${f.reason}`);
    return failures.map((f) => (f.property === "" || quotable(f.property) ? f : { property: "", reason: named(f) }));
}
