/**
 * Taking over a template the account already has (the `adopt` property) instead of creating one:
 * read by id, edited only where it differs, never a create (docs/design/template-create.md).
 */
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { changedProperties } from "../../../dynamic/diffInputs";
import { containsUnknown } from "../../../dynamic/unknowns";
import { TemplateRecord } from "../../../schemas/template";
import { TEMPLATE_CONTENT, TemplateInputs } from "../templateArgs";
import { editTemplate } from "../common/editTemplate";
import { inputsFromRecord, toTemplateFields } from "../common/templateMapping";
import { templateById } from "../common/templateOwnership";
import { ProviderError } from "../../../errors/providerError";


type Props = Record<string, unknown>;

/** `["adopt"]` when the program names another template to adopt than the one the resource is; a removed `adopt` changes nothing. */
export function adoptionReplaces(olds: object, news: object): string[] {
    const wanted = (news as Props).adopt;
    if (wanted === undefined || wanted === null) return [];
    if (containsUnknown(wanted)) return ["adopt"];
    return Number(wanted) === Number((olds as Props).templateId) ? [] : ["adopt"];
}

/**
 * What adopting `record` as `desired` edits: the properties the program sets whose value the
 * template does not have. The registry password cannot be read, so it is not among them.
 */
export function adoptionEdits(record: TemplateRecord, desired: TemplateInputs): string[] {
    const service = inputsFromRecord(record, {});
    const set = TEMPLATE_CONTENT.filter((p) => desired[p] !== undefined && p !== "dockerLoginPass");
    return changedProperties(service, desired, set);
}

/** Adopts template `templateId` as `desired` says: the record, and its hash after the edit (if one was needed). */
export async function adoptTemplate(
    ctx: ProviderContext,
    vast: VastClient,
    templateId: number,
    desired: TemplateInputs,
): Promise<{ record: TemplateRecord; hashId: string }> {
    const found = await templateById(ctx, vast, templateId);
    if ("none" in found) {
        throw new ProviderError(
            "adopt_not_found",
            `vastai: adopt template ${templateId} failed: the account has no template ${templateId} (deleted, or a mistyped id); ` +
                "remove `adopt` to create the template anew",
        );
    }
    if ("othersPublic" in found) {
        throw new ProviderError(
            "adopt_taken",
            `vastai: adopt template ${templateId} failed: template ${templateId} is another account's public template, and only ` +
                "the account's own templates can be adopted; remove `adopt` to create a template of your own",
        );
    }
    const record = found.own;
    const differing = adoptionEdits(record, desired);
    if (differing.length === 0) {
        if (desired.dockerLoginPass !== undefined) {
            ctx.log.warn(
                `template ${templateId} adopted as it is: the registry password was not sent (the service never shows the one it ` +
                    "holds, and an edit would give the template a new hashId); it is sent with the template's next edit",
            );
        }
        return { record, hashId: record.hash_id };
    }
    ctx.log.progress(`template ${templateId}: adopted; editing ${differing.join(", ")} to match the program`);
    const edited = await editTemplate(ctx, vast, templateId, record.hash_id, toTemplateFields(desired));
    return { record, hashId: edited.hash_id };
}
