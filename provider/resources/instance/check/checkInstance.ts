import type * as pulumi from "@pulumi/pulumi";
import { checkArgs, computedRefusals } from "../../../dynamic/checkArgs";
import { CheckFailure } from "../../../dynamic/checkFailures";
import { ProviderContext } from "../../../dynamic/context";
import { changedProperties } from "../../../dynamic/diffInputs";
import { containsUnknown, isUnknown } from "../../../dynamic/unknowns";
import { normalizeEnvMap, toEnvMap } from "../../../schemas/envFlags";
import { envLimitProblems } from "../../../schemas/limits";
import {
    INSTANCE_COMPUTED,
    INSTANCE_PROPERTIES,
    InstanceInputs,
    TEMPLATE_ID_SPELLINGS,
    highBidOnSameOffer,
    instanceArgsSchema,
    oneWayToMount,
    replacementAdoptsItself,
    replacingChanges,
    runtypeWithTemplate,
    volumeMadeOutsideState,
} from "../instanceArgs";
import { normalizeInputs, templateEnv } from "../common/instanceMapping";
import { otherCommandChars, planOnstart, planTemplateOnstart } from "../../onstartBootstrap";
import { lookupTemplate, templateNotVisible } from "../common/templateLookup";
import { nextGeneration } from "../../resourceSlot";
import { volumeMachine } from "../common/volumeMachine";

// An instance's check: the program's inputs validated, defaults filled in, before any plan.

type Props = Record<string, any>;

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

/**
 * `tag`, which a Template takes apart from its image: an Instance's image names its tag itself, as
 * the create request's `image` does (contract §4.7), so the fix is one line, with the program's own
 * values where they are known (docs/design/template-create.md, "tag").
 */
function tagRefusal(news: Props): string {
    const known = (value: unknown): value is string => typeof value === "string" && value !== "" && !isUnknown(value);
    const tag = known(news.tag) ? news.tag : "2.3.0";
    // The repository without a tag or digest it may already name (a tag follows the last "/").
    const repository = known(news.image) ? news.image.replace(/@.*$/, "").replace(/:[^/]*$/, "") : "pytorch/pytorch";
    return `tag is not an Instance property: put it in image, "${repository}:${tag}"`;
}

/** Validates `news` against the declarations and, where a create follows, against its template. */
export async function checkInstance(ctx: ProviderContext, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<InstanceInputs>> {
    // A refresh records an instance frozen in the web console as desiredState "frozen", which no
    // program sets; a program that ignores changes to desiredState has the engine hand that
    // value back as its own. Kept then (the instance is left frozen), and refused otherwise.
    const keptFrozen = news.desiredState === "frozen" && olds.desiredState === "frozen";
    // Where the resource stands, which the Instance class gives beside the properties (createKey.ts).
    const { createSlot, createGeneration: _, ...given } = news;
    const refused = { ...REFUSED, tag: tagRefusal(given) };
    const { args, failures } = checkArgs(keptFrozen ? { ...given, desiredState: undefined } : given, instanceArgsSchema, INSTANCE_PROPERTIES, refused);
    if (failures.length === 0) failures.push(...onstartFailures(args), ...runtypeWithTemplate(args, olds), ...oneWayToMount(args));
    if (failures.length > 0) return { inputs: news as InstanceInputs, failures };
    // Compared with the inputs in state as diff compares them, normalized: `env` written as a
    // flag string is the same as the map state keeps, and must not read as a replacement.
    const inputs = normalizeInputs(keptFrozen ? { ...args, desiredState: "frozen" } : args);
    const replaces = replacingChanges(olds, inputs, changedProperties(olds, inputs as unknown as Props, INSTANCE_PROPERTIES));
    // What only a create is refused for is checked when a create follows: a new instance, or a
    // replacement. An adoption makes nothing from the template: its hash is compared with the
    // instance's, which the account may no longer see (edited or deleted since).
    const creates = (Object.keys(olds).length === 0 || replaces.length > 0) && inputs.adopt === undefined;
    failures.push(...highBidOnSameOffer(inputs, olds, replaces), ...replacementAdoptsItself(olds, inputs, replaces));
    if (creates) failures.push(...volumeMadeOutsideState(inputs));
    if (failures.length === 0 && creates) failures.push(...(await templateFailures(ctx, inputs as unknown as Props)), ...(await volumeMachineFailures(ctx, inputs)));
    if (failures.length > 0) return { inputs: news as InstanceInputs, failures };
    if (typeof createSlot !== "string") return { inputs };
    return { inputs: { ...inputs, createSlot, createGeneration: nextGeneration(olds, Object.keys(olds).length > 0) } };
}

/**
 * A pinned offer on another machine than the volume it mounts, when both are known (during `up`,
 * and during preview when neither is changing): refused before anything is rented. A lookup that
 * fails leaves it to the create, which asks again.
 */
async function volumeMachineFailures(ctx: ProviderContext, inputs: InstanceInputs): Promise<CheckFailure[]> {
    if (inputs.volumes === undefined || containsUnknown(inputs.volumes) || inputs.offerId === undefined || isUnknown(inputs.offerId)) return [];
    try {
        await volumeMachine(ctx.client(), inputs);
        return [];
    } catch (e) {
        return [{ property: "offerId", reason: (e as Error).message.replace(/^vastai: create instance failed: /, "") }];
    }
}

/** The onstart size check, once the script and the other commands are known. */
function onstartFailures(args: Props): CheckFailure[] {
    if (typeof args.onstart !== "string" || isUnknown(args.onstart) || containsUnknown(args.args) || isUnknown(args.argsStr)) return [];
    const plan = planOnstart(args.onstart, otherCommandChars(args.args, args.argsStr));
    return plan.problem ? [{ property: "onstart", reason: plan.problem }] : [];
}

/**
 * The template a create starts from, once its hash is known (during `up`, and during preview when
 * the template is not changing). A hash the service says it does not have (the template was
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
    // The template's onstart goes with the create when the program gives none (toCreateRequest):
    // one made outside Pulumi may be too long for it even compressed.
    if (args.onstart === undefined && typeof template.onstart === "string" && !containsUnknown(args.args) && !isUnknown(args.argsStr)) {
        const plan = planTemplateOnstart(template.onstart, template.args_str ?? undefined, args);
        if (plan.problem) return [{ property: "templateHashId", reason: `the onstart of template ${hashId} cannot go with an instance create: ${plan.problem}` }];
    }
    if (containsUnknown(args.env)) return [];
    const merged = normalizeEnvMap({ ...templateEnv(template), ...(args.env === undefined ? {} : toEnvMap(args.env)) });
    return envLimitProblems(merged).map(({ key, problem }) => ({
        property: key === undefined ? "env" : `env.${key}`,
        reason: `merged with the env of template ${hashId}: ${problem}`,
    }));
}
