import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { initFailure, providerOf } from "../../../dynamic/initFailure";
import { InstanceCreateRequest, InstanceRecord } from "../../../schemas/instance";
import { TemplateRecord } from "../../../schemas/template";
import { InstanceInputs, InstanceOutputs } from "../instanceArgs";
import { CreatePlan, accessOf, definedOnly, instanceOutputs, reportedByService, toCreateRequest } from "../common/instanceMapping";
import { InstanceNotReadyError } from "../wait/untilRunning";
import { ChosenOffer } from "../common/placement";
import { findTemplate } from "../common/templateLookup";
import { CREATE_KEY_ENV, CreateKey, formatKey } from "../common/createKey";

// What a create sends (the request, from the program's inputs and its template), what it could
// not send (a label too long for it), and the outputs it hands the engine.

/** The create request, and the template it starts from. */
export type PlannedCreate = CreatePlan & {
    template: TemplateRecord | undefined;
    /** Created `stopped` (`target_state`): not waited for to run, but stopped after the create. */
    createdStopped: boolean;
    /**
     * Who makes it: the key's mark, not its account, so that the create stays one call. The same
     * key's "not found" is believed; another key's is doubted until the account is known (sameAccount.ts).
     */
    keyMark: string;
};

/**
 * The create request for `desired`: its template looked up, an onstart too long for the service
 * compressed, and the create's key (createKey.ts) in its env.
 */
export async function planCreate(ctx: ProviderContext, vast: VastClient, desired: InstanceInputs, key: CreateKey | undefined): Promise<PlannedCreate> {
    const keyMark = ctx.keyMark(); // read before anything is rented, as every other input of the create
    const template = desired.templateHashId === undefined ? undefined : await findTemplate(vast, desired.templateHashId, desired.offerId);
    const plan = toCreateRequest(desired, template);
    if (key !== undefined) plan.request = { ...plan.request, env: { ...plan.request.env, [CREATE_KEY_ENV]: formatKey(key) } };
    if (plan.onstartEncoded) {
        const whose = desired.onstart === undefined ? `the onstart of template ${desired.templateHashId}` : "onstart";
        const script = desired.onstart ?? template?.onstart ?? "";
        ctx.log.progress(`${whose}${desired.offerId !== undefined ? ` for offer ${desired.offerId}` : ""} is ${script.length} characters: sent compressed as a ${plan.request.onstart?.length}-character command`);
    }
    return { ...plan, template, keyMark, createdStopped: plan.request.target_state === "stopped" };
}

/** A label too long for the create (see toCreateRequest) is set by an edit once the instance exists. */
export async function labelAfterCreate(
    vast: VastClient,
    instanceId: number,
    desired: InstanceInputs,
    request: InstanceCreateRequest,
    what: string,
): Promise<void> {
    if (desired.label === undefined || request.label !== undefined) return;
    // Until this succeeds the instance has no label, and state must say so for the next update.
    try {
        await vast.instances.label(instanceId, desired.label);
    } catch (e) {
        throw new InstanceNotReadyError(`vastai: ${what} was created, then: ${(e as Error).message}`, instanceId, undefined, "");
    }
}

/**
 * The instance a create made, as the engine gets it: its id and last record, the label it has when
 * not yet the program's, and the machines that failed it when the create was cut short.
 */
export interface Made {
    instanceId: number;
    record?: InstanceRecord;
    label?: string;
    failedMachineIds?: number[];
}

/** The outputs of an instance this create made (or took over) on `chosen`, as far as it got. */
export function createdOutputs(desired: InstanceInputs, plan: PlannedCreate, chosen: ChosenOffer | undefined, made: Made): InstanceOutputs {
    const access = definedOnly({ access: accessOf(desired.runtype, plan.template) });
    const unfinished = made.failedMachineIds ? { unfinishedCreate: { failedMachineIds: made.failedMachineIds } } : {};
    const reported = { ...rentedOn(chosen), ...access, keyMark: plan.keyMark, ...unfinished, ...(made.record ? definedOnly(reportedByService(made.record)) : {}) };
    // The label the instance really has, so the next update sets the program's.
    const state = made.label === undefined ? desired : { ...desired, label: made.label };
    return instanceOutputs(state, made.instanceId, reported, plan.effectiveEnv);
}

/**
 * A create's failure as the engine gets it: an instance that exists but is not ready reaches state
 * through an init failure (`inputs` as create got them, `__provider` included); any other as it is.
 */
export function keptInState(
    e: unknown,
    inputs: InstanceInputs,
    desired: InstanceInputs,
    plan: PlannedCreate,
    chosen: ChosenOffer | undefined,
): unknown {
    if (!(e instanceof InstanceNotReadyError)) return e;
    return initFailure(e, e.instanceId, createdOutputs(desired, plan, chosen, e), providerOf(inputs));
}

/** What the offer an instance was rented on says of it, as outputs. */
function rentedOn(chosen: ChosenOffer | undefined): Partial<InstanceOutputs> {
    if (!chosen) return {};
    return definedOnly({ rentedOfferId: chosen.offerId, machineId: chosen.machineId, gpuName: chosen.gpuName, numGpus: chosen.numGpus, geolocation: chosen.geolocation });
}
