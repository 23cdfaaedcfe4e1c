/** Template reads by numeric id, batched: many reads in one process share one search. */
import { TemplateRecord } from "../../../schemas/template";
import { BatchedReads, byId, sharedPerClient } from "../../batchedReads";

/** Ids asked for in one template search, to keep its query string short. */
const MAX_IDS_PER_SEARCH = 100;

/**
 * Template reads by numeric id, sharing their searches (batchedReads.ts): by id (`id in [...]`), or
 * reading ahead every template the owner made (`creator_id`), one search however many. A search by
 * id finds other users' public templates too: the caller checks the owner.
 */
export const sharedTemplateReader = sharedPerClient<TemplateRecord>(
    (vast) =>
        new BatchedReads({
            byIds: async (ids) => byId(await vast.templates.search({ id: { in: ids } }), ids),
            maxIds: MAX_IDS_PER_SEARCH,
            ahead: async (owner) =>
                owner === undefined ? undefined : { records: (await vast.templates.search({ creator_id: { eq: owner } })).filter((t) => t.creator_id === owner) },
            writeMark: () => vast.writeMark(),
        }),
);
