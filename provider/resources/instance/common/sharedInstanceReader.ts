import { INSTANCE_PAGE_SIZE } from "../../../client/api/instances";
import { InstanceRecord } from "../../../schemas/instance";
import { BatchedReads, byId, sharedPerClient } from "../../batchedReads";

/**
 * Instance reads by id, sharing v1 list calls (batchedReads.ts): filtered on their ids (`id in
 * [...]`, a page of 25), or reading ahead the account's pages, the next one while they answer
 * reads. An instance missing from a list is not yet gone: the caller confirms with its own read,
 * since only the service's own words (a not-found) may drop a paid instance from state.
 */
export const sharedInstanceReader = sharedPerClient<InstanceRecord>(
    (vast) =>
        new BatchedReads({
            byIds: async (ids) => byId((await vast.instances.list({ filters: { id: { in: ids } }, limit: INSTANCE_PAGE_SIZE })).instances, ids),
            maxIds: INSTANCE_PAGE_SIZE,
            ahead: async (_owner, after) => {
                const page = await vast.instances.list({ limit: INSTANCE_PAGE_SIZE, afterToken: after });
                return { records: page.instances, next: page.nextToken };
            },
            writeMark: () => vast.writeMark(),
        }),
);
