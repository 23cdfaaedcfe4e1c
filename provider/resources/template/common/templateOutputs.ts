/** A Template resource's outputs, from its inputs and the template the service holds; and the holding of a new one. */
import { pickInputs } from "../../../dynamic/checkArgs";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateRecord } from "../../../schemas/template";
import { TEMPLATE_PROPERTIES, TemplateInputs, TemplateOutputs } from "../templateArgs";
import { hold, newHolder } from "./templateHolders";

/** The inputs among a resource's state or arguments. */
export const inputsOf = (props: Record<string, any>): Record<string, any> => pickInputs(props, TEMPLATE_PROPERTIES);

/** The creator the service names for a template, or undefined if it names none. */
export const creatorOf = (record: TemplateRecord): number | undefined => record.creator_id ?? undefined;

/**
 * Outputs from the inputs and the service's response; `creatorId` when known (kept from state
 * otherwise); the resource's `holder` (templateHolders.ts), a new one for a resource without.
 */
export function outputsOf(inputs: TemplateInputs, record: { id?: number; hash_id: string }, templateId: number, creatorId: number | undefined, holder: string | undefined): TemplateOutputs {
    const outs: TemplateOutputs = { ...inputs, templateId: record.id ?? templateId, hashId: record.hash_id, holder: holder ?? newHolder() };
    if (creatorId !== undefined) outs.creatorId = creatorId;
    return outs;
}

/** The outputs of a create, whose template the new resource holds from now on (a lost create never takes a held one, `isHeld`). */
export function createdOutputs(log: ProviderContext["log"], inputs: TemplateInputs, record: { id: number; hash_id: string }, creatorId: number | undefined): TemplateOutputs {
    const outs = outputsOf(inputs, record, record.id, creatorId, undefined);
    warnIfHeldByOthers(log, record.id, hold(record.id, outs.holder));
    return outs;
}

export function warnIfHeldByOthers(log: ProviderContext["log"], templateId: number, others: number) {
    if (others === 0) return;
    log.warn(
        `template ${templateId} is held by ${others + 1} resources of this stack: each one's edits undo the others'. ` +
            "Keep one (remove the other file or resource); the template is deleted on Vast.ai only when the last one goes, " +
            "unless an `up` that removes one leaves the other out (`--target`, `--exclude`)",
    );
}
