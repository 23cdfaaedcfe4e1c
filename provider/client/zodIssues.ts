import { z } from "zod";

/**
 * Zod issues as one line for an error message: `templates.0.hash_id: Invalid input: expected
 * string, received undefined; ...`. `root` names the whole value when an issue is about all of it;
 * `prefix` is put before every path (a part of an answer checked on its own).
 */
export function describeIssues(error: z.ZodError, root: string, prefix: readonly PropertyKey[] = []): string {
    return error.issues
        .slice(0, 5)
        .map((issue) => {
            const path = [...prefix, ...issue.path].map(String).join(".");
            return `${path || root}: ${issue.message}`;
        })
        .join("; ");
}
