import { z } from "zod";
import { CanonicalInputs } from "../canonicalInputs";
import { CheckFailure } from "../../dynamic/checkFailures";
import { isUnknown } from "../../dynamic/unknowns";
import { planTemplateOnstart } from "../onstartBootstrap";
import { ComputedOutputs, PulumiArgs, computedOf, defaultsOf, prop, propertiesOf, wireFieldsOf } from "../../dynamic/properties";
import { envInputSchema } from "../../env/envInputSchema";
import { DEFAULT_RECOMMENDED_DISK_GB } from "../../schemas/limits";
import { OfferFilters, offerFiltersSchema } from "../../schemas/offer";
import { RUNTYPES } from "../../schemas/template";
import { imageReferenceCheck, imageTagCheck } from "../../schemas/imageReference";

/**
 * A template's properties, each declared once: its schema (what `check` validates; strict, so an
 * unknown property is an error with a "did you mean"), its default, its service field and its
 * docs. Every template field is edited in place; the edit gives the template a new `hash_id`.
 *
 * The defaults are the contract's (§2.2): tag latest, runtype args, 8 GB; and private, as the
 * vendor console makes templates, so nothing becomes public by omission.
 */
export const templateArgsSchema = z.strictObject({
    /** The name shown in the console; also what a lost create is looked for by. */
    name: prop(z.string().min(1, "must not be empty"), { wire: "name", onChange: "update" }),
    /** Container image path, without the tag. */
    image: prop(z.string().min(1, "must not be empty").superRefine(imageReferenceCheck("template")), { wire: "image", onChange: "update" }),
    /**
     * Default `latest`; `""` for none, as the console keeps a template whose image names its own tag.
     * One word (`2.3.0-cuda12.1-cudnn8-runtime`), at most 128 characters.
     */
    tag: prop(z.string().superRefine(imageTagCheck).default("latest"), { wire: "tag", onChange: "update" }),
    /** A short description, shown with the template. */
    desc: prop(z.string().optional(), { wire: "desc", onChange: "update" }),
    /** Longer documentation text (Markdown). */
    readme: prop(z.string().optional(), { wire: "readme", onChange: "update", mayHoldCredentials: true }),
    /**
     * Environment and ports: the flag string (`-e NAME=value -p 8080:8080`) or a map
     * (`{ NAME: "value", "-p 8080:8080": "1" }`). Kept as the canonical map either way. A volume
     * `-v /data:/data`, a network `-n name` and a hostname `-h name` too, as the vendor CLI reads
     * them (map keys `"-v /data:/data": "1"`, `"-n name": "1"`, `"-h": "name"`).
     */
    env: prop(envInputSchema({ asFlagString: true }).optional(), { wire: "env", onChange: "update", mayHoldCredentials: true }),
    /**
     * Shell commands run when an instance of the template starts. Every instance create carries
     * it, so it must fit the create's limits (4048 characters; 4096 with `argsStr`): a longer one
     * goes compressed with each instance, and one too long even then is refused.
     */
    onstart: prop(z.string().optional(), { wire: "onstart", onChange: "update", mayHoldCredentials: true }),
    /** `ssh`, `jupyter` or `args`; default `args`. */
    runtype: prop(z.enum(RUNTYPES).default("args"), { wire: "runtype", onChange: "update" }),
    /** With runtype `args`: replaces the image's command, or is passed to its entrypoint as arguments. */
    argsStr: prop(z.string().optional(), { wire: "args_str", onChange: "update", mayHoldCredentials: true }),
    /** SSH straight to the machine rather than through Vast's proxy (recommended with runtype `ssh`). */
    sshDirect: prop(z.boolean().optional(), { wire: "ssh_direct", onChange: "update" }),
    /** SSH access enabled. */
    useSsh: prop(z.boolean().optional(), { wire: "use_ssh", onChange: "update" }),
    /** Jupyter straight to the machine rather than through Vast's proxy. */
    jupDirect: prop(z.boolean().optional(), { wire: "jup_direct", onChange: "update" }),
    /** Jupyter's start directory. `null` is read as not set (as the service reads it): the field is cleared. */
    jupyterDir: prop(z.string().nullable().optional(), { wire: "jupyter_dir", onChange: "update" }),
    /** JupyterLab instead of Jupyter Notebook. */
    useJupyterLab: prop(z.boolean().optional(), { wire: "use_jupyter_lab", onChange: "update" }),
    /**
     * Private registry. Login fields the program does not set are never sent on an edit, so a
     * password set in the console survives (a create sends them as empty strings, as the service asks).
     */
    dockerLoginRepo: prop(z.string().optional(), { wire: "docker_login_repo", onChange: "update" }),
    /** Registry user name. */
    dockerLoginUser: prop(z.string().optional(), { wire: "docker_login_user", onChange: "update" }),
    /** Registry token; kept secret in state even when given as plain text. */
    dockerLoginPass: prop(z.string().optional(), { wire: "docker_login_pass", onChange: "update", secret: true }),
    /** A link to the image's documentation. */
    href: prop(z.string().optional(), { wire: "href", onChange: "update" }),
    /** The image's repository identifier. */
    repo: prop(z.string().optional(), { wire: "repo", onChange: "update" }),
    /**
     * Default machine search filters: conditions on offer fields, `{ gpu_ram: { gte: 24000 } }`, the
     * same fields, operators and value types as an Instance's `offer.filters` (the service merges
     * them into the machine search of an instance made from the template).
     */
    extraFilters: prop(offerFiltersSchema.optional(), { wire: "extra_filters", onChange: "update" }),
    /** GB; default 8. */
    recommendedDiskSpace: prop(z.number().positive("must be a positive number of GB").default(DEFAULT_RECOMMENDED_DISK_GB), {
        wire: "recommended_disk_space",
        onChange: "update",
    }),
    /** Default true: a template is private unless the program says `private: false` (its env and onstart may hold internal URLs). */
    private: prop(z.boolean().default(true), { wire: "private", onChange: "update" }),
    /** An interface hint only; it has no effect on instance creation. `null` is read as not set: the field is cleared. */
    volumeInfo: prop(z.record(z.string(), z.unknown()).nullable().optional(), { wire: "volume_info", onChange: "update" }),
    /**
     * The numeric id of a template the account already has, to take over instead of creating one
     * (`export-templates` writes it into each file). Used when the resource is created: that
     * template is edited to match, only if it differs, and is then managed (and deleted) like one
     * Pulumi made. Another account's template is refused. Another id later replaces the resource;
     * removing the property changes nothing.
     */
    adopt: prop(z.number().int().positive("must be a template's numeric id").optional(), { onChange: "replace" }),
});

