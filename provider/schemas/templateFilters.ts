import { z } from "zod";

/** Operators of `select_filters` (docs/service-contract.md §4.3); `in` and `notin` take arrays. */
export const FILTER_OPERATORS = ["eq", "neq", "lt", "lte", "gt", "gte", "in", "notin"] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Filterable template fields and their types (docs/service-contract.md §4.3). */
export const TEMPLATE_FILTER_FIELDS = {
    creator_id: "int",
    created_at: "float",
    count_created: "int",
    default_tag: "string",
    docker_login_repo: "string",
    id: "int",
    image: "string",
    jup_direct: "bool",
    hash_id: "string",
    name: "string",
    recent_create_date: "float",
    recommended_disk_space: "float",
    recommended: "bool",
    ssh_direct: "bool",
    tag: "string",
    use_ssh: "bool",
} as const;

export type TemplateFilterField = keyof typeof TEMPLATE_FILTER_FIELDS;
type FieldKind = (typeof TEMPLATE_FILTER_FIELDS)[TemplateFilterField];
type ValueOfKind<K extends FieldKind> = K extends "int" | "float" ? number : K extends "bool" ? boolean : string;
export type TemplateFilterValue<F extends TemplateFilterField> = ValueOfKind<(typeof TEMPLATE_FILTER_FIELDS)[F]>;

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

/** The whole `select_filters` object, typed per field so `{ id: { eq: "7" } }` does not compile. */
export type TemplateFilters = { [F in TemplateFilterField]?: FilterCondition<TemplateFilterValue<F>> };

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

function conditionSchema(kind: FieldKind) {
    const value = valueSchema(kind);
    return z
        .strictObject({
            eq: value.optional(),
            neq: value.optional(),
            lt: value.optional(),
            lte: value.optional(),
            gt: value.optional(),
            gte: value.optional(),
            in: z.array(value).optional(),
            notin: z.array(value).optional(),
        })
        .refine((c) => Object.keys(c).length > 0, { message: "expected at least one operator" });
}

/** Run-time check of the same rules, for filters that come from JavaScript or from files. */
export const templateFiltersSchema = z.strictObject(
    Object.fromEntries(
        Object.entries(TEMPLATE_FILTER_FIELDS).map(([field, kind]) => [field, conditionSchema(kind).optional()]),
    ) as Record<TemplateFilterField, z.ZodOptional<ReturnType<typeof conditionSchema>>>,
);
