/** Sending one template edit, settling a stale hash or a lost response. */
import { VastInvalidArgsError, VastNotFoundError, VastOutcomeUnknownError, VastRequestRejectedError } from "../../../client/errors";
import { VastClient } from "../../../client/vastClient";
import { mayHaveActed } from "../../../client/retryPolicy";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateFields, TemplateRecord } from "../../../schemas/template";
import { hasContent } from "./templateMapping";
import { ownTemplate } from "./templateOwnership";
import { ProviderError } from "../../../errors/providerError";

/**
 * The one home of an edit: `fields` sent to the template whose hash is `hashId`. A stale hash or a
 * lost response is settled by reading the template by its numeric id, and the edit is sent once
 * more with the current hash if the template lacks it (docs/design/template-edits.md).
 */
export async function editTemplate(
    ctx: ProviderContext,
    vast: VastClient,
    templateId: number,
    hashId: string,
    fields: Partial<TemplateFields>,
    /** The template's creator as state knows it (see templateOwnership.ts). */
    owner?: number,
): Promise<{ id?: number; hash_id: string }> {
    const editWith = (hash: string) => vast.templates.edit({ ...fields, hash_id: hash });
    try {
        return await editWith(hashId);
    } catch (e) {
        // The live service says a stale hash with a 400, "Unable to Update Template. None found for
        // given Hash ID: ..." (its API reference); a not-found, or a 404 that does not say what is
        // missing, is read the same way. The look by numeric id settles it.
        const stale =
            e instanceof VastNotFoundError ||
            (e instanceof VastRequestRejectedError && (e.status === 404 || e.status === 410)) ||
            (e instanceof VastInvalidArgsError && /none found for given hash id/i.test(e.serviceMessage ?? ""));
        const lost = e instanceof VastOutcomeUnknownError;
        if (!stale && !lost) throw e;
        let current: TemplateRecord | undefined;
        try {
            current = await ownTemplate(ctx, vast, templateId, owner);
        } catch (looking) {
            // A lost edit that cannot be looked for may be on the template, under a new hash, or not.
            throw lost ? new TemplateEditUnsettledError(templateId, looking) : looking;
        }
        if (!current) {
            throw new ProviderError("deleted_elsewhere", `vastai: edit template ${templateId} failed: the template no longer exists; run \`pulumi refresh\``);
        }
        if (current.hash_id !== hashId && hasContent(current, fields)) return current;
        try {
            return await editWith(current.hash_id);
        } catch (resent) {
            throw mayHaveActed(resent) ? new TemplateEditUnsettledError(templateId, resent) : resent;
        }
    }
}

/**
 * An edit that may or may not have been made: the caller cannot tell the template's content or
 * hash from what it sent, and must look before trusting either (the Template provider records
 * `editUnconfirmed`).
 */
export class TemplateEditUnsettledError extends ProviderError {
    constructor(templateId: number, cause: unknown) {
        super(
            "edit_unsettled",
            `vastai: edit template ${templateId}: its answer was lost, and whether it was made could not be settled ` +
                `(${(cause as Error)?.message ?? cause}); the next \`pulumi up\` reads the template and edits it only where it differs from the program`,
            { cause },
        );
    }
}
