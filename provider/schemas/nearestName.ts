/**
 * "Did you mean": the known name nearest a misspelt one. Here, at the bottom beside the schemas,
 * so that a schema can say it (a search's filter fields) as well as the messages built above it.
 */

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

/** `; did you mean "x"?` for the known name nearest `name`, or "" when none is near. */
export function suggestion(name: string, known: readonly string[]): string {
    const best = known
        .map((k) => ({ k, d: distance(name, k) }))
        .filter(({ d }) => d <= Math.max(2, Math.floor(name.length / 3)))
        .sort((x, y) => x.d - y.d)[0];
    return best ? `; did you mean "${best.k}"?` : "";
}
