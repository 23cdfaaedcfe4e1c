import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceCreateRequest } from "../../../schemas/instance";
import { LostCreateUndecidedError } from "../../lostCreate";
import { destroyConfirmed } from "../common/instanceRemoval";
import { failedMachines, rememberFailedMachines } from "../common/failedMachines";
import { RETURN_WAIT_S, freedHere, offerNotOnMarket } from "../common/offerRelease";
import { InstanceInputs } from "../instanceArgs";
import { InstanceNotReadyError, Started, onExisting, untilStarted } from "../wait/untilRunning";
import { imagePullFailure } from "./imagePullFailure";
import { Made, PlannedCreate, labelAfterCreate } from "./createRequest";
import { OfferChoice } from "./offerChoice";
import { ChosenOffer, PLACEMENT_ENV, instancesPlacedBy, withAvoided, withPlacementToken } from "../common/placement";
import { Rent, rentInstance } from "./rentInstance";
import { ProviderError, withMore } from "../../../errors/providerError";

// The attempts of one instance create: rent, wait until running, and when the instance will not
// run, destroy it and try another machine; when its image could not be pulled, destroy it and fail.

/**
 * Rents on the offers `choice` gives until an instance runs (or, not waited for, exists), up to
 * `maxCreateAttempts`; an instance that will not run is destroyed before the next attempt. Each
 * rent carries the machines earlier attempts saw fail, for an `up` that takes the create over.
 */
export async function rentUntilRunning(
    ctx: ProviderContext,
    vast: VastClient,
    desired: InstanceInputs,
    plan: PlannedCreate,
    choice: OfferChoice,
): Promise<Made> {
    const attempts = new CreateAttempts(ctx, vast, desired, choice);
    for (let attempt = 1; attempt <= attempts.max; attempt++) {
        const chosen = await attempts.nextOffer(attempt);
        const request = withAvoided(withPlacementToken(plan.request, chosen.offerId, chosen.token), attempts.avoided);
        let instanceId = chosen.takenOver;
        if (instanceId === undefined) {
            const rented = await attempts.rent(chosen, request, attempt);
            if (rented === "taken") attempt--; // nothing started: not an attempt
            if (typeof rented !== "number") continue;
            instanceId = rented;
        }
        const what = attempts.started(instanceId, chosen, attempt);
        await labelAfterCreate(vast, instanceId, desired, plan.request, what);
        // Not waited for when the program says so; one created stopped is waited for by the stop after the create.
        const started = desired.waitForRunning && !plan.createdStopped ? await untilStarted(ctx, vast, instanceId, desired, what) : undefined;
        if (started === undefined || started.kind === "running") return { instanceId, record: started?.record };
        await attempts.notRunning(started, instanceId, chosen, request, what, attempt);
    }
    throw attempts.exhausted();
}

/**
 * Before a create rents again in place of an instance that looked gone while starting, the
 * account's instances are listed once more, a different question from the reads that found it
 * gone: an instance they still show by its placement token may still run, and is kept in state
 * rather than paid for twice. A listing that fails keeps it too.
 */
async function notListed(vast: VastClient, instanceId: number, placed: InstanceCreateRequest, label: string | undefined, what: string): Promise<void> {
    const listed = await onExisting(instanceId, what, () => instancesPlacedBy(vast, label, placed.env![PLACEMENT_ENV]));
    if (listed.includes(instanceId)) {
        throw new InstanceNotReadyError(
            `vastai: ${what} looked gone while starting, but the account's instances still list it: it may still run, so it is ` +
                "kept in state. `pulumi refresh` drops it if it is gone",
            instanceId,
        );
    }
}

/**
 * The create's failure when the program's `offerId` cannot be rented (taken, or no such offer),
 * saying what to do. An offer this process freed (a replacement on the same offer, or an earlier
 * attempt's instance destroyed) is most likely not back yet; any other, rented by someone else or
 * gone (offer ids are short-lived). `firstAttempt`: nothing was rented by this create before.
 */
function pinnedOfferGone(e: Error, offerId: number, firstAttempt: boolean): Error {
    const said = e.message.replace(/[.\s]+$/, "");
    const why = freedHere(offerId)
        ? `Offer ${offerId} was freed by this \`pulumi up\` (its instance destroyed) and did not come back to the market within ${RETURN_WAIT_S} s: ` +
          "run `pulumi up` again to rent it once it is back, or give another offerId (searchOffers lists them)"
        : `Offer ${offerId} is not on the market: an offer leaves it when it is rented${firstAttempt ? ", and nothing was rented here" : ""}. ` +
          "Give a current offer id (searchOffers lists them), or rent by need with `offer` (a search) instead of `offerId`";
    return new ProviderError("offer_gone", `${said}. ${why}`, { cause: e });
}

