/** An edit whose response was lost and could not be settled: recorded as unsure, and read back by the next update. */
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { initFailure, providerOf } from "../../../dynamic/initFailure";
import { TemplateInputs, TemplateOutputs } from "../templateArgs";
import { inputsFromRecord } from "../common/templateMapping";
import { inputsOf } from "../common/templateOutputs";
import { ownTemplate } from "../common/templateOwnership";
import { TemplateEditUnsettledError } from "../common/editTemplate";
import { ProviderError } from "../../../errors/providerError";

/**
 * State after an edit that could not be settled (`editUnconfirmed`): the template as it is now, as
 * a refresh would record it, so that the update edits only where the template differs from the
 * program, and keeps the hash it has when nothing does.
 */
export async function refreshedState(ctx: ProviderContext, vast: VastClient, templateId: number, olds: TemplateOutputs): Promise<TemplateOutputs> {
    const { editUnconfirmed: _unsure, ...known } = olds;
    const record = await ownTemplate(ctx, vast, templateId, olds.creatorId);
    if (!record) throw new ProviderError("deleted_elsewhere", `vastai: edit template ${templateId} failed: the template no longer exists; run \`pulumi refresh\``);
    return { ...known, ...inputsFromRecord(record, inputsOf(known)), hashId: record.hash_id };
}

/**
 * What an update throws for a failed edit: an unsettled one with state marked `editUnconfirmed`,
 * so the next up reads the template first (docs/design/template-edits.md); any other as it is.
 */
export function editFailure(e: unknown, id: string, known: TemplateOutputs, news: TemplateInputs): unknown {
    if (!(e instanceof TemplateEditUnsettledError)) return e;
    return initFailure(e, id, { ...known, editUnconfirmed: true }, providerOf(news));
}
