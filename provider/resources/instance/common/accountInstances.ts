import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceRecord } from "../../../schemas/instance";
import { answeredLook, lookupDeadline } from "../../retriedLook";

// The account's instances with their env, listed once and shared by every create of the process
// that looks for an interrupted create's instance: one listing per `up` and account (Pulumi starts
// a provider process per command, and its stack lock keeps another `up` of the stack out meanwhile).

const listings = new Map<string, Promise<InstanceRecord[]>>();

/**
 * Every instance the key's account has, each with its env (a record the list shows without it is
 * read on its own). A listing that fails is tried again until its deadline (retriedLook.ts), then
 * fails, and is not kept.
 */
export function accountInstances(ctx: Pick<ProviderContext, "clock" | "log" | "keyMark">, vast: VastClient): Promise<InstanceRecord[]> {
    const key = `${vast.baseUrl}\0${ctx.keyMark()}`;
    const kept = listings.get(key);
    if (kept) return kept;
    const list = answeredLook(ctx, () => listWithEnv(vast), lookupDeadline(ctx.clock), "listing the account's instances", (e) => e);
    listings.set(key, list);
    list.catch(() => listings.get(key) === list && listings.delete(key));
    return list;
}

/**
 * The next look lists again: a create of this process ended without handing the engine what it
 * may have rented, which a listing taken before it would not show to the next `up` in this process.
 */
export function listingStale(ctx: Pick<ProviderContext, "keyMark">, vast: VastClient): void {
    listings.delete(`${vast.baseUrl}\0${ctx.keyMark()}`);
}

async function listWithEnv(vast: VastClient): Promise<InstanceRecord[]> {
    const listed = await vast.instances.listAll({});
    const records: InstanceRecord[] = [];
    for (const record of listed) records.push(record.extra_env ? record : ((await vast.instances.show(record.id)) ?? record));
    return records;
}
