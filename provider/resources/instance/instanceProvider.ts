import { canonicalInputs } from "../canonicalInputs";
import { checkArgs, computedRefusals } from "../../dynamic/checkArgs";
import { CheckFailure } from "../../dynamic/checkFailures";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import { initFailure, isInitFailure, providerOf } from "../../dynamic/initFailure";
import { containsUnknown, isUnknown } from "../../dynamic/unknowns";
import type * as pulumi from "@pulumi/pulumi";
import { ProviderContext } from "../../dynamic/context";
import { goneResult, readResult } from "../../dynamic/readResult";
import { InstanceRecord } from "../../schemas/instance";
import {
    INSTANCE_COMPUTED,
    INSTANCE_DEFAULTS,
    INSTANCE_PROPERTIES,
    InstanceInputs,
    InstanceOutputs,
    TEMPLATE_ID_SPELLINGS,
    instanceArgsSchema,
    highBidOnSameOffer,
    adoptsAnother,
    replacementAdoptsItself,
    replacingChanges,
    runtypeWithTemplate,
} from "./instanceArgs";
import { sharedInstanceReader } from "./read/sharedInstanceReader";
import { InstanceNotReadyError, awaitExisting, launchInstance } from "./create/instanceLaunch";
import { endedWarning, frozenWarning, startState } from "./wait/readiness";
import { accessOf, definedOnly, inputsFromRecord, inputsOf, instanceOutputs, reportedByService, reportedIn, templateEnv, toCreateRequest } from "./instanceMapping";
import { InPlaceUpdate, adoptInstance } from "./create/adoption";
import { otherCommandChars, planOnstart } from "./create/onstartBootstrap";
import { destroyConfirmed } from "./delete/instanceRemoval";
import { isStopped, startInstance, stopInstance } from "./wait/instanceState";
import { ChosenOffer, OfferChoice, fixedOffer, searchedOffer, takingOver } from "./create/offerChoice";
import { CreateRecord, forgetHeld } from "./journal/createJournal";
import { remindInterrupted, resumeInterrupted, seesNotedInstance } from "./journal/createResume";
import { VastClient } from "../../client/vastClient";
import { VastNotFoundError } from "../../client/errors";
import { mayHaveActed } from "../../client/retryPolicy";
import { findTemplate, lookupTemplate, templateNotVisible } from "./create/templateLookup";
import { normalizeEnvMap, toEnvMap } from "../../env/envFlags";
import { envLimitProblems } from "../../schemas/limits";
import { instanceUnlessGone } from "./read/instanceLookup";
import { MadeBy, keyAccount, madeBy } from "../sameAccount";

type Props = Record<string, any>;

/** Defaults and the canonical env map; values unknown during preview are left as they are. */
function normalize(args: Props): InstanceInputs {
    return canonicalInputs(args, INSTANCE_PROPERTIES, INSTANCE_DEFAULTS) as unknown as InstanceInputs;
}

/** The onstart size check, once the script and the other commands are known. */
function onstartFailures(args: Props): CheckFailure[] {
    if (typeof args.onstart !== "string" || isUnknown(args.onstart) || containsUnknown(args.args) || isUnknown(args.argsStr)) return [];
    const plan = planOnstart(args.onstart, otherCommandChars(args.args, args.argsStr));
    return plan.problem ? [{ property: "onstart", reason: plan.problem }] : [];
}

/**
 * The template a create starts from, once its hash is known (during `up`, and during preview when
 * the template is not changing). A hash the service answers it does not have (the template was
 * edited elsewhere since the last refresh) fails here: a replacement on the same offer would
 * otherwise destroy the instance first and then fail its create. And the create call's env limits
 * on the env the instance would really get, the template's merged with the program's; when the
 * template cannot be read now, the same limits are applied to the request before it is sent.
 */
