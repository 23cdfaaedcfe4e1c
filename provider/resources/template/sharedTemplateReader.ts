import { TemplateRecord } from "../../schemas/template";
import { BatchedReads, byId, sharedPerClient } from "../batchedReads";

/** Ids asked for in one template search, to keep its query string short. */
const MAX_IDS_PER_SEARCH = 100;

/**
 * Template reads by numeric id, sharing one search per round (batchedReads.ts). The search finds
 * other users' public templates too: the caller checks the owner.
 */
export const sharedTemplateReader = sharedPerClient<TemplateRecord>(
    (vast) => new BatchedReads(async (ids) => byId(await vast.templates.search({ id: { in: ids } }), ids), MAX_IDS_PER_SEARCH),
);
