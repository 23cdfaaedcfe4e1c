import { z } from "zod";
import {
    TemplateCreateRequest,
    TemplateEditRequest,
    TemplateRecord,
    templateCreateRequestSchema,
    templateCreateResponseSchema,
    templateEditRequestSchema,
    templateEditResponseSchema,
    templateSearchResponseSchema,
} from "../../schemas/template";
import { TemplateFilters, templateFiltersSchema } from "../../schemas/templateFilters";
import { ENDPOINTS } from "../endpoints";
import { VastRequestRejectedError } from "../errors";
import { saidUnsuccessful } from "../errorClassification";
import { Transport } from "../transport";
import { checkRequest } from "./checkRequest";
import { removal } from "./removal";
import { successResponseSchema } from "../../schemas/success";

/**
 * A search that matches nothing: the live service answers it HTTP 200 `{"success": false, "msg":
 * "No templates found"}` (its API reference for `GET /api/v0/template/`), the contract with an empty
 * `templates` list. Both are no templates; any other `success: false` is a failure.
 */
function foundNothing(e: unknown): boolean {
    return saidUnsuccessful(e) && e instanceof VastRequestRejectedError && e.serviceCode === undefined && /^no templates found\.?$/i.test(e.serviceMessage?.trim() ?? "");
}

/** Templates (docs/service-contract.md §4.3–4.6). */
export class TemplatesApi {
    constructor(private readonly transport: Transport) {}

    /**
     * Templates matching every condition in `filters`. The answer includes other users' public
     * templates, as the service's does.
     */
    async search(filters: TemplateFilters = {}): Promise<TemplateRecord[]> {
        const endpoint = ENDPOINTS.searchTemplates;
        const checked = checkRequest(endpoint, templateFiltersSchema, filters, "filters");
        try {
            const response = await this.transport.call(
                endpoint,
                { query: { select_filters: JSON.stringify(checked) } },
                templateSearchResponseSchema,
            );
            return response.templates;
        } catch (e) {
            if (foundNothing(e)) return [];
            throw e;
        }
    }

    /** The template with this numeric id, or undefined; found among public ones too, so match on id. */
    async get(templateId: number): Promise<TemplateRecord | undefined> {
        const found = await this.search({ id: { eq: templateId } });
        return found.find((t) => t.id === templateId);
    }

    /**
     * Creates a template. The service answers a create whose content matches an existing template
     * with that template (`success: false`, "Existing Template Found", its API reference says):
     * `existing` says so, so the caller can tell a new template from an old one; `linkedNow`, that
     * the response says the create linked it to the account ("User relationship added"): it was not
     * the account's before (one it deleted, since a delete only unlinks; or another account's).
     */
    async create(request: TemplateCreateRequest): Promise<{ template: TemplateRecord; existing: boolean; linkedNow: boolean }> {
        const endpoint = ENDPOINTS.createTemplate;
        const body = checkRequest(endpoint, templateCreateRequestSchema, request);
        const response = await this.transport.call(endpoint, { body, target: `"${request.name}"` }, templateCreateResponseSchema);
        // The live response for an existing one: `success: false`, "Existing Template Found: 123. User relationship added."
        const existing = response.success === false || /existing/i.test(response.msg ?? "");
        return { template: response.template, existing, linkedNow: existing && /user relationship added/i.test(response.msg ?? "") };
    }

    /**
     * Edits the template whose current hash is `request.hash_id`; the response carries the new hash.
     * The vendor clients re-send every field; an edit keeps the fields it omits (docs/service-contract.md
     * §4.5), so the request carries what changes and nothing else.
     */
    async edit(request: TemplateEditRequest): Promise<z.infer<typeof templateEditResponseSchema>["template"]> {
        const endpoint = ENDPOINTS.editTemplate;
        const body = checkRequest(endpoint, templateEditRequestSchema, request);
        const response = await this.transport.call(
            endpoint,
            { body, target: `with hash ${request.hash_id}` },
            templateEditResponseSchema,
        );
        return response.template;
    }

    /** Deletes by numeric id (the service rejects hash ids here). A template already gone is reported, not thrown. */
    async delete(templateId: number): Promise<{ alreadyGone: boolean }> {
        return removal(() =>
            this.transport.call(
                ENDPOINTS.deleteTemplate,
                { body: { template_id: templateId }, target: String(templateId) },
                successResponseSchema,
            ),
        );
    }
}