/**
 * Offers a search chose that were taken since the search, passed over by one create at most. They
 * are not among `maxCreateAttempts`: a taken offer made nothing, and where other programs rent by
 * the same search (the same program's other stacks) the best matches go first, so a create may
 * meet several in a row. Bounded all the same: each costs a create call, 4.5 s apart at the live
 * service's pace. An offer refused for another reason counts as an attempt, since the same reason
 * (no credit, say) may refuse every offer.
 */
export const MAX_TAKEN_OFFERS = 10;


/** The attempts of one create, up to `maxCreateAttempts`; offers taken since the search are not among them. */
class CreateAttempts {
    /** What each attempt did, for the create's failure: nothing before it was left running. */
    private readonly done: string[] = [];
    private takenOffers = 0;
    /** The machines where this create's instances would not run, an interrupted create's it takes over first. */
    private readonly failedMachineIds: number[];
    /** The last attempt's instance when it looked gone: its offer still taken says it may still run. */
    private lookedGone: { instanceId: number; offerId: number } | undefined;

    constructor(
        private readonly ctx: ProviderContext,
        private readonly vast: VastClient,
        private readonly inputs: InstanceInputs,
        private readonly choice: OfferChoice,
    ) {
        this.failedMachineIds = [...failedMachines(vast.baseUrl, inputs)];
    }

    /** The machines this create avoids, carried by each rent for an `up` that takes it over. */
    get avoided(): readonly number[] {
        return this.failedMachineIds;
    }

    get max(): number {
        return this.inputs.maxCreateAttempts;
    }

    /** A failure that ends the create still says why there was a retry. */
    failed(e: unknown, attempt: number): unknown {
        return this.done.length === 0 ? e : withMore(e, this.earlier(attempt));
    }

    /** What the attempts before `attempt` did, for a failure that ends the create; empty on the first. */
    private earlier(attempt: number): string {
        return this.done.length === 0 ? "" : ` (on attempt ${attempt}; nothing before it was left running: ${this.done.join("; ")})`;
    }

    /** The create, as its failures name it. */
    private get where(): string {
        return this.inputs.offerId !== undefined ? `on offer ${this.inputs.offerId}` : "by offer search";
    }

    /** The offer attempt `attempt` rents (see offerChoice.ts). */
    async nextOffer(attempt: number): Promise<ChosenOffer> {
        try {
            return await this.choice.next();
        } catch (e) {
            throw this.failed(e, attempt);
        }
    }

    /**
     * Rents `chosen`: the instance made, or, when the rent made none, `taken` or `refused` (see
     * `rentFailed`). One whose outcome stays open ends the create.
     */
    async rent(chosen: ChosenOffer, request: InstanceCreateRequest, attempt: number): Promise<number | "taken" | "refused"> {
        const { ctx, vast, inputs } = this;
        let rented: Rent;
        try {
            rented = await rentInstance(ctx, vast, chosen, request, inputs);
        } catch (e) {
            return this.rentFailed(e, chosen, attempt);
        }
        if (rented.instanceId === undefined) return this.rentFailed(rented.notMade, chosen, attempt);
        return rented.instanceId;
    }

    /**
     * A rent that failed: `taken` (the offer was rented since the search; not an attempt) or
     * `refused` (an attempt) when the next offer is to be tried; otherwise it throws the create's failure.
     */
    private rentFailed(e: unknown, chosen: ChosenOffer, attempt: number): "taken" | "refused" {
        const { offerId } = chosen;
        // A create that may have made an instance is named by its own error, not hidden behind this one.
        if (this.lookedGone?.offerId === offerId && !(e instanceof LostCreateUndecidedError)) {
            throw new InstanceNotReadyError(
                `vastai: instance ${this.lookedGone.instanceId} on offer ${offerId} looked gone while starting, but renting its offer again failed ` +
                    `(${(e as Error).message}): it may still run, so it is kept in state. \`pulumi refresh\` drops it if it is gone`,
                this.lookedGone.instanceId,
            );
        }
        const refused = this.choice.rentRefused(chosen, e);
        if (refused === "taken") {
            this.done.push(`offer ${offerId} taken since the search`);
            if (++this.takenOffers >= MAX_TAKEN_OFFERS) {
                throw new ProviderError(
                    "offer_gone",
                    `vastai: create instance by offer search failed: ${this.takenOffers} offers it chose were taken since the search, ` +
                        `and nothing was rented (${this.done.join("; ")}). Widen the search, or run \`pulumi up\` again`,
                );
            }
            this.ctx.log.progress(`offer ${offerId} was taken since the search; trying the next match`);
            return "taken";
        }
        if (refused === "refused") {
            this.ctx.log.progress(`offer ${offerId} could not be rented (${(e as Error).message}); trying the next match`);
            this.done.push(`attempt ${attempt}: offer ${offerId} ${(e as Error).message}`);
            return "refused";
        }
        // The program's own offerId is not to be had: say why, and what to give instead.
        if (this.inputs.offerId !== undefined && offerNotOnMarket(e)) throw this.failed(pinnedOfferGone(e as Error, offerId, this.done.length === 0), attempt);
        throw this.failed(e, attempt);
    }

