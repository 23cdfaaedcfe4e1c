/** Sending one template create, and telling a new template from an existing one the service responds with. */
import { VastRequestRejectedError } from "../../../client/errors";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateFields, TemplateRecord } from "../../../schemas/template";
import { isHeld } from "../common/templateHolders";
import { createdSince } from "./findLostTemplate";

/**
 * Sends the create. The service responds to identical content with the account's existing
 * template, which is not this resource's to manage unless our own lost create (sent at
 * `lostSentAt`) made it or this account had deleted it (docs/design/template-create.md).
 */
export async function sendCreate(ctx: ProviderContext, vast: VastClient, fields: TemplateFields, lostSentAt: number | undefined): Promise<TemplateRecord> {
    const { template, existing, linkedNow } = await vast.templates.create(fields);
    if (!existing) return template;
    // Another account's (public) template can be the match too: it cannot be edited or
    // deleted from here, and is never what our lost create made, however recent.
    const me = await ctx.currentUserId().catch(() => undefined);
    const others = template.creator_id != null && me !== undefined && template.creator_id !== me;
    const mine = template.creator_id == null || (me !== undefined && template.creator_id === me);
    // The account's own template that this create linked to it again: one it had deleted
    // (a delete only unlinks), as a destroy and an `up` of the same program do. Linked to
    // the account by nothing else, it is no other resource's: taken back here.
    if (linkedNow && me !== undefined && template.creator_id === me && !isHeld(template.id)) {
        ctx.log.progress(`template ${template.id}, which this account deleted, has exactly this content: the service linked it again, and it is managed here`);
        return template;
    }
    if (!(mine && lostSentAt !== undefined && createdSince(vast, template, lostSentAt) && !isHeld(template.id))) {
        throw new VastRequestRejectedError(
            { operation: "create template", target: `"${fields.name}"` },
            `template ${template.id}${others ? ", made by another account," : ""} already has exactly this content (the service answered with it, and links it to this account). ` +
                `Identical templates are one template on Vast.ai: give this one different content (its name, for one)` +
                // A delete only unlinks a template from the account, so identical content can
                // also bring back one this account deleted, say by an earlier destroy: deleting
                // it again would not help, adopting it would.
                (others ? "" : `; or, if no other resource manages it (a template this account deleted comes back this way), set adopt: ${template.id} to manage it here`),
        );
    }
    return template;
}