async function templateFailures(ctx: ProviderContext, args: Props): Promise<CheckFailure[]> {
    const hashId = args.templateHashId;
    if (typeof hashId !== "string" || isUnknown(hashId)) return [];
    let template;
    try {
        template = await lookupTemplate(ctx.client(), hashId);
    } catch {
        return [];
    }
    if (!template) return [{ property: "templateHashId", reason: templateNotVisible(hashId) }];
    if (containsUnknown(args.env)) return [];
    const merged = normalizeEnvMap({ ...templateEnv(template), ...(args.env === undefined ? {} : toEnvMap(args.env)) });
    return envLimitProblems(merged).map(({ key, problem }) => ({
        property: key === undefined ? "env" : `env.${key}`,
        reason: `merged with the env of template ${hashId}: ${problem}`,
    }));
}

/** Computed outputs, and the template's numeric id, which instance creation does not take (docs/service-contract.md §7). */
const REFUSED: Record<string, string> = {
    ...computedRefusals(INSTANCE_COMPUTED),
    ...Object.fromEntries(
        TEMPLATE_ID_SPELLINGS.map((key) => [
            key,
            `${key} is not accepted for instance creation (docs/service-contract.md §7): use templateHashId, e.g. templateHashId: template.hashId`,
        ]),
    ),
};

/** Statuses of an instance still on its way up; an update waits for those when the program waits. */
const STILL_STARTING = new Set([undefined, null, "created", "loading", "scheduling"]);

/** What the offer an instance was rented on says of it, as outputs. */
function rentedOn(chosen: ChosenOffer | undefined): Partial<InstanceOutputs> {
    if (!chosen) return {};
    return definedOnly({ rentedOfferId: chosen.offerId, machineId: chosen.machineId, gpuName: chosen.gpuName, numGpus: chosen.numGpus });
}

/**
 * The rental facts a state holds, which no read of the instance reports again; the access of an
 * instance created before the output existed follows from its runtype.
 */
function rentalIn(props: Partial<InstanceOutputs>): Partial<InstanceOutputs> {
    const access = props.access ?? accessOf(props.runtype, undefined);
    return definedOnly({ rentedOfferId: props.rentedOfferId, gpuName: props.gpuName, numGpus: props.numGpus, access, accountId: props.accountId, keyMark: props.keyMark });
}

/** The label the instance has now, as the program writes none: `""`. Undefined when it is not found. */
async function labelNow(vast: VastClient, instanceId: number): Promise<string | undefined> {
    const record = await vast.instances.show(instanceId);
    return record ? (record.label ?? "") : undefined;
}

/** The stop of an instance created `stopped` (harmless when it never ran); a failure keeps the instance (it exists) in state. */
async function stopAfterCreate(ctx: ProviderContext, vast: VastClient, instanceId: number, inputs: InstanceInputs, record: InstanceRecord | undefined): Promise<InstanceRecord> {
    try {
        return await stopInstance(ctx, vast, instanceId, inputs, true);
    } catch (e) {
        throw new InstanceNotReadyError(`vastai: instance ${instanceId} was created to be stopped, then: ${(e as Error).message}`, instanceId, record);
    }
}

/** The status state last recorded, in the service's words, for the readiness rules (readiness.ts). */
function recordedStatus(olds: InstanceOutputs): Pick<InstanceRecord, "actual_status" | "intended_status" | "status_msg"> {
    return { actual_status: olds.actualStatus, intended_status: olds.intendedStatus, status_msg: olds.statusMsg };
}

/** Whether state's last status already says the instance will not run (an error while starting, exited, …). */
function endedAsRecorded(olds: InstanceOutputs): boolean {
    return startState(recordedStatus(olds) as InstanceRecord).kind === "failed";
}

/**
 * At an `up` or preview of an instance that state (the last refresh) says has ended: the warning
 * again, but only if a look at the service (shared with other reads) finds it still ended, since its
 * owner may have restarted it since. Never fails the diff, and costs no call for any other instance.
 */
async function warnIfStillEnded(ctx: ProviderContext, instanceId: number, olds: InstanceOutputs): Promise<void> {
    const recorded = recordedStatus(olds);
    const pinned = olds.offerId !== undefined;
    if (!endedWarning(instanceId, recorded, pinned)) return;
    let ended: string | undefined;
    try {
        const record = await sharedInstanceReader(ctx.client()).get(instanceId);
        ended = record && endedWarning(instanceId, record, pinned);
    } catch {
        return; // a look that failed says nothing either way
    }
    if (ended) ctx.log.warn(ended);
}

