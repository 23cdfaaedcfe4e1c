import { VastInvalidArgsError } from "../client/errors";
import { FilterOperator, TemplateFilterField, TemplateFilterValue, TemplateFilters } from "../schemas/templateFilters";

/**
 * Builds the `select_filters` of a template search (docs/service-contract.md §4.3) a condition at a time, each
 * value typed by its field, so `.where("id").eq("7")` does not compile. The result is checked
 * again at run time, by `templateFiltersSchema`, when the search is made.
 *
 *     templateFilters().where("creator_id").eq(me.id).where("recommended_disk_space").gte(16).lt(64)
 *
 * Immutable: each step returns a new builder, so a shared base can be extended in several ways.
 */
export class TemplateFilterBuilder {
    constructor(protected readonly conditions: TemplateFilters = {}) {}

    /** Starts (or continues) the conditions on `field`; several fields are combined with AND. */
    where<F extends TemplateFilterField>(field: F): TemplateFieldFilter<F> {
        return new TemplateFieldFilter(field, this.conditions);
    }

    /**
     * The plain `{field: {op: value}}` object, a copy of its two levels. A value is kept as it is:
     * an undefined one, which a JSON copy would drop, so the search's check names it (`.eq(me?.id)`
     * before `me` was set); an Output, which `structuredClone` refuses, so `searchTemplatesOutput`
     * waits for it and `searchTemplates` names it.
     */
    build(): TemplateFilters {
        const copy = (operators: object) => Object.fromEntries(Object.entries(operators).map(([op, value]) => [op, Array.isArray(value) ? [...value] : value]));
        return Object.fromEntries(Object.entries(this.conditions).map(([field, operators]) => [field, copy(operators ?? {})])) as TemplateFilters;
    }
}

/** The conditions on one field; every operator takes that field's type (`in`/`notin` an array of it). */
export class TemplateFieldFilter<F extends TemplateFilterField> extends TemplateFilterBuilder {
    constructor(
        private readonly field: F,
        conditions: TemplateFilters,
    ) {
        super(conditions);
    }

    eq(value: TemplateFilterValue<F>): TemplateFieldFilter<F> {
        return this.with("eq", value);
    }
    neq(value: TemplateFilterValue<F>): TemplateFieldFilter<F> {
        return this.with("neq", value);
    }
    lt(value: TemplateFilterValue<F>): TemplateFieldFilter<F> {
        return this.with("lt", value);
    }
    lte(value: TemplateFilterValue<F>): TemplateFieldFilter<F> {
        return this.with("lte", value);
    }
    gt(value: TemplateFilterValue<F>): TemplateFieldFilter<F> {
        return this.with("gt", value);
    }
    gte(value: TemplateFilterValue<F>): TemplateFieldFilter<F> {
        return this.with("gte", value);
    }
    in(values: readonly TemplateFilterValue<F>[]): TemplateFieldFilter<F> {
        return this.with("in", [...values]);
    }
    notin(values: readonly TemplateFilterValue<F>[]): TemplateFieldFilter<F> {
        return this.with("notin", [...values]);
    }

    /** A second value for the same operator would silently replace the first: refused instead. */
    private with(operator: FilterOperator, value: unknown): TemplateFieldFilter<F> {
        const current: Record<string, unknown> = { ...this.conditions[this.field] };
        if (operator in current) {
            throw new VastInvalidArgsError(
                { operation: "build template filters" },
                `${this.field}.${operator} is already set; an operator takes one value (a second would replace the first)`,
                "invalid_input",
            );
        }
        return new TemplateFieldFilter(this.field, { ...this.conditions, [this.field]: { ...current, [operator]: value } });
    }
}

/** A new filter builder, empty or starting from `conditions`. */
export function templateFilters(conditions: TemplateFilters = {}): TemplateFilterBuilder {
    return new TemplateFilterBuilder(conditions);
}
