import { z } from "zod";
import { suggestion } from "./nearestName";

/**
 * The service's search conditions, `{field: {op: value}}`, shared by template search
 * (`select_filters`, docs/service-contract.md §4.3) and offer search (the bundles query).
 * Each search declares its fields and their kinds; the types and the run-time check follow.
 */
export const FILTER_OPERATORS = ["eq", "neq", "lt", "lte", "gt", "gte", "in", "notin"] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FieldKind = "int" | "float" | "bool" | "string";
type ValueOfKind<K extends FieldKind> = K extends "int" | "float" ? number : K extends "bool" ? boolean : string;

/** The value type of `field` among `fields`. */
export type FilterValue<Fields extends Record<string, FieldKind>, F extends keyof Fields> = ValueOfKind<Fields[F]>;

/** One field's condition: `{ gte: 8, lt: 64 }`, `{ in: ["a", "b"] }`. */
export type FilterCondition<T> = {
    eq?: T;
    neq?: T;
    lt?: T;
    lte?: T;
    gt?: T;
    gte?: T;
    in?: T[];
    notin?: T[];
};

/** Conditions on `fields`, each typed by its field, so `{ id: { eq: "7" } }` does not compile. */
export type Filters<Fields extends Record<string, FieldKind>> = { [F in keyof Fields]?: FilterCondition<FilterValue<Fields, F>> };

function valueSchema(kind: FieldKind): z.ZodType {
    switch (kind) {
        case "int":
            return z.number().int();
        case "float":
            return z.number();
        case "bool":
            return z.boolean();
        case "string":
            return z.string();
    }
}

/**
 * `schema` (a condition, `{op: value}`) with an issue at each key that is not a search operator
 * (`gtee`, `ge`), naming the operators there are. Checked whatever else is wrong with the
 * condition (a refinement runs only on a value without issues otherwise), so a typo is told at
 * once beside a bad value. The one check of operators, for every search's conditions (and so for
 * the filters a template keeps, `extra_filters`, which are an offer search's).
 */
function operatorsChecked<S extends z.ZodType<Record<string, unknown>>>(schema: S): S {
    return schema.superRefine((condition, ctx) => {
        for (const operator of Object.keys(condition).filter((key) => !(FILTER_OPERATORS as readonly string[]).includes(key))) {
            ctx.addIssue({ code: "custom", path: [operator], message: `"${operator}" is not a search operator: expected one of ${FILTER_OPERATORS.join(", ")}` });
        }
    }, CHECKED_WHATEVER_ELSE_FAILED) as S;
}

/**
 * A refinement's option to run it whenever the value is an object, even when another part of it
 * failed (zod runs one only on a value without issues otherwise): a misspelt key is then told
 * beside a bad value, not after it is mended. Only an object has keys; anything else has its own
 * issue already.
 */
const CHECKED_WHATEVER_ELSE_FAILED = {
    when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null && !Array.isArray(payload.value),
};

/** What an operator of a field of this kind takes, in words: "a number", "an array". */
function expected(kind: FieldKind, operator: FilterOperator): string {
    if (operator === "in" || operator === "notin") return "an array";
    return kind === "int" || kind === "float" ? "a number" : kind === "bool" ? "a boolean" : "a string";
}

/**
 * One field's condition: `{ gte: 8, lt: 64 }`, `{ in: ["a", "b"] }`, with at least one operator
 * holding a value. JSON drops an undefined value, so `{ eq: undefined }` would go out as `{}`, a
 * condition that holds for every record: `creator_id: { eq: me?.id }` read before `me` was set
 * would search everyone's templates. An empty `in` matches nothing and an empty `notin` excludes
 * nothing, neither what a caller meant; both are refused too.
 */
function conditionSchema(kind: FieldKind) {
    const value = valueSchema(kind);
    const list = z.array(value).min(1, { message: "expected at least one value (an empty list is refused: it would match nothing or exclude nothing)" });
    // Loose, so that a misspelt operator is refused by operatorsChecked with the list of operators,
    // rather than as an "unknown property" that says nothing of what is expected.
    return operatorsChecked(
        z.looseObject({
            eq: value.optional(),
            neq: value.optional(),
            lt: value.optional(),
            lte: value.optional(),
            gt: value.optional(),
            gte: value.optional(),
            in: list.optional(),
            notin: list.optional(),
        }),
    ).superRefine((condition, ctx) => {
        const given = Object.entries(condition);
        if (given.some(([, v]) => v !== undefined)) return;
        if (given.length === 0) {
            ctx.addIssue({ code: "custom", message: "expected at least one operator" });
            return;
        }
        for (const [operator] of given) {
            ctx.addIssue({ code: "custom", path: [operator], message: `expected ${expected(kind, operator as FilterOperator)}, got undefined` });
        }
    });
}

type ConditionSchema = ReturnType<typeof conditionSchema>;

/**
 * One condition schema per kind, shared by every field of that kind in every search (a schema
 * holds no state of a parse): the three searches' sixty-odd fields built their own when the
 * provider loaded, and zod compiled each one's parser on first use.
 */
const CONDITION_SCHEMAS = new Map<FieldKind, z.ZodOptional<ConditionSchema>>();

/** The optional condition on a field of this kind. */
function optionalCondition(kind: FieldKind): z.ZodOptional<ConditionSchema> {
    let schema = CONDITION_SCHEMAS.get(kind);
    if (!schema) {
        schema = conditionSchema(kind).optional();
        CONDITION_SCHEMAS.set(kind, schema);
    }
    return schema;
}

/**
 * Conditions on `fields`, `{ gpu_name: { eq: "RTX 4090" } }`, checked at run time (filters from
 * JavaScript or files). A field the search does not have is refused with the nearest one it has
 * (`gpu_nam`: did you mean `gpu_name`), wherever the filters sit in what is checked.
 */
export function filtersSchema<Fields extends Record<string, FieldKind>>(fields: Fields) {
    const names = Object.keys(fields);
    return z.looseObject(filtersShape(fields)).superRefine((filters, ctx) => {
        for (const key of Object.keys(filters).filter((k) => !names.includes(k))) {
            ctx.addIssue({ code: "custom", path: [key], message: `unknown property "${key}"${suggestion(key, names)}` });
        }
    }, CHECKED_WHATEVER_ELSE_FAILED);
}

/** The zod shape checking conditions on `fields` at run time, for filters from JavaScript or files. */
export function filtersShape<Fields extends Record<string, FieldKind>>(fields: Fields) {
    return Object.fromEntries(Object.entries(fields).map(([field, kind]) => [field, optionalCondition(kind)])) as Record<
        keyof Fields,
        z.ZodOptional<ConditionSchema>
    >;
}
