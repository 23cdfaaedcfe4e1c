import { z } from "zod";
import { isUnknown } from "../dynamic/unknowns";
import { EnvFlagError, EnvMap, envMapProblems, flagValueProblem, parseEnvFlags } from "./envFlags";

/**
 * `env` as a program gives it, for `check`: the flag string or a map. Each problem names its key;
 * values unknown during preview pass. `maxValueChars` adds a limit per value (the instance create
 * call's 256); `asFlagString` checks each value can be written into a template's flag string.
 */
export function envInputSchema(options: { maxValueChars?: number; asFlagString?: boolean } = {}) {
    return z.union([z.string(), z.record(z.string(), z.unknown())]).superRefine((env, ctx) => {
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
        const max = options.maxValueChars;
        for (const [key, value] of Object.entries(values as EnvMap)) {
            if (typeof value !== "string" || isUnknown(value)) continue;
            if (max !== undefined && value.length > max) {
                ctx.addIssue({ code: "custom", path: [key], message: `is ${value.length} characters; the service accepts at most ${max}` });
            }
            const unwritable = options.asFlagString ? flagValueProblem(value) : undefined;
            if (unwritable) ctx.addIssue({ code: "custom", path: [key], message: unwritable });
        }
    });
}