type SchemaArgs = z.input<typeof templateArgsSchema>;

/**
 * `extraFilters` typed as an Instance's `offer.filters`, each condition by its field (the schema
 * checks the fields at run time only), its doc comment kept: a mapped type over the schema's own key.
 */
type TypedExtraFilters = { [K in keyof Pick<SchemaArgs, "extraFilters">]?: PulumiArgs<{ filters: OfferFilters }>["filters"] };

/** A template's arguments in a Pulumi program: the contract's template fields in camelCase. */
export interface TemplateArgs extends PulumiArgs<Omit<SchemaArgs, "extraFilters">>, TypedExtraFilters {}

/** Inputs after `check`: validated, defaulted, `env` as the canonical map. */
export type TemplateInputs = CanonicalInputs<typeof templateArgsSchema>;

/** Outputs: every input, plus the service's identifiers. */
export interface TemplateOutputs extends TemplateInputs {
    /** The numeric id: stable across edits, and the Pulumi id. */
    templateId: number;
    /** Content-derived; new after every edit. Instances reference this. */
    hashId: string;
    /** The account that made the template; lets a refresh tell this account's template from another's public one without asking who the key belongs to. */
    creatorId?: number;
    /**
     * Only after an edit whose answer was lost and could not be settled: the template may or may
     * not hold it (under a new hash). State keeps the content and hash from before; the next `up`
     * reads the template and edits it only where it differs from the program. A refresh clears it.
     */
    editUnconfirmed?: boolean;
    /**
     * This resource's own token, made when it makes or takes over its template: a dynamic provider
     * is never told a resource's URN, and this tells two resources that hold one template apart,
     * so that deleting one keeps the template the other holds; both are warned of.
     */
    holder?: string;
}

/** Every input property, in the order they are reported. */
export const TEMPLATE_PROPERTIES = propertiesOf(templateArgsSchema);
export type TemplateProperty = (typeof TEMPLATE_PROPERTIES)[number];

/** Input property → service field: every property but `adopt` (the provider's own) is one of the contract's fields. */
export const TEMPLATE_FIELDS = wireFieldsOf(templateArgsSchema) satisfies Record<Exclude<TemplateProperty, "adopt">, string>;
export type TemplateContentProperty = keyof typeof TEMPLATE_FIELDS;

/** The properties that are the template's content on the service, in the order they are reported. */
export const TEMPLATE_CONTENT = TEMPLATE_PROPERTIES.filter((p): p is TemplateContentProperty => p in TEMPLATE_FIELDS);

/** Properties the provider computes, never accepted as inputs; none of them is secret. */
export const TEMPLATE_COMPUTED_OUTPUTS = { templateId: {}, hashId: {}, creatorId: {}, editUnconfirmed: {}, holder: {} } as const satisfies ComputedOutputs<TemplateOutputs, TemplateInputs>;
export const TEMPLATE_COMPUTED = computedOf(TEMPLATE_COMPUTED_OUTPUTS);

/** The defaults `check` fills in, from the schema's `.default(...)`. */
export const TEMPLATE_DEFAULTS = defaultsOf(templateArgsSchema);

/** The registry login fields; the contract wants them on a create, as empty strings when unused. */
export const REGISTRY_LOGIN_ON_CREATE = { dockerLoginRepo: "", dockerLoginUser: "", dockerLoginPass: "" } as const;

/**
 * A template's onstart that no instance create could carry, even compressed: refused in `check`,
 * with the sizes, rather than at the first instance made from it (docs/design/template-create.md).
 */
export function onstartBeyondCreateLimits(args: { onstart?: unknown; argsStr?: unknown }): CheckFailure[] {
    const { onstart, argsStr } = args;
    if (typeof onstart !== "string" || isUnknown(onstart) || isUnknown(argsStr)) return [];
    const plan = planTemplateOnstart(onstart, typeof argsStr === "string" ? argsStr : undefined);
    return plan.problem ? [{ property: "onstart", reason: `every instance made from the template carries its onstart in the create request: ${plan.problem}` }] : [];
}
