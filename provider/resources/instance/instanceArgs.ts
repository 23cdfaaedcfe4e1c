import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { EnvMap } from "../../env/envFlags";
import { envInputSchema } from "../../env/envInputSchema";
import { CheckFailure } from "../../dynamic/checkFailures";
import { isUnknown } from "../../dynamic/unknowns";
import { INSTANCE_LIMITS } from "../../schemas/limits";
import { RUNTYPES } from "../../schemas/template";

/** A volume to attach (docs/service-contract.md §2.3), in camelCase. A template's volume is never applied. */
export interface InstanceVolumeInfo {
    /** false links an existing volume; true creates a new one. */
    createNew: boolean;
    /** The existing volume's id, or the volume offer's id when `createNew` is true. */
    volumeId: number;
    /** GB; used only when `createNew` is true. */
    size?: number;
    /** Where the volume appears inside the container. */
    mountPath: string;
}

/** An instance's arguments in a Pulumi program. */
export interface InstanceArgs {
    /** The offer (ask) to accept. */
    offerId: pulumi.Input<number>;
    /** Template to start from, typically `template.hashId`. `templateId` is not accepted (docs/service-contract.md §7). */
    templateHashId?: pulumi.Input<string>;
    /** Container image, tag included; overrides the template's. Required without a template. */
    image?: pulumi.Input<string>;
    /**
     * Environment and ports: a map (`{ NAME: "value", "-p 8080:8080": "1" }`) or the flag string
     * (`-e NAME=value -p 8080:8080`). Merged over the template's env, this map winning.
     */
    env?: pulumi.Input<string | Record<string, pulumi.Input<string>>>;
    /** Run at start. Longer than 4048 characters, it is sent compressed (see the README). */
    onstart?: pulumi.Input<string>;
    args?: pulumi.Input<pulumi.Input<string>[]>;
    argsStr?: pulumi.Input<string>;
    /** `ssh`, `jupyter` or `args`. */
    runtype?: pulumi.Input<"ssh" | "jupyter" | "args">;
    /** GB, at least 8. Without it the template's recommended disk applies. */
    disk?: pulumi.Input<number>;
    /** Edited in place. */
    label?: pulumi.Input<string>;
    /** Interruptible bid in $/hour; without it the instance is on demand. */
    price?: pulumi.Input<number>;
    /** Private registry login, `-u user -p token registry`; kept secret in state. */
    imageLogin?: pulumi.Input<string>;
    volumeInfo?: pulumi.Input<{
        createNew: pulumi.Input<boolean>;
        volumeId: pulumi.Input<number>;
        /** GB; used only when `createNew` is true. */
        size?: pulumi.Input<number>;
        mountPath: pulumi.Input<string>;
    }>;
    /** Wait until the instance runs (default true); false returns once the service accepted it. */
    waitForRunning?: pulumi.Input<boolean>;
    /** How long each started instance may take to reach `running`; default 900 s, as the vendor CLI. */
    readyTimeoutSeconds?: pulumi.Input<number>;
    /** Instances tried in all when one ends `exited`, `unknown` or `offline`; default 3. */
    maxCreateAttempts?: pulumi.Input<number>;
}

/** Inputs after `check`: validated, defaulted, `env` as the canonical map. */
export interface InstanceInputs {
    offerId: number;
    templateHashId?: string;
    image?: string;
    env?: EnvMap;
    onstart?: string;
    args?: string[];
    argsStr?: string;
    runtype?: "ssh" | "jupyter" | "args";
    disk?: number;
    label?: string;
    price?: number;
    imageLogin?: string;
    volumeInfo?: InstanceVolumeInfo;
    waitForRunning: boolean;
    readyTimeoutSeconds: number;
    maxCreateAttempts: number;
}

/** Outputs: every input, plus what the service reports. Absent values are left out. */
export interface InstanceOutputs extends InstanceInputs {
    /** `new_contract`; the Pulumi id too. */
    instanceId: number;
    actualStatus?: string;
    intendedStatus?: string;
    statusMsg?: string;
    sshHost?: string;
    sshPort?: number;
    /** Trimmed: the service pads it. */
    publicIpaddr?: string;
    /** Container port (`"8888/tcp"`) → public host port. */
    ports?: Record<string, number>;
    machineId?: number;
    /** $/hour, everything included. */
    dphTotal?: number;
    /** The env the instance was created with: the template's merged with `env`, `env` winning. */
    effectiveEnv?: EnvMap;
}

