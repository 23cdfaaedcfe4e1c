import { z } from "zod";

/** Levenshtein distance, for "did you mean" on misspelt property names. */
function distance(a: string, b: string): number {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
        let prev = row[0];
        row[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const temp = row[j];
            row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
            prev = temp;
        }
    }
    return row[b.length];
}

export function suggestion(name: string, known: readonly string[]): string {
    const best = known
        .map((k) => ({ k, d: distance(name, k) }))
        .filter(({ d }) => d <= Math.max(2, Math.floor(name.length / 3)))
        .sort((x, y) => x.d - y.d)[0];
    return best ? `; did you mean "${best.k}"?` : "";
}

/**
 * Zod issues as one line for an error message: `templates.0.hash_id: Invalid input: expected
 * string, received undefined; ...`. `root` names the whole value when an issue is about all of it;
 * `prefix` is put before every path (a part of an answer checked on its own); `known`, the names
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
