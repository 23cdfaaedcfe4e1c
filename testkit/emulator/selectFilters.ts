/**
 * Evaluates `select_filters` (`{field: {op: value}}`) against records, with the contract's eight
 * operators. `fieldTypes` says which fields may be filtered and what their values must be; a
 * filter that breaks those rules is an error message, as the service would answer with a 400.
 */
export type FieldType = "int" | "float" | "string" | "bool";

const OPERATORS = new Set(["eq", "neq", "lt", "lte", "gt", "gte", "in", "notin"]);

/**
 * A number written as a string (`"20"`, `"0.5"`), which the live service takes where a number is
 * due: the vendor CLI sends its query's values (`num_gpus>=1` as `{"gte": "1"}`) and some
 * arguments (`--disk_space 20`) that way.
 */
export function asNumber(value: unknown): unknown {
    return typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

function typeOk(raw: unknown, type: FieldType): boolean {
    const value = type === "int" || type === "float" ? asNumber(raw) : raw;
    switch (type) {
        case "int":
            return typeof value === "number" && Number.isInteger(value);
        case "float":
            return typeof value === "number";
        case "bool":
            return typeof value === "boolean";
        case "string":
            return typeof value === "string";
    }
}

/**
 * Returns an error message, or undefined when the filter is well formed. Without `fieldTypes`, only
 * the shape `{field: {op: value}}` is checked (a template's `extra_filters`, on any offer field).
 */
export function validateFilters(filters: unknown, fieldTypes?: Record<string, FieldType>, name = "select_filters"): string | undefined {
    if (!filters || typeof filters !== "object" || Array.isArray(filters)) {
        return `${name} must be a JSON object`;
    }
    for (const [field, condition] of Object.entries(filters)) {
        const type = fieldTypes ? fieldTypes[field] : undefined;
        if (fieldTypes && !type) return `cannot filter on ${field}`;
        if (!condition || typeof condition !== "object" || Array.isArray(condition)) {
            return `filter on ${field} must be an object of operators`;
        }
        // Refused, not read as "no condition": `{}` held for every record, so a client that sent it
        // by mistake (an undefined value JSON dropped) saw every record here and no error.
        if (Object.keys(condition).length === 0) return `filter on ${field} has no operator`;
        for (const [op, value] of Object.entries(condition)) {
            if (!OPERATORS.has(op)) return `unknown operator ${op} on ${field}`;
            if (op === "in" || op === "notin") {
                if (!Array.isArray(value) || (type && !value.every((v) => typeOk(v, type)))) {
                    return `${field} ${op} takes an array${type ? ` of ${type}` : ""}`;
                }
            } else if (type && !typeOk(value, type)) {
                return `${field} ${op} takes a ${type}`;
            }
        }
    }
    return undefined;
}

export function matchesFilters(record: Record<string, unknown>, filters: Record<string, Record<string, unknown>>): boolean {
    return Object.entries(filters).every(([field, condition]) =>
        Object.entries(condition).every(([op, want]) => compare(record[field], op, want)),
    );
}

function compare(actual: unknown, op: string, wanted: unknown): boolean {
    // Against a number, a number written as a string counts as that number.
    const want = typeof actual === "number" ? (Array.isArray(wanted) ? wanted.map(asNumber) : asNumber(wanted)) : wanted;
    switch (op) {
        case "eq":
            return actual === want;
        case "neq":
            return actual !== want;
        case "in":
            return (want as unknown[]).includes(actual);
        case "notin":
            return !(want as unknown[]).includes(actual);
    }
    if (actual === null || actual === undefined) return false;
    const a = actual as number | string;
    const w = want as number | string;
    switch (op) {
        case "lt":
            return a < w;
        case "lte":
            return a <= w;
        case "gt":
            return a > w;
        case "gte":
            return a >= w;
    }
    return false;
}

/**
 * The `select_filters` query parameter of a search, parsed and checked against `fieldTypes`: the
 * filters (`{}` when absent), or the problem, as the service words it.
 */
export function filtersFromQuery(
    query: URLSearchParams,
    fieldTypes: Record<string, FieldType>,
): { filters: Record<string, Record<string, unknown>> } | { problem: string } {
    const raw = query.get("select_filters");
    let filters: unknown = {};
    if (raw !== null) {
        try {
            filters = JSON.parse(raw);
        } catch {
            return { problem: "select_filters is not valid JSON" };
        }
    }
    const problem = validateFilters(filters, fieldTypes);
    return problem ? { problem } : { filters: filters as Record<string, Record<string, unknown>> };
}
