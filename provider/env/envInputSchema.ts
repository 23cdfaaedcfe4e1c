import { z } from "zod";
import { isUnknown } from "../dynamic/unknowns";
import { EnvFlagError, EnvMap, envMapProblems, parseEnvFlags } from "./envFlags";

/**
 * `env` as a program gives it, for `check`: the flag string or a map. Each problem names its key;
 * values unknown during preview pass. `maxValueChars` adds a limit per value (the instance create
 * call's 256).
 */
export function envInputSchema(options: { maxValueChars?: number } = {}) {
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
        if (max === undefined) return;
        for (const [key, value] of Object.entries(values as EnvMap)) {
            if (typeof value === "string" && !isUnknown(value) && value.length > max) {
                ctx.addIssue({ code: "custom", path: [key], message: `is ${value.length} characters; the service accepts at most ${max}` });
            }
        }
    });
}
