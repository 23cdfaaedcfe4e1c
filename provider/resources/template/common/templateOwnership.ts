/** Whether a template is the account's own, and reading one by numeric id. */
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateRecord } from "../../../schemas/template";
import { retryIfMissing } from "../../retryIfMissing";
import { assertSameAccount } from "../../sameAccount";
import { sharedTemplateReader } from "./sharedTemplateReader";

/**
 * Whether `record` was made by `userId` (a search by id also returns other users' public templates,
 * never to be edited or deleted); a record that does not say is taken as the account's.
 */
export function ownedBy(record: TemplateRecord, userId: number): boolean {
    return record.creator_id === undefined || record.creator_id === null || record.creator_id === userId;
}

/**
 * The template with this numeric id, and whose it is: the account's, another user's (public), or
 * none. Reads share their searches (sharedTemplateReader.ts). `owner`, the creator state keeps
 * (`creatorId`), saves asking the service whose key this is; state written before it existed has none.
 */
export async function templateById(
    ctx: ProviderContext,
    vast: VastClient,
    templateId: number,
    owner?: number,
): Promise<{ own: TemplateRecord } | { othersPublic: TemplateRecord } | { none: true }> {
    // Absence is the only sign the service gives of a deleted template: read again before it
    // counts. A retry asks the service afresh (only a first read is served from a read-ahead).
    const look = () => sharedTemplateReader(vast).get(templateId, owner);
    const record = await retryIfMissing(ctx.clock, await look(), look);
    if (!record) {
        await assertSameAccount(ctx, `template ${templateId}`, owner);
        return { none: true };
    }
    if (record.creator_id === undefined || record.creator_id === null) return { own: record };
    return ownedBy(record, owner ?? (await ctx.currentUserId())) ? { own: record } : { othersPublic: record };
}

/** The template with this numeric id if it is this account's; another user's public one is not, whatever its id. */
export async function ownTemplate(ctx: ProviderContext, vast: VastClient, templateId: number, owner?: number): Promise<TemplateRecord | undefined> {
    const found = await templateById(ctx, vast, templateId, owner);
    return "own" in found ? found.own : undefined;
}

/** Every template the account made, by id; other users' public templates, which the search also returns, left out. */
export async function accountTemplates(vast: VastClient, userId: number): Promise<TemplateRecord[]> {
    const found = await vast.templates.search({ creator_id: { eq: userId } });
    return found.filter((t) => t.creator_id === userId).sort((a, b) => a.id - b.id);
}
