import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { VastInvalidArgsError } from "../client/errors";
import { checkedBeforeSending } from "../client/api/checkRequest";

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

/** The path of the first Output or Promise in `value`, looking through objects and arrays, or undefined. */
function pendingValueAt(value: unknown, path: PropertyKey[] = [], seen = new Set<unknown>()): { path: PropertyKey[]; value: unknown } | undefined {
    if (pulumi.Output.isInstance(value) || value instanceof Promise) return { path, value };
    if (value === null || typeof value !== "object" || seen.has(value)) return undefined;
    seen.add(value);
    for (const [key, inner] of Object.entries(value)) {
        const found = pendingValueAt(inner, [...path, Array.isArray(value) ? Number(key) : key], seen);
        if (found) return found;
    }
    return undefined;
}

/**
 * Refuses an Output or a Promise anywhere in what a program passed a function, naming where: the
 * usual mistake in a Pulumi program (a secret from config, another resource's output), which a
 * field's type check would only call "an object". The message says what to do instead. `what`
 * names the value as a whole ("arguments", "options").
 */
export function refuseOutputs(functionName: string, what: string, value: unknown): void {
    const found = pendingValueAt(value);
    if (!found) return;
    const where = found.path.map(String).join(".") || what;
    const instead = pulumi.Output.isInstance(found.value)
        ? `a function given plain values runs at once, before an Output has a value: call ${functionName} inside .apply(...), or use ${functionName}Output, which takes Outputs`
        : `await it first, or use ${functionName}Output, which takes Inputs`;
    throw new VastInvalidArgsError(
        { operation: functionName },
        `invalid ${what} (not sent): ${where}: expected a plain value, got ${describeValue(found.value)} (${instead})`,
        "invalid_input",
    );
}

/**
 * Checks what a program passed to one of the functions, before any call: a typo (`userID`), a
 * value of the wrong type or an Output where a plain value is needed fails here, naming the
 * field, instead of being dropped or sent.
 */
export function checkFunctionArgs<S extends z.ZodObject>(functionName: string, what: string, schema: S, value: unknown): z.output<S> {
    refuseOutputs(functionName, what, value);
    return checkedBeforeSending(functionName, schema, value, what, Object.keys(schema.shape));
}
