/** Recovering a create whose response was lost: the template it may have made, if it is ours. */
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateFields, TemplateRecord } from "../../../schemas/template";
import { findLostCreate } from "../../lostCreate";
import { isHeld } from "../shared/templateHolders";
import { holds } from "../shared/templateMapping";
import { ownedBy } from "../shared/templateOwnership";

/**
 * How far before the request, on the service's clock, a template's creation time may read. The
 * `Date` header that gives that clock is in whole seconds and stamped before the answer travels,
 * both of which put the estimate of the send earlier, not later; what is left is the creation
 * time's own rounding and room for a front end's clock to differ a little from the one that stamps
 * records. Kept small: an identical template another stack (same program, other stack) made within
 * this margin before the send would be taken for the lost one, and held by both.
 */
const SERVICE_CLOCK_MARGIN_MS = 5_000;

/**
 * Whether the template was made by a request sent at `sentAt` (this machine's clock) or later, as
 * far as its creation time tells, on the service's clock (known from any answer, the lookup's own
 * included). Without that clock nothing is taken for the lost create: this machine's clock may be
 * minutes off. The create is then sent again, and the service's "existing template found" answer
 * is refused with the advice to adopt it, which is safer than holding another stack's template.
 */
export function createdSince(vast: VastClient, record: TemplateRecord, sentAt: number): boolean {
    if (record.created_at === undefined || record.created_at === null) return false;
    const onService = vast.serviceTime(sentAt);
    return onService !== undefined && record.created_at * 1000 >= onService - SERVICE_CLOCK_MARGIN_MS;
}

/**
 * After a create whose answer was lost: the template it may have made, found by creator, name and
 * image among those created since the request left, with the content that was sent (lostCreate.ts
 * looks again while the service is still working on it, and while its answers fail).
 */
export function findLostTemplate(ctx: ProviderContext, vast: VastClient, fields: TemplateFields, sentAt: number): Promise<TemplateRecord | undefined> {
    return findLostCreate(ctx, {
        what: `template "${fields.name}"`,
        lookFor: `a template named "${fields.name}" with image ${fields.image}, created at ${new Date(sentAt).toISOString()} or later`,
        look: async () => {
            const me = await ctx.currentUserId();
            const candidates = (await vast.templates.search({ creator_id: { eq: me }, name: { eq: fields.name }, image: { eq: fields.image } }))
                // The account's own, whatever the search answered (it also lists other users' public templates).
                .filter((t) => ownedBy(t, me) && createdSince(vast, t, sentAt) && holds(t, fields) && !isHeld(t.id))
                .sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0));
            if (candidates.length > 1) ctx.log.warn(`several templates match the lost create of "${fields.name}"; adopting ${candidates[0].id}`);
            return candidates[0];
        },
    });
}
