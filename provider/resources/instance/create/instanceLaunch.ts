import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { InstanceCreateRequest, InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs } from "../instanceArgs";
import { ChosenOffer, OfferChoice } from "./offerChoice";
import { RETURN_WAIT_S, freedHere, offerNotOnMarket } from "../delete/offerRelease";
import { PLACEMENT_ENV, instancesPlacedBy, placementToken } from "./placementToken";
import { placeInstance } from "./rentInstance";
import { destroyConfirmed } from "../delete/instanceRemoval";
import { describeStatus, howToRunAnew } from "../wait/readiness";
import { sharedPoller } from "../wait/sharedPoller";
import { LostCreateUndecidedError } from "../../lostCreate";
import { CreateRecord } from "../journal/createJournal";

/**
 * An instance exists (and is paid for) but did not become ready. Carries its id, so the create can
 * fail the way that makes the engine keep the instance in state rather than leak it.
 */
export class InstanceNotReadyError extends Error {
    constructor(
        message: string,
        readonly instanceId: number,
        readonly record?: InstanceRecord,
        /** The label the instance has, when it is not yet the program's (none, when a long one could not be set). */
        readonly label?: string,
    ) {
        super(message);
        this.name = "InstanceNotReadyError";
    }
}

export interface Launched {
    instanceId: number;
    /** The last record seen; absent when the create did not wait. */
    record?: InstanceRecord;
}

/**
 * Runs `step` on an instance that exists; any failure becomes an InstanceNotReadyError naming it
 * (and, given, what the step was doing and the instance's last record, for state).
 */
async function onExisting<T>(instanceId: number, what: string, step: () => Promise<T>, doing?: { what: string; record: InstanceRecord }): Promise<T> {
    try {
        return await step();
    } catch (e) {
        if (e instanceof InstanceNotReadyError) throw e;
        const then = doing ? `${doing.what} failed` : "";
        const kept = doing ? ". It is kept in state: `pulumi destroy` removes it, `pulumi up` tries again" : "";
        throw new InstanceNotReadyError(`vastai: ${what} was created, then${then ? ` ${then}` : ""}: ${(e as Error).message}${kept}`, instanceId, doing?.record);
    }
}

type Started = { kind: "running"; record: InstanceRecord } | { kind: "failed"; reason: string; record: InstanceRecord } | { kind: "gone"; reason: string };

/**
 * Waits for the instance through the shared poller. Running, failed for good, or gone are answers;
 * a deadline passed or a wait that cannot go on throw InstanceNotReadyError.
 */
