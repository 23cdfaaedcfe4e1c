import { VastClient } from "../../../client/vastClient";
import { TemplateRecord } from "../../../schemas/template";
import { ProviderError } from "../../../errors/providerError";

/**
 * The template an instance starts from, found by `hash_id`. A hash names fixed content (an edit
 * makes a new one), so a lookup is kept for the life of the provider process: twenty instances
 * from one template cost one search, not twenty at the search endpoint's 3 s interval.
 */
const lookups = new WeakMap<VastClient, Map<string, Promise<TemplateRecord | undefined>>>();

async function search(vast: VastClient, hashId: string): Promise<TemplateRecord | undefined> {
    // The answer includes other users' public templates: match the hash itself.
    return (await vast.templates.search({ hash_id: { eq: hashId } })).find((t) => t.hash_id === hashId);
}

/**
 * The template whose hash is `hashId`, or undefined when the service (which answered) has none
 * visible to this account; a search that fails throws. A found one is kept for the process.
 */
export async function lookupTemplate(vast: VastClient, hashId: string): Promise<TemplateRecord | undefined> {
    let byHash = lookups.get(vast);
    if (!byHash) lookups.set(vast, (byHash = new Map()));
    let lookup = byHash.get(hashId);
    if (!lookup) byHash.set(hashId, (lookup = search(vast, hashId)));
    let found: TemplateRecord | undefined;
    try {
        found = await lookup;
    } finally {
        // Only a found template is kept: a failed search is tried again, and one not found may exist later.
        if (!found) byHash.delete(hashId);
    }
    return found;
}

/** Why a hash names no template, and what to do: a hash changes with every edit. */
export function templateNotVisible(hashId: string): string {
    return (
        `no template with hashId ${hashId} is visible to this account. A template's hashId changes with every edit: ` +
        "if its Template was edited outside Pulumi (the web console, another stack) since the last refresh, run `pulumi refresh` " +
        "so the Template has its current hashId; otherwise pass template.hashId from the Template resource"
    );
}

export async function findTemplate(vast: VastClient, hashId: string, offerId?: number): Promise<TemplateRecord> {
    const found = await lookupTemplate(vast, hashId);
    if (found) return found;
    throw new ProviderError("template_not_visible", `vastai: create instance${offerId === undefined ? "" : ` on offer ${offerId}`} failed: ${templateNotVisible(hashId)}`);
}
