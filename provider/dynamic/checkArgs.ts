import { z } from "zod";
import { CheckFailure, checkFailuresFrom } from "./checkFailures";
import { safeParse } from "../schemas/parse";

type Props = Record<string, unknown>;

/** The input properties of a property bag: no `__provider`, no computed outputs, nothing undefined. */
export function pickInputs(props: Props, properties: readonly string[]): Props {
    const inputs: Props = {};
    for (const property of properties) if (props[property] !== undefined) inputs[property] = props[property];
    return inputs;
}

/** Refusals for computed outputs given as inputs: `{ hashId: "hashId is set by the service ..." }`. */
export function computedRefusals(computed: readonly string[]): Record<string, string> {
    return Object.fromEntries(computed.map((name) => [name, `${name} is set by the service and cannot be given`]));
}

/**
 * The common first half of `check`: the program's arguments without `__provider`; properties that
 * must not be given (computed outputs, a wrong spelling with a known fix) refused by name with
 * their reason; the rest validated by the resource's strict schema (values unknown during preview
 * pass). Either the arguments or the failures, never both. `knownNames` feeds "did you mean"
 * inside nested objects (see `checkFailuresFrom`).
 */
export function checkArgs(
    news: Props,
    schema: z.ZodType,
    properties: readonly string[],
    refused: Readonly<Record<string, string>>,
    knownNames: Readonly<Record<string, readonly string[]>> = {},
): { args: Props; failures: CheckFailure[] } {
    const args: Props = {};
    const failures: CheckFailure[] = [];
    for (const [key, value] of Object.entries(news)) {
        if (key === "__provider" || ((value === undefined || value === null) && key in refused)) continue;
        if (key in refused) failures.push({ property: key, reason: refused[key] });
        else args[key] = value;
    }
    const parsed = safeParse(schema, args);
    if (!parsed.success) failures.push(...checkFailuresFrom(parsed.error, args, properties, knownNames));
    return failures.length > 0 ? { args: {}, failures } : { args, failures: [] };
}
