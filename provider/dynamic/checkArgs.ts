import { z } from "zod";
import { CheckFailure, checkFailuresFrom } from "./checkFailures";

type Props = Record<string, unknown>;

/** The input properties of a property bag: no `__provider`, no computed outputs, nothing undefined. */
export function pickInputs(props: Props, properties: readonly string[]): Props {
    const inputs: Props = {};
    for (const property of properties) if (props[property] !== undefined) inputs[property] = props[property];
    return inputs;
}

/**
 * The common first half of `check`: the program's arguments without `__provider`, a computed
 * property given as an input refused by name, the rest validated by the resource's strict schema
 * (values unknown during preview pass). Either the arguments or the failures, never both.
 * `knownNames` feeds "did you mean" inside nested objects (see `checkFailuresFrom`).
 */
export function checkArgs(
    news: Props,
    schema: z.ZodType,
    properties: readonly string[],
    computed: readonly string[],
    knownNames: Readonly<Record<string, readonly string[]>> = {},
): { args: Props; failures: CheckFailure[] } {
    const args: Props = {};
    for (const [key, value] of Object.entries(news)) {
        if (key === "__provider") continue;
        if (computed.includes(key)) {
            if (value === undefined || value === null) continue;
            return { args: {}, failures: [{ property: key, reason: `${key} is set by the service and cannot be given` }] };
        }
        args[key] = value;
    }
    const parsed = schema.safeParse(args);
    const failures = parsed.success ? [] : checkFailuresFrom(parsed.error, args, properties, knownNames);
    return failures.length > 0 ? { args: {}, failures } : { args, failures: [] };
}
