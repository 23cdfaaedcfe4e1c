import * as pulumi from "@pulumi/pulumi";
import { TemplateRecord } from "../schemas/template";
import { VastClient } from "../client/vastClient";
import { TemplateFilters } from "../schemas/templateFilters";
import { refuseOutputs } from "./functionArgs";
import { DeepInput, FunctionOutputOptions, outputForm } from "./outputForm";
import { FunctionOptions, programClient } from "./programClient";
import type { TemplateFilterBuilder } from "./templateFilterBuilder";
import { codeShownOnFailure } from "../errors/providerError";

/**
 * Templates matching every condition (docs/service-contract.md §4.3), as the service returns them, in its field
 * names (the same names the filters use). As on the service, the answer includes other users'
 * public templates: add `creator_id` to keep to your own. Filters are checked before the request
 * is sent, so a value of the wrong type fails here, naming the field. Needs `user_read`.
 *
 *     const mine = await vast.searchTemplates(templateFilters().where("creator_id").eq(me.id));
 *     const big = await vast.searchTemplates({ recommended_disk_space: { gte: 64 } });
 */
export async function searchTemplates(
    filters: TemplateFilters | TemplateFilterBuilder = {},
    options?: FunctionOptions,
): Promise<TemplateRecord[]> {
    return codeShownOnFailure(() => {
        refuseOutputs("searchTemplates", "filters", filters);
        return templatesMatching(programClient("searchTemplates", options), conditionsOf(filters));
    });
}

/** The search itself, on a client: what the function above and the plugin's invoke both run. */
export function templatesMatching(client: VastClient, filters: TemplateFilters = {}): Promise<TemplateRecord[]> {
    return client.templates.search(filters);
}

/**
 * `searchTemplates` as an Output, the filters and options Inputs at any depth; a builder's values
 * are plain, so it is built first.
 *
 *     const mine = vast.searchTemplatesOutput({ creator_id: { eq: vast.getCurrentUserOutput().id } });
 */
export function searchTemplatesOutput(
    filters: DeepInput<TemplateFilters> | TemplateFilterBuilder = {},
    options?: FunctionOutputOptions,
): pulumi.Output<TemplateRecord[]> {
    // Built here: `pulumi.output` copies an object's own fields, and a builder's copy has no `build`.
    return outputForm(searchTemplates, conditionsOf(filters as TemplateFilters | TemplateFilterBuilder), options);
}

/**
 * The conditions of a builder, or the object as it is. A builder is anything with `build()`, not
 * an `instanceof` match: one made by a second copy of this package (two versions in
 * node_modules) is another class, and was checked as a filters object, failing on `conditions`.
 * `TemplateFilters` has no `build` field, so nothing else is taken for one.
 */
function conditionsOf(filters: TemplateFilters | TemplateFilterBuilder): TemplateFilters {
    const builder = filters as { build?: unknown } | null;
    return typeof builder?.build === "function" ? (filters as TemplateFilterBuilder).build() : (filters as TemplateFilters);
}