async function untilStarted(ctx: ProviderContext, vast: VastClient, instanceId: number, inputs: InstanceInputs, what: string): Promise<Started> {
    const timeoutMs = ctx.clock.scaled(inputs.readyTimeoutSeconds * 1000);
    const outcome = await onExisting(instanceId, what, () => sharedPoller(ctx, vast).waitUntilRunning(instanceId, { timeoutMs, what }));
    switch (outcome.kind) {
        case "running":
            ctx.log.progress(`${what} is running`);
            return outcome;
        case "failed":
            return { kind: "failed", reason: outcome.reason, record: outcome.record };
        case "gone":
            return { kind: "gone", reason: "disappeared while starting (destroyed elsewhere?)" };
        case "timedOut": {
            const last = outcome.record ? describeStatus(outcome.record) : "never reported";
            throw new InstanceNotReadyError(
                `vastai: ${what} did not reach running within ${inputs.readyTimeoutSeconds} s (last status: ${last}). ` +
                    "It is kept in state: `pulumi up` waits for it again, `pulumi destroy` removes it; " +
                    "raise readyTimeoutSeconds for images that take longer to load",
                instanceId,
                outcome.record,
            );
        }
    }
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
    return new Error(`${said}. ${why}`, { cause: e });
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

/**
 * Starts an instance on the offer `choice` gives and, unless told not to, waits until it runs. One
 * that ends `exited`, `unknown`, `offline` or with an error is destroyed and another started (on
 * the same offer, or the search's next match on another machine), up to `maxCreateAttempts`; an
 * offer a search chose that was refused counts as an attempt too, and one taken since the search
 * is passed over for the next match, up to MAX_TAKEN_OFFERS. One that looked gone is rented again
 * only as `notListed` and the offer it held allow (see `lookedGone`; by search it is destroyed
 * first). Then the create fails with what happened to each, nothing left running. Each rent is
 * written to the create's `journal` entry before it is sent (createJournal.ts).
 */
export async function launchInstance(
    ctx: ProviderContext,
    vast: VastClient,
    inputs: InstanceInputs,
    request: InstanceCreateRequest,
    choice: OfferChoice,
    journal: CreateRecord,
): Promise<Launched> {
    const { maxCreateAttempts: max } = inputs;
    const attempts: string[] = [];
    // A retry that cannot go on still says why there was a retry.
    const withAttempts = (e: unknown, attempt: number) =>
        attempts.length === 0 ? e : new Error(`${(e as Error).message} (on attempt ${attempt}; nothing before it was left running: ${attempts.join("; ")})`, { cause: e });
    // The last attempt's instance when it looked gone: its offer still taken says it may still run.
    let lookedGone: { instanceId: number; offerId: number } | undefined;
    let takenOffers = 0;
    for (let attempt = 1; attempt <= max; attempt++) {
        let instanceId: number;
        let chosen: ChosenOffer;
        try {
            chosen = await choice.next();
        } catch (e) {
            throw withAttempts(e, attempt);
        }
        const { offerId } = chosen;
        // A taken-over instance carries the token its interrupted create gave it.
        const token = chosen.takenOver !== undefined && journal.token !== undefined ? journal.token : placementToken(offerId);
        const placed: InstanceCreateRequest = { ...request, env: { ...request.env, [PLACEMENT_ENV]: token } };
        if (chosen.takenOver !== undefined) {
            instanceId = chosen.takenOver;
        } else {
            try {
                const deadlineAt = ctx.clock.now() + ctx.clock.scaled(inputs.readyTimeoutSeconds * 1000);
                instanceId = await placeInstance(ctx, vast, chosen, placed, deadlineAt, journal);
            } catch (e) {
                // A create that may have made an instance is named by its own error, not hidden behind this one.
                if (lookedGone?.offerId === offerId && !(e instanceof LostCreateUndecidedError)) {
                    throw new InstanceNotReadyError(
                        `vastai: instance ${lookedGone.instanceId} on offer ${offerId} looked gone while starting, but renting its offer again failed ` +
                            `(${(e as Error).message}): it may still run, so it is kept in state. \`pulumi refresh\` drops it if it is gone`,
                        lookedGone.instanceId,
                    );
                }
                const refused = choice.rentRefused(chosen, e);
                if (refused === "taken") {
                    attempts.push(`offer ${offerId} taken since the search`);
                    if (++takenOffers >= MAX_TAKEN_OFFERS) {
                        throw new Error(
                            `vastai: create instance by offer search failed: ${takenOffers} offers it chose were taken since the search, ` +
                                `and nothing was rented (${attempts.join("; ")}). Widen the search, or run \`pulumi up\` again`,
                        );
                    }
                    ctx.log.progress(`offer ${offerId} was taken since the search; trying the next match`);
                    attempt--; // nothing was started, and nothing said other offers would fare the same: not an attempt
                    continue;
                }
                if (refused === "refused") {
                    ctx.log.progress(`offer ${offerId} could not be rented (${(e as Error).message}); trying the next match`);
                    attempts.push(`attempt ${attempt}: offer ${offerId} ${(e as Error).message}`);
                    continue;
                }
                // The program's own offerId is not to be had: say why, and what to give instead.
                if (inputs.offerId !== undefined && offerNotOnMarket(e)) throw withAttempts(pinnedOfferGone(e as Error, offerId, attempts.length === 0), attempt);
                throw withAttempts(e, attempt);
            }
        }
        const what = `instance ${instanceId} on offer ${offerId}`;
        ctx.log.progress(`${what} ${chosen.takenOver !== undefined ? "taken over" : "created"}${max > 1 ? ` (attempt ${attempt} of ${max})` : ""}`);
        // A label too long for the create (see toCreateRequest) is set by an edit.
        if (inputs.label !== undefined && request.label === undefined) {
            journal.keep(); // by id: a look by label would no longer find it
            // Until this succeeds the instance has no label, and state must say so for the next update.
            try {
                await vast.instances.label(instanceId, inputs.label);
            } catch (e) {
                throw new InstanceNotReadyError(`vastai: ${what} was created, then: ${(e as Error).message}`, instanceId, undefined, "");
            }
        }
        if (!inputs.waitForRunning && request.target_state !== "stopped") return { instanceId };
        // The id, before a wait that may take minutes: for running here, or for stopped by the caller.
        journal.keep();
        // One created stopped is not waited for here: the caller's stop sees it stopped (stopAfterCreate).
        if (request.target_state === "stopped") return { instanceId };

        const started = await untilStarted(ctx, vast, instanceId, inputs, what);
        if (started.kind === "running") return { instanceId, record: started.record };
        // Listed under the label it has: the create's, or the program's when a long one was set by an edit.
        if (started.kind === "gone") await notListed(vast, instanceId, placed, placed.label ?? inputs.label, what);
        if (started.kind === "gone" && inputs.offerId === undefined) {
            // By search the next rent goes to another offer, whose answer says nothing of this one
            // (a pinned offer still held does): destroyed to be sure; one really gone answers not-found, which reads confirm.
            const { alreadyGone } = await onExisting(instanceId, what, () => destroyConfirmed(ctx, vast, instanceId, offerId));
            journal.cleared();
            if (!alreadyGone) ctx.log.warn(`${what} looked gone while starting, but its destroy found it; destroyed before renting another`);
        }
        attempts.push(`attempt ${attempt}: ${what} ${started.reason}`);
        lookedGone = started.kind === "gone" ? { instanceId, offerId } : undefined;
        if (started.kind === "failed") {
            ctx.log.progress(`${what} will not run: ${started.reason}; destroying it`);
            const doing = { what: `it would not run (${started.reason}), and destroying it${attempt < max ? " before the next attempt" : ""}`, record: started.record };
            await onExisting(instanceId, what, () => destroyConfirmed(ctx, vast, instanceId, offerId), doing);
            journal.cleared();
            choice.machineFailed(chosen);
        }
    }
    const where = inputs.offerId !== undefined ? `on offer ${inputs.offerId}` : "by offer search";
    throw new Error(
        `vastai: create instance ${where} failed: no instance reached running in ${max} attempt${max === 1 ? "" : "s"}, ` +
            `and none was left behind: ${attempts.join("; ")}`,
    );
}

/**
 * Waits again for an instance an earlier `up` left starting (its create failed on the deadline).
 * One that will never run is reported, not replaced: the program decides that.
 */
export async function awaitExisting(ctx: ProviderContext, vast: VastClient, instanceId: number, inputs: InstanceInputs): Promise<InstanceRecord> {
    const what = `instance ${instanceId}${inputs.offerId !== undefined ? ` on offer ${inputs.offerId}` : ""}`;
    const started = await untilStarted(ctx, vast, instanceId, inputs, what);
    if (started.kind === "running") return started.record;
    if (started.kind === "gone") throw new Error(`vastai: ${what} ${started.reason}; run \`pulumi refresh\``);
    throw new InstanceNotReadyError(
        `vastai: ${what} ${started.reason}; it will not reach running: remove it from the program, or ${howToRunAnew(inputs.offerId !== undefined)}`,
        instanceId,
        // What it ended as, for state: the next `up` neither waits for it nor starts it again (a
        // batch job that ended would run again), and warns that it ended, its disk still billed.
        started.record,
    );
}
