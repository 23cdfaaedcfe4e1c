/**
 * A small serverless engine: each worker group of an active endpoint keeps its number of workers
 * rented from the offers its search matches, replaces one that exits or is destroyed, and releases
 * any beyond the endpoint's `max_workers`. Workers are ordinary instances of the account, rented
 * through the same create as `PUT /asks/{id}/`, so they are listed and priced like any other.
 *
 * Like instance statuses (instanceStatus.ts), it runs on the emulator's clock, not a timer: the
 * server calls `autoscale` before each request, and a group is looked at once per
 * `autoscalerRoundMs`. Load, cold versus hot workers and `test_workers` are not modelled.
 */
import { EmuEndpoint, EmuInstance, EmuWorkergroup, appendLog } from "./model";
import { EmulatorState, HandlerContext } from "./handlers/context";
import { createInstance, destroyInstance } from "./handlers/instances";
import { offerView } from "./handlers/offers";
import { findVisibleByHash, findVisibleById } from "./handlers/templates";
import { statusAt } from "./instanceStatus";
import { parseLaunchArgs } from "./searchParams";
import { matchesFilters } from "./selectFilters";

/** Statuses that never reach `running` (contract §3): the engine releases such a worker and rents another. */
const LOST = ["exited", "unknown", "offline"];

export function autoscale(emu: EmulatorState, now: number): void {
    if (emu.options.autoscalerIdle) return;
    const model = emu.model;
    for (const group of model.workergroups.values()) {
        if (group.deleted || now < group.nextRoundAt) continue;
        const endpoint = model.endpoints.get(group.endpointId);
        // A suspended or stopped endpoint's engine manages nothing (the vendor's pricing page).
        if (!endpoint || endpoint.deleted || endpoint.settings.endpoint_state !== "active") continue;
        const ctx = ownerContext(emu, group.ownerId, now);
        if (!ctx) continue;
        group.nextRoundAt = now + emu.options.autoscalerRoundMs;
        round(ctx, endpoint, group);
    }
}

/** The account's own full-access key, as the engine acts for the account. */
function ownerContext(emu: EmulatorState, ownerId: number, now: number): HandlerContext | undefined {
    const user = emu.model.users.get(ownerId);
    const key = user && emu.model.keys.get(user.apiKey);
    if (!user || !key) return undefined;
    return { emu, caller: { user, key }, params: [], query: new URLSearchParams(), body: undefined, now };
}

function round(ctx: HandlerContext, endpoint: EmuEndpoint, group: EmuWorkergroup): void {
    const model = ctx.emu.model;
    const note = (text: string) => {
        appendLog(group.log, ctx.now, `workergroup ${group.id}: ${text}`);
        appendLog(endpoint.log, ctx.now, `workergroup ${group.id}: ${text}`);
    };
    const timings = ctx.emu.options.instanceTimings;
    for (const lost of model.workersOf(group.id).filter((w) => LOST.includes(String(statusAt(w, ctx.now, timings))))) {
        destroyInstance({ ...ctx, params: [String(lost.id)] });
        note(`released worker ${lost.id} (${String(statusAt(lost, ctx.now, timings))})`);
    }
    const workers = model.workersOf(group.id);
    const others = [...model.workergroups.values()]
        .filter((g) => !g.deleted && g.endpointId === endpoint.id && g.id !== group.id)
        .reduce((n, g) => n + model.workersOf(g.id).length, 0);
    const target = Math.max(0, Math.min(wanted(endpoint, group), endpoint.settings.max_workers - others));

    // Too many (a lower max_workers or cold_workers): "the engine will remove the GPU with the worst
    // price-performance first" (the vendor's pricing page); the newest among equals.
    const byValue = [...workers].sort((a, b) => valueOf(ctx, b) - valueOf(ctx, a) || a.id - b.id);
    for (const extra of byValue.slice(target).reverse()) {
        destroyInstance({ ...ctx, params: [String(extra.id)] });
        note(`released worker ${extra.id} (above the group's ${target})`);
    }
    for (let n = workers.length; n < target; n++) {
        const problem = rentWorker(ctx, endpoint, group);
        if (problem) return note(`could not rent a worker: ${problem}`);
        const made = model.workersOf(group.id).at(-1) as EmuInstance;
        note(`rented worker ${made.id} on offer ${made.offerId}`);
    }
}

/** A worker's price-performance: its offer's `score` (DL performance per dollar, by reliability). */
function valueOf(ctx: HandlerContext, worker: EmuInstance): number {
    const offer = ctx.emu.model.offers.get(worker.offerId);
    return offer ? (offerView(offer, ctx.now).score as number) : 0;
}

/** The group's own `cold_workers` when it set one, else its endpoint's; never above the group's `max_workers`. */
function wanted(endpoint: EmuEndpoint, group: EmuWorkergroup): number {
    const count = group.settings.cold_workers ?? endpoint.settings.cold_workers;
    return Math.min(count, group.settings.max_workers ?? Infinity);
}

/** Rents one worker on the best offer the group's search matches; the reason when it cannot. */
function rentWorker(ctx: HandlerContext, endpoint: EmuEndpoint, group: EmuWorkergroup): string | undefined {
    const s = group.settings;
    const template =
        group.templateBy === "id" ? findVisibleById(ctx, s.template_id as number) : group.templateBy === "hash" ? findVisibleByHash(ctx, s.template_hash as string) : undefined;
    if (group.templateBy !== null && !template) return `template ${group.templateBy === "id" ? s.template_id : s.template_hash} not found`;
    const launch = parseLaunchArgs(s.launch_args ?? "");
    if ("problem" in launch) return launch.problem;

    const offer = bestOffer(ctx, { ...((template?.fields.extra_filters as Record<string, Record<string, unknown>>) ?? {}), ...group.searchQuery });
    if (!offer) return "no offer matches its search";
    const body = { client_id: "me", ...(template ? { template_hash_id: template.hash_id } : {}), ...launch.fields };
    const response = createInstance({ ...ctx, params: [String(offer)], body });
    if (response.status !== 200) return `the create on offer ${offer} was refused: ${JSON.stringify(response.body)}`;
    const made = ctx.emu.model.instances.get((response.body as { new_contract: number }).new_contract) as EmuInstance;
    made.worker = { endpointId: endpoint.id, workergroupId: group.id };
    return undefined;
}

/**
 * The rentable offer with the best `score` (the vendor CLI's default order) among those matching
 * `conditions`. A condition on a field the emulator's offers do not carry (`direct_port_count`,
 * in the vendor's own example) is passed over rather than matching nothing.
 */
function bestOffer(ctx: HandlerContext, conditions: Record<string, Record<string, unknown>>): number | undefined {
    const views = [...ctx.emu.model.offers.values()]
        .filter((offer) => offer.listing.rentable && ctx.now >= offer.freeAt)
        .map((offer) => offerView(offer, ctx.now));
    const known = Object.fromEntries(Object.entries(conditions).filter(([field]) => views.some((v) => field in v)));
    const best = views.filter((v) => matchesFilters(v, known)).sort((a, b) => (b.score as number) - (a.score as number) || (a.id as number) - (b.id as number))[0];
    return best?.id as number | undefined;
}
