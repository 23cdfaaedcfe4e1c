/** A Template read by its numeric id alone, as `pulumi import` reads it (docs/design/import.md). */
import { ProviderContext } from "../../../dynamic/context";
import { TemplateRecord } from "../../../schemas/template";
import { Importer, importedId, notImportable, notOnAccount } from "../../importing";
import { TemplateInputs } from "../templateArgs";
import { NOT_READ_BACK, inputsFromRecord } from "../common/templateMapping";
import { creatorOf, outputsOf } from "../common/templateOutputs";
import { templateById } from "../common/templateOwnership";

const ID_IS = "the template's numeric id, its templateId, not its hashId; the console's template page and `vastai search templates` show it";

/**
 * Every field the template has, as check would give it: a null is no setting (as the service reads
 * one). Fields held cleared (`desc: ""`, `sshDirect: false`) stay as they are: an edit never
 * clears them again (update/editPlan.ts), so a program may leave them out or spell them so.
 */
function importedInputs(record: TemplateRecord): TemplateInputs {
    const read = inputsFromRecord(record, {}) as unknown as Record<string, unknown>;
    return Object.fromEntries(Object.entries(read).filter(([, value]) => value !== null)) as unknown as TemplateInputs;
}

export const templateImporter = (ctx: ProviderContext): Importer => ({
    /** The account's own template: found by id (three looks before none), another account's public one refused. */
    async read(id) {
        const templateId = importedId("Template", id, ID_IS);
        const found = await templateById(ctx, ctx.client(), templateId);
        if ("none" in found) throw notOnAccount("Template", templateId, "template", ID_IS);
        if ("othersPublic" in found) {
            throw notImportable(
                "Template",
                templateId,
                "it is another account's public template: only the account's own templates are managed (an edit or a delete of it would be refused). " +
                    "Give its hashId to an Instance's templateHashId to use it as it is, or make a template of your own",
            );
        }
        const record = found.own;
        const inputs = importedInputs(record);
        // A new holder: the resource holds its template from now on (common/templateHolders.ts).
        const props = outputsOf(inputs, record, record.id, creatorOf(record), undefined);
        return { id: String(record.id), props: { ...props }, inputs: { ...inputs }, taken: NOT_READ_BACK };
    },
});
