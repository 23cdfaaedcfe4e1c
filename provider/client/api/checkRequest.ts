import { z } from "zod";
import { Endpoint } from "../endpoints";
import { VastRequestNotSentError } from "../errors";
import { describeIssues } from "../zodIssues";
import { safeParse } from "../../schemas/parse";

/**
 * Checks a request against its strict schema before it is sent, so a malformed one fails here with
 * the field's path instead of at the service with a vaguer message.
 */
export function checkRequest<S extends z.ZodType>(endpoint: Endpoint, schema: S, value: unknown, what = "request", known: readonly string[] = []): z.infer<S> {
    return checkedBeforeSending(endpoint.operation, schema, value, what, known);
}

/**
 * `value` checked against `schema` for `operation`, or a `VastRequestNotSentError` naming each
 * problem's path ("invalid request (not sent): ..."); `known` feeds "did you mean" for a
 * misspelt key. The one refusal of what is never sent: requests, and a function's arguments.
 */
export function checkedBeforeSending<S extends z.ZodType>(operation: string, schema: S, value: unknown, what: string, known: readonly string[] = []): z.infer<S> {
    const parsed = safeParse(schema, value);
    if (parsed.success) return parsed.data;
    throw new VastRequestNotSentError({ operation }, `invalid ${what} (not sent): ${describeIssues(parsed.error, what, [], known)}`);
}
