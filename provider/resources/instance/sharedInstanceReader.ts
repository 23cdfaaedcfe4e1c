import { INSTANCE_PAGE_SIZE } from "../../client/api/instances";
import { InstanceRecord } from "../../schemas/instance";
import { BatchedReads, byId, sharedPerClient } from "../batchedReads";

/**
 * Instance reads by id, sharing one v1 list call (`id in [...]`, a page of 25) per round
 * (batchedReads.ts). An instance missing from the list is not yet gone: the caller confirms with
 * its own read, since only the service's own words (a not-found) may drop a paid instance from state.
 */
export const sharedInstanceReader = sharedPerClient<InstanceRecord>(
    (vast) =>
        new BatchedReads(
            async (ids) => byId((await vast.instances.list({ filters: { id: { in: ids } }, limit: INSTANCE_PAGE_SIZE })).instances, ids),
            INSTANCE_PAGE_SIZE,
        ),
);
