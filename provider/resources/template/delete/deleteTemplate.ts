/** A Template delete, its steps in order: let the template go, delete it unless another resource holds it, explain a refusal. */
import { confirmedDelete } from "../../confirmedDelete";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateOutputs } from "../templateArgs";
import { hold, release } from "../common/templateHolders";
import { ownTemplate } from "../common/templateOwnership";
import { deleteFailure } from "./deleteRefusals";

export async function deleteTemplate(ctx: ProviderContext, id: string, props: TemplateOutputs): Promise<void> {
    const vast = ctx.client();
    const templateId = Number(props.templateId ?? id);
    // Deleted (unlinked) or not, this resource holds it no more: a create of the same content may take it back.
    if (release(templateId, props.holder)) {
        ctx.log.warn(`template ${templateId} is not deleted on Vast.ai: another resource of this stack holds it; this one only leaves the stack`);
        return;
    }
    try {
        await confirmedDelete(
            ctx,
            { operation: "delete template", target: String(templateId) },
            () => vast.templates.delete(templateId),
            async () => (await ownTemplate(ctx, vast, templateId, props.creatorId)) !== undefined,
        );
    } catch (e) {
        // Still there: held again, as it was.
        hold(templateId, props.holder);
        throw await deleteFailure(ctx, e, templateId, props.creatorId);
    }
}
