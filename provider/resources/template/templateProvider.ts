/**
 * The Template resource's provider: check, diff, create, read, update and delete, each short; the
 * create, update and delete stories are in create/, update/ and delete/.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describePlainCredential, plainCredentials } from "../../env/credentials";
import { checkArgs, computedRefusals } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { shimChanged } from "../../dynamic/diffInputs";
import { replacedBy } from "../../dynamic/properties";
import { goneResult, readResult } from "../../dynamic/readResult";
import { TEMPLATE_COMPUTED, TEMPLATE_DEFAULTS, TEMPLATE_PROPERTIES, TemplateInputs, TemplateOutputs, onstartBeyondCreateLimits, templateArgsSchema } from "./templateArgs";
import { CheckFailure } from "../../dynamic/checkFailures";
import { isUnknown } from "../../dynamic/unknowns";
import { tagInTwoPlaces } from "../../schemas/imageReference";
import { withoutSecretsIn } from "./publishedSecrets";
import { adoptionReplaces } from "./create/adoptTemplate";
import { createTemplate } from "./create/createTemplate";
import { updateTemplate } from "./update/updateTemplate";
import { editedProperties, withoutLegacyBlanks } from "./update/editPlan";
import { deleteTemplate } from "./delete/deleteTemplate";
import { hold } from "./common/templateHolders";
import { canonicalTemplateInputs, inputsFromRecord } from "./common/templateMapping";
import { creatorOf, inputsOf, outputsOf, warnIfHeldByOthers } from "./common/templateOutputs";
import { ownTemplate } from "./common/templateOwnership";

type Props = Record<string, any>;

const TEMPLATE_REPLACED_BY: readonly string[] = replacedBy(templateArgsSchema);

/** Warns of each credential a public template shows in plain text (one the program marked secret is refused by `withoutSecretsIn`). */
function warnOfPlainCredentials(log: ProviderContext["log"], inputs: TemplateInputs): void {
    if (inputs.private !== false) return;
    for (const found of plainCredentials(inputs)) {
        log.warn(
            `template "${inputs.name}" is public (private: false), and its ${describePlainCredential(found)}: every Vast.ai user can read a public template's fields. ` +
                "Keep the template private, or give the value to each Instance's env instead",
        );
    }
}

/** An `image` with a tag of its own beside a `tag` (the default `latest` too), once both are known. */
function imageWithTag(args: Props): CheckFailure[] {
    const tag = args.tag ?? TEMPLATE_DEFAULTS.tag;
    if (typeof args.image !== "string" || isUnknown(args.image) || typeof tag !== "string" || isUnknown(tag)) return [];
    const problem = tagInTwoPlaces(args.image, tag);
    return problem ? [{ property: "image", reason: problem }] : [];
}

/**
 * The Template resource's implementation, run inside Pulumi's dynamic-provider host, given the
 * provider process's context. Typed against Pulumi's `ResourceProvider`: `diff`, `update`, `read`
 * and `delete` read the outputs `create` writes, and the compiler holds them to it.
 */
export const templateProvider = (ctx: ProviderContext) => ({
    async check(_olds: Props, given: Props): Promise<pulumi.dynamic.CheckResult<TemplateInputs>> {
        const { news, failure: published } = withoutSecretsIn(given);
        if (published) return { inputs: news as TemplateInputs, failures: [published] };
        const { args, failures } = checkArgs(news, templateArgsSchema, TEMPLATE_PROPERTIES, computedRefusals(TEMPLATE_COMPUTED));
        if (failures.length === 0) failures.push(...imageWithTag(args), ...onstartBeyondCreateLimits(args));
        if (failures.length > 0) return { inputs: news as TemplateInputs, failures };
        const inputs = canonicalTemplateInputs(args);
        warnOfPlainCredentials(ctx.log, inputs);
        return { inputs };
    },

    async diff(id: string, olds: TemplateOutputs, news: TemplateInputs) {
        const changed = editedProperties(withoutLegacyBlanks(olds, news), news);
        // As declared in templateArgsSchema: every field is edited in place (the edit gives a new hash_id);
        // only naming another template to adopt replaces (create/adoptTemplate.ts).
        const replaces = [...changed.filter((p) => TEMPLATE_REPLACED_BY.includes(p)), ...adoptionReplaces(olds, news)];
        // After an edit that could not be settled, the update looks at the template (see `editUnconfirmed`).
        const unsure = olds.editUnconfirmed === true;
        // Kept (not replaced): this resource holds its template in this `up` (common/templateHolders.ts).
        if (replaces.length === 0) warnIfHeldByOthers(ctx.log, Number(olds.templateId ?? id), hold(Number(olds.templateId ?? id), olds.holder));
        return { changes: changed.length > 0 || replaces.length > 0 || shimChanged(olds, news) || unsure, replaces, deleteBeforeReplace: false, diffs: changed };
    },

    async create(inputs: TemplateInputs) {
        return createTemplate(ctx, inputs);
    },

    async read(id: string, props: Partial<TemplateOutputs> = {}) {
        const vast = ctx.client();
        const templateId = Number(props.templateId ?? id);
        const record = await ownTemplate(ctx, vast, templateId, props.creatorId);
        if (!record) return goneResult<TemplateOutputs>();
        const inputs = inputsFromRecord(record, inputsOf(props));
        return readResult(String(record.id), outputsOf(inputs, record, record.id, creatorOf(record) ?? props.creatorId, props.holder), inputs);
    },

    async update(id: string, olds: TemplateOutputs, news: TemplateInputs) {
        return updateTemplate(ctx, id, olds, news);
    },

    async delete(id: string, props: TemplateOutputs) {
        return deleteTemplate(ctx, id, props);
    },
}) satisfies pulumi.dynamic.ResourceProvider<TemplateInputs, TemplateOutputs>;
