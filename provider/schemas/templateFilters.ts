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

/** Run-time check of the same rules, for filters that come from JavaScript or from files. */
export const templateFiltersSchema = filtersSchema(TEMPLATE_FILTER_FIELDS);
