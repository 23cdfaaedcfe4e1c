import { z } from "zod";
import { isUnknown } from "../dynamic/unknowns";
import { envLimitProblems } from "../schemas/limits";
import { EnvFlagError, EnvMap, envMapProblems, flagValueProblem, parseEnvFlags } from "../schemas/envFlags";

/** What a wrongly shaped `env` is told; `value` says what a variable's value may be there. */
export function envShapeExpected(value = "text"): string {
    return `expected a mapping of NAME: ${value}, or a flag string such as "-e NAME=value -p 8080:8080"`;
}

/**
 * `env` as a program gives it, for `check`: the flag string or a map. Each problem names its key;
 * values unknown during preview pass. `createLimits` adds the instance create call's limits (256
 * a value, 32768 in all); `asFlagString` checks each value can be written into a template's flag string.
 */
export function envInputSchema(options: { createLimits?: boolean; asFlagString?: boolean } = {}) {
    // A map's values are typed as the strings they must be, but checked below, each problem naming its key.
    return z.union([z.string(), z.record(z.string(), z.custom<string>())], { error: envShapeExpected() }).superRefine((env, ctx) => {
        if (isUnknown(env)) return;
        let values: Record<string, unknown> = env as Record<string, unknown>;
        if (typeof env === "string") {
            try {
                values = parseEnvFlags(env);
            } catch (e) {
                if (!(e instanceof EnvFlagError)) throw e;
                ctx.addIssue({ code: "custom", message: e.message });
                return;
            }
        } else {
            for (const { key, problem } of envMapProblems(env)) {
                if (!isUnknown(env[key])) ctx.addIssue({ code: "custom", path: [key], message: problem });
            }
        }
        const known = Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === "string" && !isUnknown(v))) as EnvMap;
        if (options.createLimits) {
            for (const { key, problem } of envLimitProblems(known)) ctx.addIssue({ code: "custom", path: key === undefined ? [] : [key], message: problem });
        }
        for (const [key, value] of Object.entries(known)) {
            const unwritable = options.asFlagString ? flagValueProblem(value) : undefined;
            if (unwritable) ctx.addIssue({ code: "custom", path: [key], message: unwritable });
        }
    });
}
