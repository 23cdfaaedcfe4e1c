/**
 * The workers the service's engine rents for a worker group: ordinary instances of the account,
 * which name their group and endpoint (`workergroup_id`, `endpoint_id`: the emulator's guess, the
 * field is not documented), and carry the group's create key in their env, from its launch
 * arguments: either finds them, so a wrong guess about the field cannot leave one running. A
 * deleted group's workers may outlive it (the vendor CLI warns so), so a delete destroys them itself.
 */
import { VastClient } from "../../client/vastClient";
import { ProviderContext } from "../../dynamic/context";
import { ProviderError } from "../../errors/providerError";
import { InstanceRecord } from "../../schemas/instance";
import { destroyConfirmed } from "../instance/common/instanceRemoval";

/** Whose workers: a worker group's (with the key its launch arguments give its workers, when known), or every group's of an endpoint. */
export type WorkersOf = { workergroupId: number; key?: { env: string; value: string } } | { endpointId: number };

function isWorkerOf(instance: InstanceRecord, of: WorkersOf): boolean {
    if (!("workergroupId" in of)) return instance.endpoint_id === of.endpointId;
    const { key } = of;
    return instance.workergroup_id === of.workergroupId || (key !== undefined && (instance.extra_env ?? []).some(([name, value]) => name === key.env && value === key.value));
}

const describe = (of: WorkersOf) => ("workergroupId" in of ? `worker group ${of.workergroupId}` : `endpoint ${of.endpointId}`);

/** The account's instances that are workers of `of`. */
export async function workersOf(vast: VastClient, of: WorkersOf): Promise<InstanceRecord[]> {
    const all = await vast.instances.listAll();
    return all.filter((i) => isWorkerOf(i, of));
}

/** Rounds of listing and destroying before a delete gives up, and the wait between them (live ms). */
const DESTROY_ROUNDS = 5;
const ROUND_WAIT_MS = 3000;

/**
 * Destroys the workers of `of` until the account lists none: those there when the delete began and
 * any the engine rented meanwhile. A destroy that fails is tried again next round; after the last,
 * the delete fails naming each instance still there, so the resource stays in state and the next
 * `pulumi destroy` goes on.
 */
export async function destroyWorkers(ctx: ProviderContext, vast: VastClient, of: WorkersOf): Promise<void> {
    const failures = new Map<number, string>();
    for (let round = 1; ; round++) {
        const workers = await workersOf(vast, of);
        if (workers.length === 0) return;
        if (round > DESTROY_ROUNDS) {
            const which = workers.map((w) => `instance ${w.id}${failures.has(w.id) ? ` (${failures.get(w.id)})` : ""}`).join(", ");
            throw new ProviderError(
                "workers_remain",
                `vastai: delete ${describe(of)} failed: its workers are still running after ${DESTROY_ROUNDS} rounds of destroying them: ${which}. ` +
                    "They are billed while they run: run `pulumi destroy` again, or destroy them in the Vast.ai console",
            );
        }
        ctx.log.progress(`${describe(of)}: destroying ${workers.length} worker${workers.length === 1 ? "" : "s"} (${workers.map((w) => w.id).join(", ")})`);
        for (const worker of workers) {
            await destroyConfirmed(ctx, vast, worker.id).then(
                () => failures.delete(worker.id),
                (e: Error) => failures.set(worker.id, e.message.replace(/^vastai: /, "")),
            );
        }
        await ctx.clock.sleep(ROUND_WAIT_MS);
    }
}
