/** A Template update, its steps in order: read back an unsure edit, plan the edit, send it, map the response to outputs. */
import { ProviderContext } from "../../../dynamic/context";
import { TemplateInputs, TemplateOutputs } from "../templateArgs";
import { canonicalTemplateInputs } from "../common/templateMapping";
import { outputsOf } from "../common/templateOutputs";
import { editTemplate } from "../common/editTemplate";
import { editFields, editedProperties, withoutLegacyBlanks } from "./editPlan";
import { refreshedState, editFailure } from "./unconfirmedEdit";

export async function updateTemplate(ctx: ProviderContext, id: string, olds: TemplateOutputs, news: TemplateInputs): Promise<{ outs: TemplateOutputs }> {
    const vast = ctx.client();
    const templateId = Number(olds.templateId ?? id);
    const desired = canonicalTemplateInputs(news);
    const known = olds.editUnconfirmed ? await refreshedState(ctx, vast, templateId, olds) : olds;
    // Only the shim in state is new (see shimChanged), or nothing to send: no edit, which would change the hash.
    const managed = withoutLegacyBlanks(known, desired);
    if (editedProperties(managed, desired).length === 0) {
        return { outs: outputsOf(desired, { id: templateId, hash_id: String(known.hashId) }, templateId, known.creatorId, olds.holder) };
    }
    const fields = editFields(managed, known, desired);
    let edited: { id?: number; hash_id: string };
    try {
        edited = await editTemplate(ctx, vast, templateId, String(known.hashId), fields, known.creatorId);
    } catch (e) {
        throw editFailure(e, id, known, news);
    }
    return { outs: outputsOf(desired, edited, templateId, known.creatorId, olds.holder) };
}