/** Every input property, in the order they are reported. */
export const INSTANCE_PROPERTIES = [
    "offerId",
    "templateHashId",
    "image",
    "env",
    "onstart",
    "args",
    "argsStr",
    "runtype",
    "disk",
    "label",
    "price",
    "imageLogin",
    "volumeInfo",
    "waitForRunning",
    "readyTimeoutSeconds",
    "maxCreateAttempts",
] as const satisfies ReadonlyArray<keyof InstanceInputs>;
export type InstanceProperty = (typeof INSTANCE_PROPERTIES)[number];

/**
 * What a running instance takes in place: `label` is edited; `imageLogin` and the readiness
 * settings only matter while an instance starts, so a change is recorded and nothing more.
 */
export const INSTANCE_IN_PLACE_PROPERTIES: readonly InstanceProperty[] = ["label", "imageLogin", "waitForRunning", "readyTimeoutSeconds", "maxCreateAttempts"];

/** Everything else was fixed when the instance was created: a change starts a new instance. */
export const INSTANCE_REPLACE_PROPERTIES: readonly InstanceProperty[] = INSTANCE_PROPERTIES.filter(
    (p) => !INSTANCE_IN_PLACE_PROPERTIES.includes(p),
);

/** Properties the provider computes; never accepted as inputs. */
export const INSTANCE_COMPUTED = [
    "instanceId",
    "actualStatus",
    "intendedStatus",
    "statusMsg",
    "sshHost",
    "sshPort",
    "publicIpaddr",
    "ports",
    "machineId",
    "dphTotal",
    "effectiveEnv",
] as const;

export const INSTANCE_DEFAULTS = {
    waitForRunning: true,
    readyTimeoutSeconds: 900,
    maxCreateAttempts: 3,
} as const;

/** Names that mean "the template's numeric id", which instance creation refuses (docs/service-contract.md §7). */
export const TEMPLATE_ID_SPELLINGS = ["templateId", "template_id"] as const;

const volumeInfoArgsSchema = z.strictObject({
    createNew: z.boolean(),
    volumeId: z.number().int().positive(),
    size: z.number().positive("must be a positive number of GB").optional(),
    mountPath: z.string().min(1, "must not be empty"),
});

/** What `check` validates. Strict: an unknown property is an error, with a "did you mean". */
export const instanceArgsSchema = z
    .strictObject({
        offerId: z.number().int().positive("must be a positive offer id"),
        templateHashId: z.string().min(1, "must not be empty").optional(),
        image: z.string().min(1, "must not be empty").max(INSTANCE_LIMITS.imageMax).optional(),
        env: envInputSchema({ createLimits: true }).optional(),
        onstart: z.string().optional(),
        args: z.array(z.string()).optional(),
        argsStr: z.string().optional(),
        runtype: z.enum(RUNTYPES).optional(),
        disk: z.number().min(INSTANCE_LIMITS.diskMinGb, `must be at least ${INSTANCE_LIMITS.diskMinGb} GB`).optional(),
        // Set with an edit after the create (the create carries the placement label), which takes
        // longer labels than the create does.
        label: z.string().max(INSTANCE_LIMITS.labelOnEditMax).optional(),
        price: z.number().positive("must be a positive bid in $/hour").optional(),
        imageLogin: z.string().optional(),
        volumeInfo: volumeInfoArgsSchema.optional(),
        waitForRunning: z.boolean().optional(),
        readyTimeoutSeconds: z.number().positive("must be a positive number of seconds").optional(),
        maxCreateAttempts: z.number().int().min(1).max(10).optional(),
    })
    .superRefine((args, ctx) => {
        if (args.image === undefined && args.templateHashId === undefined) {
            ctx.addIssue({ code: "custom", path: ["image"], message: "give an image, or a templateHashId whose template has one" });
        }
    });

/**
 * The service refuses `runtype` together with a template (its own clients send runtype only without
 * one). Refused in `check` for what is about to be created; an instance that already runs with both
 * (made before this check existed) is left alone, and a replacement of it leaves runtype out.
 */
export function runtypeWithTemplate(args: { runtype?: unknown; templateHashId?: unknown }, olds: { runtype?: unknown; templateHashId?: unknown }): CheckFailure[] {
    const both = (a: typeof args) => a.runtype !== undefined && a.templateHashId !== undefined;
    if (!both(args) || isUnknown(args.templateHashId) || both(olds)) return [];
    return [{ property: "runtype", reason: "cannot be combined with templateHashId: an instance from a template runs as the template says; set runtype on the Template" }];
}