    /** The attempt's instance exists (rented, or taken over): its progress line, and its name for messages. */
    started(instanceId: number, chosen: ChosenOffer, attempt: number): string {
        const what = `instance ${instanceId} on offer ${chosen.offerId}`;
        const max = this.max;
        this.ctx.log.progress(`${what} ${chosen.takenOver !== undefined ? "taken over" : "created"}${max > 1 ? ` (attempt ${attempt} of ${max})` : ""}`);
        return what;
    }

    /**
     * The attempt's instance will not run, or looked gone: destroyed (by search, one that looked
     * gone too: the next rent goes elsewhere), its machine avoided. One
     * that looked gone but is still listed is kept in state instead (see `notListed`).
     */
    async notRunning(started: Exclude<Started, { kind: "running" }>, instanceId: number, chosen: ChosenOffer, request: InstanceCreateRequest, what: string, attempt: number): Promise<void> {
        if (started.kind === "failed" && started.failure === "image_pull_failed") return this.imageNotPulled(started, instanceId, chosen, what, attempt);
        const { ctx, vast, inputs } = this;
        const { offerId } = chosen;
        // Listed under the label it has: the create's, or the program's when a long one was set by an edit.
        if (started.kind === "gone") await notListed(vast, instanceId, request, request.label ?? inputs.label, what);
        if (started.kind === "gone" && inputs.offerId === undefined) {
            // By search the next rent goes to another offer, whose answer says nothing of this one
            // (a pinned offer still held does): destroyed to be sure; one really gone answers not-found, which reads confirm.
            const { alreadyGone } = await onExisting(instanceId, what, () => destroyConfirmed(ctx, vast, instanceId, offerId));
            if (!alreadyGone) ctx.log.warn(`${what} looked gone while starting, but its destroy found it; destroyed before renting another`);
        }
        this.choice.listStale();
        this.done.push(`attempt ${attempt}: ${what} ${started.reason}`);
        this.lookedGone = started.kind === "gone" ? { instanceId, offerId } : undefined;
        if (started.kind === "failed") {
            ctx.log.progress(`${what} will not run: ${started.reason}; destroying it`);
            this.failedMachineIds.push(...[started.record.machine_id ?? chosen.machineId].filter((id): id is number => id != null));
            rememberFailedMachines(vast.baseUrl, inputs, this.failedMachineIds);
            // A destroy that fails leaves the create unfinished: state says so, and the next `up` finishes it.
            const doing = {
                what: `it would not run (${started.reason}), and destroying it${attempt < this.max ? " before the next attempt" : ""}`,
                record: started.record,
                failedMachineIds: this.failedMachineIds,
            };
            await onExisting(instanceId, what, () => destroyConfirmed(ctx, vast, instanceId, offerId), doing);
        }
    }

    /**
     * The attempt's instance could not pull its image: the program's mistake, which every machine
     * would repeat. Destroyed, its machine not blamed, and the create fails naming `image`. One
     * whose destroy fails is kept in state (not marked unfinished: a next `up` would rent the same
     * image again); correcting `image` replaces it.
     */
    private async imageNotPulled(started: Extract<Started, { kind: "failed" }>, instanceId: number, chosen: ChosenOffer, what: string, attempt: number): Promise<never> {
        const { ctx, vast, inputs } = this;
        ctx.log.progress(`${what} could not pull its image: ${started.reason}; destroying it, and trying no other machine`);
        this.choice.listStale();
        try {
            await destroyConfirmed(ctx, vast, instanceId, chosen.offerId);
        } catch (e) {
            const failure = imagePullFailure(inputs, started.record, this.where, what, e as Error);
            throw new InstanceNotReadyError(`${failure.message}${this.earlier(attempt)}`, instanceId, started.record);
        }
        const failure = imagePullFailure(inputs, started.record, this.where, what);
        failure.message += this.earlier(attempt);
        throw failure;
    }

    /** No attempt reached running: the create's failure, with what happened to each. */
    exhausted(): Error {
        const { max, where } = this;
        return new ProviderError(
            "create_attempts_exhausted",
            `vastai: create instance ${where} failed: no instance reached running in ${max} attempt${max === 1 ? "" : "s"}, ` +
                `and none was left behind: ${this.done.join("; ")}`,
        );
    }
}
