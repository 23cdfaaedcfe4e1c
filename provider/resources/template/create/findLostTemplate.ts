/** Recovering a create whose response was lost: the template it may have made, if it is ours. */
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateFields, TemplateRecord } from "../../../schemas/template";
import { findLostCreate } from "../../lostCreate";
import { isHeld } from "../common/templateHolders";
import { hasContent } from "../common/templateMapping";
import { ownedBy } from "../common/templateOwnership";

/** How far before the request, on the service's clock, a template's creation time may read (docs/design/template-create.md). */
const SERVICE_CLOCK_MARGIN_MS = 5_000;

/**
 * Whether the template was made by a request sent at `sentAt` (this machine's clock) or later, on
 * the service's clock; false when that clock is not known (docs/design/template-create.md).
 */
export function createdSince(vast: VastClient, record: TemplateRecord, sentAt: number): boolean {
    if (record.created_at === undefined || record.created_at === null) return false;
    const onService = vast.serviceTime(sentAt);
    return onService !== undefined && record.created_at * 1000 >= onService - SERVICE_CLOCK_MARGIN_MS;
}

/**
 * After a create whose response was lost: the template it may have made, found by creator, name and
 * image among those created since the request left, with the content that was sent (lostCreate.ts
 * retries the lookup while the service is still working on it, and while its responses fail).
 */
export function findLostTemplate(ctx: ProviderContext, vast: VastClient, fields: TemplateFields, sentAt: number): Promise<TemplateRecord | undefined> {
    return findLostCreate(ctx, {
        what: `template "${fields.name}"`,
        lookFor: `a template named "${fields.name}" with image ${fields.image}, created at ${new Date(sentAt).toISOString()} or later`,
        look: async () => {
            const me = await ctx.currentUserId();
            const candidates = (await vast.templates.search({ creator_id: { eq: me }, name: { eq: fields.name }, image: { eq: fields.image } }))
                // The account's own, whatever the search returned (it also lists other users' public templates).
                .filter((t) => ownedBy(t, me) && createdSince(vast, t, sentAt) && hasContent(t, fields) && !isHeld(t.id))
                .sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0));
            if (candidates.length > 1) ctx.log.warn(`several templates match the lost create of "${fields.name}"; adopting ${candidates[0].id}`);
            return candidates[0];
        },
    });
}
