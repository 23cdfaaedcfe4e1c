import { z } from "zod";
import { suggestion } from "../schemas/nearestName";

/**
 * Zod issues as one line for an error message: `templates.0.hash_id: Invalid input: expected
 * string, received undefined; ...`. `root` names the whole value when an issue is about all of it;
 * `prefix` is put before every path (a part of a response checked on its own); `known`, the names
 * a misspelt top-level key is compared with for "did you mean".
 */
export function describeIssues(error: z.ZodError, root: string, prefix: readonly PropertyKey[] = [], known: readonly string[] = []): string {
    return error.issues
        .slice(0, 5)
        .flatMap((issue) => {
            const path = [...prefix, ...issue.path].map(String).join(".");
            if (issue.code === "unrecognized_keys") {
                return issue.keys.map((key) => `${path ? `${path}.` : ""}${key}: unknown property${issue.path.length === 0 ? suggestion(key, known) : ""}`);
            }
            return [`${path || root}: ${issue.message}`];
        })
        .join("; ");
}