/**
 * The Instance resource's implementation, run inside Pulumi's dynamic-provider host, given the
 * provider process's context; typed against Pulumi's `ResourceProvider` with its own inputs and outputs.
 */
export const instanceProvider = (ctx: ProviderContext) => {
    const provider = instanceMethods(ctx, (id, olds, news) => provider.update(id, olds, news));
    return provider;
};

/** The methods; `update` is handed back in for an adoption, which ends as an update does. */
const instanceMethods = (ctx: ProviderContext, update: InPlaceUpdate) => ({
    async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<InstanceInputs>> {
        // A refresh records an instance frozen in the web console as desiredState "frozen", which no
        // program sets; a program that ignores changes to desiredState has the engine hand that
        // value back as its own. Kept then (the instance is left frozen), and refused otherwise.
        const keptFrozen = news.desiredState === "frozen" && olds.desiredState === "frozen";
        const { args, failures } = checkArgs(keptFrozen ? { ...news, desiredState: undefined } : news, instanceArgsSchema, INSTANCE_PROPERTIES, REFUSED);
        if (failures.length === 0) failures.push(...onstartFailures(args), ...runtypeWithTemplate(args, olds));
        if (failures.length > 0) return { inputs: news as InstanceInputs, failures };
        // Compared with the inputs in state as diff compares them, normalized: `env` written as a
        // flag string is the same as the map state keeps, and must not read as a replacement.
        const inputs = normalize(keptFrozen ? { ...args, desiredState: "frozen" } : args);
        const replaces = replacingChanges(olds, inputs, changedProperties(olds, inputs as unknown as Props, INSTANCE_PROPERTIES));
        // What only a create is refused for is checked when a create follows: a new instance, or a
        // replacement. An adoption makes nothing from the template: its hash is compared with the
        // instance's, which the account may no longer see (edited or deleted since).
        const creates = (Object.keys(olds).length === 0 || replaces.length > 0) && inputs.adopt === undefined;
        failures.push(...highBidOnSameOffer(inputs, olds, replaces), ...replacementAdoptsItself(olds, inputs, replaces));
        if (failures.length === 0 && creates) failures.push(...(await templateFailures(ctx, inputs as unknown as Props)));
        if (failures.length > 0) return { inputs: news as InstanceInputs, failures };
        return { inputs };
    },

    async diff(id: string, olds: InstanceOutputs, news: InstanceInputs) {
        forgetHeld(() => ctx.client().baseUrl, Number(olds.instanceId ?? id));
        await warnIfStillEnded(ctx, Number(olds.instanceId ?? id), olds);
        // `adopt` matters only when it names another instance (a replace); removed, or set to this one, it changes nothing.
        const changed = changedProperties(olds, news, INSTANCE_PROPERTIES).filter((p) => p !== "adopt" || adoptsAnother(olds, news));
        const replaces = replacingChanges(olds, news, changed);
        // One instance per offer: a replacement on the same offer can only start once the old one is gone.
        const sameOffer = news.offerId !== undefined && !isUnknown(news.offerId) && (olds.rentedOfferId ?? olds.offerId) === news.offerId;
        // What check refuses for a bid too high to change in place on the same offer, seen here too:
        // check's olds are the inputs, which do not say what a search rented (a pin of it with a new bid).
        const [highBid] = highBidOnSameOffer(news, { price: olds.price, offerId: olds.rentedOfferId ?? olds.offerId }, replaces);
        if (highBid) throw new Error(`vastai: ${highBid.property}: ${highBid.reason}`);
        const [itself] = replacementAdoptsItself(olds, news, replaces);
        if (itself) throw new Error(`vastai: ${itself.property}: ${itself.reason}`);
        // A bid change whose answer was lost is sent again (in place), whatever `price` says.
        const bidToConfirm = olds.bidUnconfirmed !== undefined && news.price !== undefined;
        // So is a label edit whose answer was lost and could not be read back (see `labelUnconfirmed`).
        const labelToConfirm = olds.labelUnconfirmed === true && news.label !== undefined;
        return { changes: changed.length > 0 || shimChanged(olds, news) || bidToConfirm || labelToConfirm, replaces, deleteBeforeReplace: replaces.length > 0 && sameOffer };
    },

    async create(inputs: InstanceInputs) {
        const vast = ctx.client();
        // Nothing is rented: the instance is taken as it is (instanceAdoption.ts).
        if (inputs.adopt !== undefined) return adoptInstance(ctx, vast, inputs, update);
        // Whose key rents it is recorded as the key's mark, not asked of the service: the create
        // stays one call. The same key's "not found" is believed; another key's is doubted until a
        // key of the account that sees it records the account (sameAccount.ts).
        const made: MadeBy = { keyMark: ctx.keyMark() };
        const desired = normalize(inputs);
        const template = desired.templateHashId === undefined ? undefined : await findTemplate(vast, desired.templateHashId, desired.offerId);
        const plan = toCreateRequest(desired, template);
        if (plan.onstartEncoded) {
            ctx.log.progress(`onstart${desired.offerId !== undefined ? ` for offer ${desired.offerId}` : ""} is ${desired.onstart?.length} characters: sent compressed as a ${plan.request.onstart?.length}-character command`);
        }
        // Noted on disk until the engine has the instance: a `pulumi up` stopped before then is
        // taken over by the next create with these inputs (createJournal.ts, createResume.ts).
        const journal = await CreateRecord.begin(ctx, vast.baseUrl, inputs, (note) => seesNotedInstance(ctx, vast, note));
        try {
            const resumed = await resumeInterrupted(ctx, vast, journal);
            // Other creates cut short are named beside the rent, not before it.
            const reminded = remindInterrupted(ctx, vast);
            const rentable = desired.offerId !== undefined ? fixedOffer(desired.offerId) : searchedOffer(vast, desired.offer!, desired.price);
            const choice = resumed ? takingOver(resumed, rentable) : rentable;
            const created = await createdOn(choice);
            await reminded;
            journal.close();
            return created;
        } catch (e) {
            // The note goes only when nothing this create rented can run outside state: the engine
            // is given its id (an init failure), or none was made. A lost answer not settled, an
            // interrupted create's instance not yet found: it stays, for the next `up` to take over.
            if (isInitFailure(e) || !journal.mayHoldInstance) journal.close();
            throw e;
        }

        async function createdOn(choice: OfferChoice) {
            const access = definedOnly({ access: accessOf(desired.runtype, template) });
            try {
                const launched = await launchInstance(ctx, vast, desired, plan.request, choice, journal);
                // Created stopped (`target_state: "stopped"` in the create), then a stop is asked and
                // waited for all the same: should the service ever run it anyway, it does not stay running.
                if (desired.desiredState === "stopped") launched.record = await stopAfterCreate(ctx, vast, launched.instanceId, desired, launched.record);
                const reported = { ...rentedOn(choice.current), ...access, ...made, ...(launched.record ? definedOnly(reportedByService(launched.record)) : {}) };
                return { id: String(launched.instanceId), outs: instanceOutputs(desired, launched.instanceId, reported, plan.effectiveEnv) };
            } catch (e) {
                if (!(e instanceof InstanceNotReadyError)) throw e;
                const reported = { ...rentedOn(choice.current), ...access, ...made, ...(e.record ? definedOnly(reportedByService(e.record)) : {}) };
                // The label the instance really has, so the next update sets the program's.
                const state = e.label === undefined ? desired : { ...desired, label: e.label };
                throw initFailure(e.message, e.instanceId, instanceOutputs(state, e.instanceId, reported, plan.effectiveEnv), providerOf(inputs));
            }
        }
    },

    async read(id: string, props: Partial<InstanceOutputs> = {}) {
        const instanceId = Number(props.instanceId ?? id);
        const vast = ctx.client();
        // Who made it stays as state has it: the account, or the mark of this same key (nothing
        // asked). Otherwise (another key, which sees it only if it is the same account's, or state
        // from before either was kept) the key's account is asked once per process while the list is read.
        const sameKey = props.accountId === undefined && props.keyMark === ctx.keyMark();
        const account = props.accountId !== undefined || sameKey ? Promise.resolve(props.accountId) : keyAccount(ctx);
        forgetHeld(() => vast.baseUrl, instanceId);
        const reminded = remindInterrupted(ctx, vast);
        // Reads share one list call per round; one missing from it is gone only as instanceLookup.ts
        // says (the service's own words, three times, with the account's key); anything else throws.
        const listed = await sharedInstanceReader(vast).get(instanceId);
        const record = listed ?? (await instanceUnlessGone(ctx, vast, instanceId, props));
        if (!record) {
            await reminded;
            return goneResult<InstanceOutputs>();
        }
        const warning = endedWarning(record.id, record, props.offerId !== undefined) ?? frozenWarning(record.id, record);
        if (warning) ctx.log.warn(warning);
        const inputs = normalize(inputsFromRecord(record, inputsOf(props)));
        // A bid change still unconfirmed stays so: nothing read back says which bid the instance has.
        const reported = {
            ...rentalIn(props),
            ...definedOnly(reportedByService(record)),
            ...definedOnly({ bidUnconfirmed: props.bidUnconfirmed }),
            // Who made it, as this read tells: the account once known, else this key's mark (it sees the instance).
            accountId: undefined,
            keyMark: undefined,
            ...(sameKey ? { keyMark: props.keyMark } : await madeBy(ctx, account)),
        };
        await reminded;
        return readResult(String(record.id), instanceOutputs(inputs, record.id, reported, props.effectiveEnv), inputs);
    },

    async update(id: string, olds: InstanceOutputs, news: InstanceInputs) {
        const vast = ctx.client();
        const instanceId = Number(olds.instanceId ?? id);
        const desired = normalize(news);
        // Sent again while an earlier edit's answer was lost and not read back (see `labelUnconfirmed`).
        const newLabel = (olds.label ?? "") !== (desired.label ?? "") || (olds.labelUnconfirmed === true && desired.label !== undefined);
        let labelUnconfirmed = olds.labelUnconfirmed;
        // Between two bids only (diff replaces an instance that gains or loses its bid); sent again
        // while an earlier change's answer was lost (see `bidUnconfirmed`).
        const newBid = olds.price !== undefined && desired.price !== undefined && (olds.price !== desired.price || olds.bidUnconfirmed !== undefined);
        let bidUnconfirmed = olds.bidUnconfirmed;
        // The label and the bid the service has taken so far: a failure later in this update keeps
        // them in state (a program put back as before then sends them back). One whose own call
        // failed keeps state's value, so the same program sends it again. So does the desired
        // state, until a start or stop may have been sent: a failure before that sent neither.
        const taken: Pick<InstanceInputs, "label" | "price" | "desiredState"> = {
            label: newLabel ? olds.label : desired.label,
            price: newBid ? olds.price : desired.price,
            desiredState: olds.desiredState,
        };

        let record: InstanceRecord | undefined;
        try {
            if (newLabel) {
                try {
                    await vast.instances.label(instanceId, desired.label ?? "");
                } catch (e) {
                    // Answer lost: the label may be either. Unlike the bid it can be read back; when
                    // that fails too, it is marked unsure and sent again next time.
                    if (mayHaveActed(e)) {
                        const now = await labelNow(vast, instanceId).catch(() => undefined);
                        if (now === undefined) labelUnconfirmed = true;
                        else [taken.label, labelUnconfirmed] = [now, undefined];
                    }
                    throw e;
                }
                taken.label = desired.label;
                labelUnconfirmed = undefined;
            }
            if (newBid) {
                try {
                    await vast.instances.changeBid(instanceId, desired.price!);
                } catch (e) {
                    // Refused: the bid is what it was. Answer lost: it may be either, so it is sent again next time.
                    if (mayHaveActed(e)) bidUnconfirmed = desired.price;
                    throw e;
                }
                bidUnconfirmed = undefined;
                taken.price = desired.price;
                ctx.log.progress(
                    olds.price === desired.price
                        ? `instance ${instanceId}: bid of $${desired.price}/hour confirmed (sent again: an earlier change's answer was lost)`
                        : `instance ${instanceId}: bid changed from $${olds.price}/hour to $${desired.price}/hour`,
                );
            }
            taken.desiredState = desired.desiredState;
            if (desired.desiredState === "stopped") {
                // Also when a stop asked by an earlier `up` did not finish in time.
                // (One created stopped may be recorded as never run rather than `stopped`: that is stopped too.)
                const wasStopped = isStopped(recordedStatus(olds), true);
                // One that never ran (created stopped; a start since that failed) may show no status rather than `stopped`.
                const neverRan = olds.intendedStatus === "stopped" && (olds.actualStatus == null || olds.actualStatus === "created");
                if (olds.desiredState !== "stopped" || !wasStopped) record = await stopInstance(ctx, vast, instanceId, desired, neverRan);
            } else if (desired.desiredState === "running" && [olds.desiredState, olds.actualStatus, olds.intendedStatus].some((s) => s === "stopped" || s === "frozen")) {
                // Also when a start asked by an earlier `up` did not take: it was last seen stopped,
                // or meant to be (one created stopped that never ran shows no status). A frozen one
                // (paused in the web console, its GPUs billed) is started again the same way.
                record = await startInstance(ctx, vast, instanceId, desired);
            } else if (desired.waitForRunning && STILL_STARTING.has(olds.actualStatus) && !endedAsRecorded(olds)) {
                // (One whose status message already reports an error will not run: not waited for again; diff warns.)
                // An earlier create that ran out of time left it starting: this `up` waits for it again.
                record = await awaitExisting(ctx, vast, instanceId, desired);
            }
            // The new price shows in `dph_total`: read it back when no wait did.
            if (newBid && !record) record = await vast.instances.show(instanceId);
        } catch (e) {
            // Whatever failed once a start or stop may have been sent (the call's answers lost, the
            // wait's reads failing, the deadline), state records what was asked and what was seen
            // last: kept as it was, a program put back as before would show no change while the
            // instance stayed as the failed call left it (running while state says stopped). The
            // next `up` then knows whether to ask again or to wait. The label and the bid, which no
            // status tells about, are recorded as the service took them (see `taken`).
            const last = e instanceof InstanceNotReadyError ? e.record : undefined;
            const seen = last ? { ...reportedIn(olds), ...definedOnly(reportedByService(last)) } : reportedIn(olds);
            // A not-found from the instance's own route: most likely destroyed outside Pulumi, which
            // only a refresh (reading it gone in the service's own words) takes from state.
            const gone = e instanceof VastNotFoundError ? `. If instance ${instanceId} was destroyed outside Pulumi, \`pulumi refresh\` removes it from the stack` : "";
            const message = `${e instanceof Error ? e.message : String(e)}${gone}`;
            const state = { ...desired, ...taken };
            const reported = { ...rentalIn(olds), ...seen, ...definedOnly({ bidUnconfirmed, labelUnconfirmed }) };
            throw initFailure(message, instanceId, instanceOutputs(state, instanceId, reported, olds.effectiveEnv), providerOf(news));
        }
        const reported = record ? { ...rentalIn(olds), ...definedOnly(reportedByService(record)) } : { ...rentalIn(olds), ...reportedIn(olds) };
        return { outs: instanceOutputs(desired, instanceId, reported, olds.effectiveEnv) };
    },

    async delete(id: string, props: InstanceOutputs) {
        const instanceId = Number(props.instanceId ?? id);
        const vast = ctx.client();
        forgetHeld(() => vast.baseUrl, instanceId);
        const reminded = remindInterrupted(ctx, vast);
        const { alreadyGone } = await destroyConfirmed(ctx, vast, instanceId, props.rentedOfferId ?? props.offerId, props);
        ctx.log.progress(alreadyGone ? `instance ${instanceId} was already gone` : `instance ${instanceId} destroyed`);
        await reminded;
    },
}) satisfies pulumi.dynamic.ResourceProvider<InstanceInputs, InstanceOutputs>;
