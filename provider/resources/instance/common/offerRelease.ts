import { VastNotFoundError } from "../../../client/errors";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceCreateRequest } from "../../../schemas/instance";

// Offers this process freed, which the marketplace takes a moment to offer again: a create on one
// waits for it (docs/design/instance-create.md, "Freed offers"). Module state: one process serves an `up`.
const releasedAt = new Map<number, number>();

/** How long a freed offer is waited for, at live speed. */
const RETURN_WAIT_MS = 60_000;
const RETRY_EVERY_MS = 2000;

/**
 * The service's answer to a create on an offer that cannot be rented: no such offer (a not-found
 * answer on a route that names only the offer: `no_such_ask`), or a 410 (rented since). The one
 * rule for "the offer is not on the market": the wait for a freed offer, a search passing over a
 * taken one and a pinned offerId's message all follow it.
 */
export function offerNotOnMarket(e: unknown): boolean {
    return e instanceof VastNotFoundError || (e as { status?: number } | undefined)?.status === 410;
}

/** True when this process freed `offerId` (destroyed the instance on it): its absence from the market is then most likely that. */
export function freedHere(offerId: number): boolean {
    return releasedAt.has(offerId);
}

/** How long a freed offer is waited for, in seconds at live speed, for messages. */
export const RETURN_WAIT_S = RETURN_WAIT_MS / 1000;

export function rememberReleased(offerId: number | undefined): void {
    if (offerId !== undefined && Number.isInteger(offerId)) releasedAt.set(offerId, Date.now());
}

/**
 * `search`'s matches; while it finds none and this process freed an offer moments ago (a
 * delete-first replacement on a volume's machine, say), it is asked again until the wait runs out:
 * the freed offer may be the one it would find.
 */
export async function searchedOnceFreedReturn<T>(ctx: Pick<ProviderContext, "clock" | "log">, search: () => Promise<T[]>): Promise<T[]> {
    let told = false;
    for (;;) {
        const found = await search();
        const lastFreed = Math.max(0, ...releasedAt.values());
        if (found.length > 0 || ctx.clock.now() >= lastFreed + ctx.clock.scaled(RETURN_WAIT_MS)) return found;
        if (!told) ctx.log.progress("no offer matches yet, and an offer was freed moments ago: waiting for it to come back");
        told = true;
        await ctx.clock.sleep(RETRY_EVERY_MS);
    }
}

/**
 * Rents `offerId`. When `waitIfJustFreed` and this process freed the offer moments ago, "no such
 * offer" is taken as "not back yet" and the create is sent again until the wait runs out; any
 * other answer is returned or thrown as it is.
 */
export async function rentWhenFree(
    ctx: Pick<ProviderContext, "clock" | "log">,
    vast: VastClient,
    offerId: number,
    request: InstanceCreateRequest,
    waitIfJustFreed = true,
): Promise<{ instanceId: number; startedStopped: boolean }> {
    let told = false;
    for (;;) {
        try {
            return await vast.instances.create(offerId, request);
        } catch (e) {
            const freed = releasedAt.get(offerId);
            const waitUntil = freed === undefined ? 0 : freed + ctx.clock.scaled(RETURN_WAIT_MS);
            if (!offerNotOnMarket(e) || !waitIfJustFreed || ctx.clock.now() >= waitUntil) throw e;
            if (!told) ctx.log.progress(`offer ${offerId} was freed moments ago and is not rentable yet; waiting for it`);
            told = true;
            await ctx.clock.sleep(RETRY_EVERY_MS);
        }
    }
}
