import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { EnvMap } from "../../env/envFlags";
import { envInputSchema } from "../../env/envInputSchema";
import { DEFAULT_RECOMMENDED_DISK_GB } from "../../schemas/limits";
import { RUNTYPES, extraFiltersSchema } from "../../schemas/template";

/** A template's arguments in a Pulumi program: the contract's template fields in camelCase. */
export interface TemplateArgs {
    name: pulumi.Input<string>;
    /** Container image path, without the tag. */
    image: pulumi.Input<string>;
    /** Default `latest`. */
    tag?: pulumi.Input<string>;
    desc?: pulumi.Input<string>;
    readme?: pulumi.Input<string>;
    /**
     * Environment and ports: the flag string (`-e NAME=value -p 8080:8080`) or a map
     * (`{ NAME: "value", "-p 8080:8080": "1" }`). Kept as the canonical map either way.
     */
    env?: pulumi.Input<string | Record<string, pulumi.Input<string>>>;
    onstart?: pulumi.Input<string>;
    /** `ssh`, `jupyter` or `args`; default `args`. */
    runtype?: pulumi.Input<"ssh" | "jupyter" | "args">;
    argsStr?: pulumi.Input<string>;
    sshDirect?: pulumi.Input<boolean>;
    useSsh?: pulumi.Input<boolean>;
    jupDirect?: pulumi.Input<boolean>;
    jupyterDir?: pulumi.Input<string | null>;
    useJupyterLab?: pulumi.Input<boolean>;
    /**
     * Private registry. Login fields the program does not set are never sent on an edit, so a
     * password set in the console survives (a create sends them as empty strings, as the contract asks).
     */
    dockerLoginRepo?: pulumi.Input<string>;
    dockerLoginUser?: pulumi.Input<string>;
    /** Registry token; kept secret in state even when given as plain text. */
    dockerLoginPass?: pulumi.Input<string>;
    href?: pulumi.Input<string>;
    repo?: pulumi.Input<string>;
    /** Default machine search filters, `{ field: { op: value } }`. */
    extraFilters?: pulumi.Input<Record<string, Record<string, unknown>>>;
    /** GB; default 8. */
    recommendedDiskSpace?: pulumi.Input<number>;
    /** Default true: a template is private unless the program says `private: false` (its env and onstart may hold internal URLs). */
    private?: pulumi.Input<boolean>;
    /** An interface hint only; it has no effect on instance creation. */
    volumeInfo?: pulumi.Input<Record<string, unknown> | null>;
}

/** Inputs after `check`: validated, defaulted, `env` as the canonical map. */
export interface TemplateInputs {
    name: string;
    image: string;
    tag: string;
    desc?: string;
    readme?: string;
    env?: EnvMap;
    onstart?: string;
    runtype: "ssh" | "jupyter" | "args";
    argsStr?: string;
    sshDirect?: boolean;
    useSsh?: boolean;
    jupDirect?: boolean;
    jupyterDir?: string | null;
    useJupyterLab?: boolean;
    dockerLoginRepo?: string;
    dockerLoginUser?: string;
    dockerLoginPass?: string;
    href?: string;
    repo?: string;
    extraFilters?: Record<string, Record<string, unknown>>;
    recommendedDiskSpace: number;
    private: boolean;
    volumeInfo?: Record<string, unknown> | null;
}

/** Outputs: every input, plus the service's identifiers. */
export interface TemplateOutputs extends TemplateInputs {
    /** The numeric id; stable across edits; the Pulumi id too. */
    templateId: number;
    /** Content-derived; changes on every edit. Instances reference this. */
    hashId: string;
}

/** Input property → service field. The order is the order properties are reported in. */
export const TEMPLATE_FIELDS = {
    name: "name",
    image: "image",
    tag: "tag",
    desc: "desc",
    readme: "readme",
    env: "env",
    onstart: "onstart",
    runtype: "runtype",
    argsStr: "args_str",
    sshDirect: "ssh_direct",
    useSsh: "use_ssh",
    jupDirect: "jup_direct",
    jupyterDir: "jupyter_dir",
    useJupyterLab: "use_jupyter_lab",
    dockerLoginRepo: "docker_login_repo",
    dockerLoginUser: "docker_login_user",
    dockerLoginPass: "docker_login_pass",
    href: "href",
    repo: "repo",
    extraFilters: "extra_filters",
    recommendedDiskSpace: "recommended_disk_space",
    private: "private",
    volumeInfo: "volume_info",
} as const satisfies Record<keyof TemplateInputs, string>;

export type TemplateProperty = keyof typeof TEMPLATE_FIELDS;
export const TEMPLATE_PROPERTIES = Object.keys(TEMPLATE_FIELDS) as TemplateProperty[];

/** Properties the provider computes; never accepted as inputs. */
export const TEMPLATE_COMPUTED = ["templateId", "hashId"] as const;

/** What `check` validates. Strict: an unknown property is an error, with a "did you mean". */
export const templateArgsSchema = z.strictObject({
    name: z.string().min(1, "must not be empty"),
    image: z.string().min(1, "must not be empty"),
    tag: z.string().min(1, "must not be empty").optional(),
    desc: z.string().optional(),
    readme: z.string().optional(),
    env: envInputSchema({ asFlagString: true }).optional(),
    onstart: z.string().optional(),
    runtype: z.enum(RUNTYPES).optional(),
    argsStr: z.string().optional(),
    sshDirect: z.boolean().optional(),
    useSsh: z.boolean().optional(),
    jupDirect: z.boolean().optional(),
    jupyterDir: z.string().nullable().optional(),
    useJupyterLab: z.boolean().optional(),
    dockerLoginRepo: z.string().optional(),
    dockerLoginUser: z.string().optional(),
    dockerLoginPass: z.string().optional(),
    href: z.string().optional(),
    repo: z.string().optional(),
    extraFilters: extraFiltersSchema.optional(),
    recommendedDiskSpace: z.number().positive("must be a positive number of GB").optional(),
    private: z.boolean().optional(),
    volumeInfo: z.record(z.string(), z.unknown()).nullable().optional(),
});

/**
 * The contract's defaults (§2.2): tag latest, runtype args, 8 GB; and private, as the vendor
 * console makes templates, so nothing becomes public by omission.
 */
export const TEMPLATE_DEFAULTS = {
    tag: "latest",
    runtype: "args",
    recommendedDiskSpace: DEFAULT_RECOMMENDED_DISK_GB,
    private: true,
} as const;

/** The registry login fields; the contract wants them on a create, as empty strings when unused. */
export const REGISTRY_LOGIN_ON_CREATE = { dockerLoginRepo: "", dockerLoginUser: "", dockerLoginPass: "" } as const;
