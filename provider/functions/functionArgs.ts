import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { VastInvalidArgsError } from "../client/errors";
import { suggestion } from "../dynamic/checkFailures";
import { safeParse } from "../schemas/parse";

/**
 * What a value is, for "got ..." in a message: a number as itself, anything else by its kind. A
 * string is never quoted: it may be a key.
 */
export function describeValue(value: unknown): string {
    if (value === null || value === undefined) return String(value);
    if (typeof value === "number") return String(value);
    if (pulumi.Output.isInstance(value)) return "an Output";
    if (value instanceof Promise) return "a Promise";
    if (Array.isArray(value)) return "an array";
    return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A zod error option: `expected <words>, got <what came>`. */
export function expected(words: string) {
    return (issue: { input?: unknown }) => `expected ${words}, got ${describeValue(issue.input)}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
    return path.reduce<unknown>((current, key) => (current !== null && typeof current === "object" ? (current as Record<PropertyKey, unknown>)[key] : undefined), value);
}

/**
 * Checks what a program passed to one of the functions, before any call: a typo (`userID`), a
 * value of the wrong type or an Output where a plain value is needed fails here, naming the
 * field, instead of being dropped or sent. `what` names the value as a whole ("arguments",
 * "options"). An Output is the usual mistake in a Pulumi program (a secret from config, another
 * resource's output), so its message says what to do instead.
 */
export function checkFunctionArgs<S extends z.ZodObject>(functionName: string, what: string, schema: S, value: unknown): z.output<S> {
    const parsed = safeParse(schema, value);
    if (parsed.success) return parsed.data;
    const known = Object.keys(schema.shape);
    const problems = parsed.error.issues.slice(0, 5).flatMap((issue) => {
        const path = issue.path.map(String).join(".");
        if (issue.code === "unrecognized_keys") {
            return issue.keys.map((key) => `${path ? `${path}.` : ""}${key}: unknown property${suggestion(key, known)}`);
        }
        const outputHint = pulumi.Output.isInstance(valueAt(value, issue.path))
            ? ` (a function given plain values runs at once, before an Output has a value: call ${functionName} inside .apply(...), or use ${functionName}Output, which takes Outputs)`
            : "";
        return [`${path || what}: ${issue.message}${outputHint}`];
    });
    throw new VastInvalidArgsError({ operation: functionName }, `invalid ${what} (nothing sent): ${problems.join("; ")}`);
}
