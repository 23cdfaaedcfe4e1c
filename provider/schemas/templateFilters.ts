import { z } from "zod";
import { FilterValue, Filters, filtersSchema } from "./filters";

export { FILTER_OPERATORS } from "./filters";
export type { FilterOperator, FilterCondition } from "./filters";

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
export type TemplateFilterValue<F extends TemplateFilterField> = FilterValue<typeof TEMPLATE_FILTER_FIELDS, F>;

/** The whole `select_filters` object, typed per field so `{ id: { eq: "7" } }` does not compile. */
export type TemplateFilters = Filters<typeof TEMPLATE_FILTER_FIELDS>;

/**
 * Run-time check of the same rules, for filters that come from JavaScript or from files. Typed as
 * what it checks (its values' kinds are checked at run time, beyond what zod's inferred type
 * says), so its declaration names zod by `import { z } from "zod"` as the package's others do: an
 * inferred one named `zod/v4/core`, which a program on node10 resolution (the default of
 * `pulumi new typescript`) cannot compile without esModuleInterop.
 */
export const templateFiltersSchema: z.ZodType<TemplateFilters> = filtersSchema(TEMPLATE_FILTER_FIELDS).superRefine((filters, ctx) => {
    // A field given without its condition (`{ creator_id: me?.condition }`) is dropped by JSON, and
    // the search then matches every template, other users' public ones included: one of those could
    // be taken for the account's own. (An offer search keeps its default for such a field instead.)
    for (const [field, condition] of Object.entries(filters)) {
        if (condition === undefined) ctx.addIssue({ code: "custom", path: [field], message: "has no condition (undefined): give one, or leave the field out" });
    }
}) as z.ZodType<TemplateFilters>;
