import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs } from "../instanceArgs";
import { accountInstances } from "../common/accountInstances";
import { CREATE_KEY_ENV, CreateKey, keyOf, sameCreate } from "../common/createKey";
import { rememberFailedMachines } from "../common/failedMachines";
import { heldInState } from "../common/heldInstances";
import { destroyConfirmed } from "../common/instanceRemoval";
import { AVOID_ENV, ChosenOffer, PLACEMENT_ENV } from "../common/placement";
import { startState } from "../wait/readiness";
import { imagePullFailure } from "./imagePullFailure";

// The service as the record of interrupted creates: what an earlier create of this resource
// rented, on any machine, found in the account's instances by the key in their env
// (docs/design/service-record.md).

function envOf(record: InstanceRecord, name: string): string | undefined {
    return record.extra_env?.find(([key]) => key === name)?.[1];
}

/**
 * The instance an interrupted create with `key` rented, to be taken over instead of renting
 * another; undefined when there is none. One that will not run (an attempt whose destroy the stop
 * cut short) is destroyed, and its machine, with those its attempt avoided, avoided by this
 * create's search; of several that may run, the newest is taken and the others destroyed. One
 * whose image could not be pulled, with none to take over, fails the create: another rent would
 * pull the same image.
 */
export async function takeOverByKey(ctx: ProviderContext, vast: VastClient, desired: InstanceInputs, key: CreateKey | undefined): Promise<ChosenOffer | undefined> {
    if (key === undefined) return undefined;
    const listed = (await accountInstances(ctx, vast)).filter((r) => !heldInState(vast.baseUrl, r.id));
    const rented = listed.filter((r) => sameCreate(keyOf(r), key));
    if (key.generation === 0) warnOtherInputs(ctx, listed.filter((r) => keyOf(r)?.slot === key.slot && !rented.includes(r)));
    if (rented.length === 0) return undefined;
    const failed = rented.filter((r) => startState(r).kind === "failed");
    const notPulled = failed.filter((r) => failureOf(r) === "image_pull_failed");
    const [taken, ...extra] = rented.filter((r) => !failed.includes(r)).sort((a, b) => b.id - a.id);
    rememberFailedMachines(vast.baseUrl, desired, rented.flatMap(avoidedBy));
    const machineFailed = failed.filter((r) => !notPulled.includes(r));
    rememberFailedMachines(vast.baseUrl, desired, machineFailed.flatMap((r) => (r.machine_id != null ? [r.machine_id] : [])));
    for (const record of [...failed, ...extra]) {
        const state = startState(record);
        const why = state.kind === "failed" ? `will not run (${state.reason})` : `duplicates instance ${taken.id}`;
        ctx.log.warn(`instance ${record.id} was rented for this resource by a \`pulumi up\` that stopped, and ${why}: destroying it`);
        await destroyConfirmed(ctx, vast, record.id);
    }
    if (taken === undefined && notPulled.length > 0) {
        const where = desired.offerId !== undefined ? `on offer ${desired.offerId}` : "by offer search";
        throw imagePullFailure(desired, notPulled[0], where, `instance ${notPulled[0].id}, rented by a \`pulumi up\` that stopped,`);
    }
    if (taken === undefined) return undefined;
    const token = envOf(taken, PLACEMENT_ENV);
    ctx.log.warn(
        `instance ${taken.id} was rented for this resource by a \`pulumi up\` that stopped before its create returned ` +
            `(found by ${CREATE_KEY_ENV} in its env), so no state holds it: taken over instead of renting another`,
    );
    return { offerId: Number(token?.split("-")[0]) || desired.offerId || 0, takenOver: taken.id, machineId: taken.machine_id ?? undefined, token };
}

function failureOf(record: InstanceRecord): string | undefined {
    const state = startState(record);
    return state.kind === "failed" ? state.failure : undefined;
}

/** The machines the attempt that rented `record` avoided, which earlier attempts saw fail. */
function avoidedBy(record: InstanceRecord): number[] {
    return (envOf(record, AVOID_ENV) ?? "").split(",").filter((id) => /^\d+$/.test(id)).map(Number);
}

/**
 * Instances an interrupted create of this resource rented with other creation inputs: no state
 * holds them (none holds the resource), but the program no longer asks for them, so they are named
 * rather than taken over or destroyed.
 */
function warnOtherInputs(ctx: ProviderContext, others: InstanceRecord[]): void {
    for (const record of others) {
        ctx.log.warn(
            `instance ${record.id} was rented for this resource by a \`pulumi up\` that stopped, from inputs the program has changed since, ` +
                "and no state holds it: it is not taken over. Destroy it in the Vast.ai console (or `vastai destroy instance " +
                `${record.id}\`) if nothing else uses it, or put the old inputs back to take it over`,
        );
    }
}
