import { z } from "zod";
import { CanonicalInputs } from "../canonicalInputs";
import { CheckFailure } from "../../dynamic/checkFailures";
import { ComputedOutputs, PulumiArgs, computedOf, defaultsOf, prop, propertiesOf, replacedBy, updatedInPlace } from "../../dynamic/properties";
import { isUnknown } from "../../dynamic/unknowns";
import { EnvMap } from "../../schemas/envFlags";
import { envInputSchema } from "../../env/envInputSchema";
import { OfferSearch, offerSearchSchema } from "../../client/api/offers";
import { INSTANCE_LIMITS } from "../../schemas/limits";
import { INSTANCE_STATES, ReadBackState } from "../../schemas/instance";
import { imageReferenceCheck } from "../../schemas/imageReference";

/**
 * How an instance is reached, as a program chooses it: SSH or Jupyter (with SSH beside it), direct
 * to the machine or through Vast's proxy, or neither (`args`). `ssh` is the service's default
 * connection, and `jupyter` the proxied one, as these have always meant. instanceMapping.ts sends
 * each as the vendor clients do.
 */
export const INSTANCE_RUNTYPES = ["ssh", "ssh_proxy", "ssh_direct", "jupyter", "jupyter_proxy", "jupyter_direct", "args"] as const;
export type InstanceRuntype = (typeof INSTANCE_RUNTYPES)[number];
/** The access an instance has, as its `access` output says: a runtype, `jupyter` named for what it is. */
export type InstanceAccess = Exclude<InstanceRuntype, "jupyter">;

/** A volume to attach (docs/service-contract.md §2.3). A template's volume is never applied. */
const volumeInfoArgsSchema = z.strictObject({
    /** false links an existing volume; true creates a new one. */
    createNew: z.boolean(),
    /** The existing volume's id, or the volume offer's id when `createNew` is true. */
    volumeId: z.number().int().positive(),
    /** GB; used only when `createNew` is true. */
    size: z.number().positive("must be a positive number of GB").optional(),
    /** Where the volume appears inside the container. */
    mountPath: z.string().min(1, "must not be empty"),
});

/** A volume to attach (docs/service-contract.md §2.3), in camelCase. A template's volume is never applied. */
export type InstanceVolumeInfo = z.output<typeof volumeInfoArgsSchema>;

/**
 * An instance's properties, each declared once: its schema (what `check` validates; strict, so an
 * unknown property is an error with a "did you mean"), its default, the create request's field
 * it is sent as, and whether a change replaces the instance. What was fixed when the instance was
 * created replaces it; `label` is edited in place, and `imageLogin` and the readiness settings
 * only matter while an instance starts, so a change is recorded and nothing more.
 */
export const instanceArgsSchema = z
    .strictObject({
        /**
         * The offer (ask) to accept; the create request's path, `PUT /asks/{offerId}/`. Or give `offer`.
         * Set to the offer the instance is on (`rentedOfferId`), or given up for an `offer` search, it changes nothing.
         */
        offerId: prop(z.number().int().positive("must be a positive offer id").optional(), { onChange: "replace" }),
        /**
         * Rent by need instead of by offer id: a marketplace search (`filters`, `order`, `type`,
         * `defaults`, as `searchOffers` takes them) and `maxPricePerHour`. At create the best match is
         * rented; an offer refused, or an instance that will not run (destroyed), is an attempt, and
         * the next match is tried on another machine, up to `maxCreateAttempts`; an offer taken since
         * the search is passed over for the next match (up to 10 such offers). The query chooses at
         * create: editing it later changes nothing on a running instance.
         */
        offer: prop(
            offerSearchSchema
                .extend({
                    /** Nothing is rented above this price ($/hour, everything included): it goes into the search as a `dph_total` condition. */
                    maxPricePerHour: z.number().positive("must be a positive price in $/hour").optional(),
                })
                .optional(),
            { onChange: "update" },
        ),
        /**
         * The id of an instance already on the account (rented in the web console or with the vendor
         * CLI), to take into the stack instead of renting one: in place of `offerId` or `offer`, not
         * with either. Used when the resource is created: the instance is read, refused if the program's
         * `image`, `templateHashId`, `disk` or bid (`price` or none) disagrees with what it has, its
         * bid, label and state set as the program says, and it is then managed (and destroyed) like one
         * Pulumi rented. Keep it in the program: another id
         * later replaces the resource (that instance adopted, then this one destroyed). A change that
         * needs a new instance is refused while `adopt` names this one (the replacement would adopt it,
         * then destroy it): remove `adopt` and give `offerId` or `offer` to rent a new one.
         */
        adopt: prop(z.number().int().positive("must be an instance's numeric id").optional(), { onChange: "replace" }),
        /** Template to start from, typically `template.hashId`. `templateId` is not accepted (docs/service-contract.md §7). */
        templateHashId: prop(z.string().min(1, "must not be empty").optional(), { wire: "template_hash_id", onChange: "replace" }),
        /**
         * Container image, tag included (`pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime`, or a
         * `@sha256:` digest); overrides the template's. Required without a template. Checked in
         * preview against the registry's reference grammar (a lowercase repository, one tag, no
         * spaces), and at create asked of its registry before anything is rented (see `checkImage`).
         */
        image: prop(z.string().min(1, "must not be empty").max(INSTANCE_LIMITS.imageMax).superRefine(imageReferenceCheck("instance")).optional(), {
            wire: "image",
            onChange: "replace",
        }),
        /**
         * Environment and ports: a map (`{ NAME: "value", "-p 8080:8080": "1" }`) or the flag string
         * (`-e NAME=value -p 8080:8080`), kept as the canonical map; `-v`, `-n` and `-h` as a Template's
         * env takes them. Merged over the template's env, this map winning.
         */
        env: prop(envInputSchema({ createLimits: true }).optional(), { wire: "env", onChange: "replace", mayHoldCredentials: true }),
        /** Run at start. Longer than 4048 characters, it is sent compressed and restored on the instance; state keeps the script as given. */
        onstart: prop(z.string().optional(), { wire: "onstart", onChange: "replace", mayHoldCredentials: true }),
        /** Arguments for the image's entrypoint, one list item each (with runtype `args`); `argsStr` gives them as one string. */
        args: prop(z.array(z.string()).optional(), { wire: "args", onChange: "replace", mayHoldCredentials: true }),
        /** The command, or the entrypoint's arguments, as one string (with runtype `args`); over the template's. */
        argsStr: prop(z.string().optional(), { wire: "args_str", onChange: "replace", mayHoldCredentials: true }),
        /**
         * How the instance is reached: `ssh_direct` or `ssh_proxy` (SSH straight to the machine, or
         * through Vast's proxy), `jupyter_direct` or `jupyter_proxy` (Jupyter, and SSH beside it),
         * `args` (neither: the image's entrypoint runs, with `args`), or `ssh` (SSH as the service
         * connects it by default); `jupyter` means `jupyter_proxy`. Sent as the vendor CLI's runtype
         * strings (`ssh_direct` as `ssh_direc ssh_proxy`); the `access` output says which it is. Not
         * with a template: the template's access applies.
         */
        runtype: prop(z.enum(INSTANCE_RUNTYPES).optional(), { wire: "runtype", onChange: "replace" }),
        /** GB, at least 8. Without it the template's recommended disk applies. */
        disk: prop(z.number().min(INSTANCE_LIMITS.diskMinGb, `must be at least ${INSTANCE_LIMITS.diskMinGb} GB`).optional(), {
            wire: "disk",
            onChange: "replace",
        }),
        /**
         * Sent with the create (one call); an edit changes it in place. Up to 1024 characters: a
         * label longer than the create takes (256) is set by an edit right after it.
         */
        label: prop(z.string().max(INSTANCE_LIMITS.labelOnEditMax).optional(), { wire: "label", onChange: "update" }),
        /**
         * `running` (the default) or `stopped`, changed in place: a stopped instance keeps its disk and
         * is not billed for its GPUs, but its storage still is. Created `stopped`, it is created stopped and never runs (a stop is asked after the create all the same).
         * One frozen in the web console reads back as `frozen` (its GPUs still billed): the next `up` starts or stops it.
         */
        desiredState: prop(z.enum(INSTANCE_STATES).default("running"), { onChange: "update" }),
        /**
         * Interruptible bid in $/hour; without it the instance is on demand. A new bid is set in place;
         * adding or removing the bid (on demand ↔ interruptible) replaces the instance. The service
         * takes $0.001 to $128 in a create (`check` refuses more) and at most $32 in a bid change: a
         * new bid above $32 replaces the instance when it was rented by offer search (the new one made
         * first), and is refused in `check` when it is pinned to `offerId` (the replacement would
         * destroy it before renting the offer again).
         */
        price: prop(
            z
                .number()
                .min(INSTANCE_LIMITS.bidMin, `must be a bid of at least $${INSTANCE_LIMITS.bidMin}/hour`)
                .max(INSTANCE_LIMITS.bidOnCreateMax, `must be a bid of at most $${INSTANCE_LIMITS.bidOnCreateMax}/hour (the service's limit)`)
                .optional(),
            { wire: "price", onChange: "update" },
        ),
        /** Private registry login, `-u user -p token registry`; kept secret in state. */
        imageLogin: prop(z.string().optional(), { wire: "image_login", onChange: "update", secret: true }),
        /**
         * An existing volume to attach: `{ createNew: false, volumeId, mountPath }`. `createNew: true` (a volume made
         * by the create) is refused: no state would hold it, and it would stay billed after the instance is destroyed.
         * A template's volume is never applied.
         */
        volumeInfo: prop(volumeInfoArgsSchema.optional(), { wire: "volume_info", onChange: "replace" }),
        /**
         * A `Volume` to mount, by reference: `[{ volume: data.id, mountPath: "/data" }]` (one: the
         * service attaches one volume per instance). A local volume pins the instance to its machine:
         * rented by `offer`, only that machine's offers are searched; an `offerId` on another machine
         * is refused before anything is rented. Another volume replaces the instance. An instance
         * that mounts one is replaced delete-first: its replacement must run on the same machine,
         * whose offer the old one may hold, and two instances never write one volume at once.
         */
        volumes: prop(
            z
                .array(
                    z.strictObject({
                        /** The volume's id: a `Volume`'s `id` or `volumeId`. */
                        volume: z.union([z.number().int().positive(), z.string().regex(/^\d+$/, "must be a volume's numeric id")]),
                        /** Where the volume appears inside the container. */
                        mountPath: z.string().min(1, "must not be empty"),
                    }),
                )
                .max(1, "the service attaches one volume per instance")
                .optional(),
            { onChange: "replace" },
        ),
        /** Wait until the instance runs (default true); false returns once the service accepted it, at create and at a start. */
        waitForRunning: prop(z.boolean().default(true), { onChange: "update" }),
        /** How long each started instance may take to reach `running`; default 900 s, as the vendor CLI. */
        readyTimeoutSeconds: prop(z.number().positive("must be a positive number of seconds").default(900), { onChange: "update" }),
        /** Instances tried in all when one ends `exited`, `unknown` or `offline`; default 3. */
        maxCreateAttempts: prop(z.number().int().min(1).max(10).default(3), { onChange: "update" }),
        /**
         * Default true: before the first rent, the image (this `image`, or the template's image and
         * tag) is asked of its registry as `docker manifest inspect` asks, anonymously or with
         * `imageLogin`. An image or tag the registry does not have fails the create with nothing
         * rented; a registry that does not answer is a warning and the create goes on. `false` skips
         * the question (a registry only the rented machines can reach, say).
         */
        checkImage: prop(z.boolean().optional(), { onChange: "update" }),
    })
    .superRefine((args, ctx) => {
        if (args.offerId !== undefined && args.offer !== undefined) {
            ctx.addIssue({ code: "custom", path: ["offerId"], message: "give exactly one of offerId (an offer to rent) and offer (a search for one)" });
        } else if (args.adopt !== undefined && (args.offerId !== undefined || args.offer !== undefined)) {
            // Either would be recorded for an instance it did not rent (offerId then ruling a later replacement).
            ctx.addIssue({
                code: "custom",
                path: ["adopt"],
                message: `give adopt (an instance the account has) or ${args.offerId !== undefined ? "offerId" : "offer"} (one to rent), not both`,
            });
        } else if (args.offerId === undefined && args.offer === undefined && args.adopt === undefined) {
            ctx.addIssue({
                code: "custom",
                path: ["offerId"],
                message: "give exactly one of offerId (an offer to rent) and offer (a search for one), or adopt (an instance the account has)",
            });
        }
        // An adopted instance's bid is set by a bid change (it is never read back), which takes less than a create.
        if (args.adopt !== undefined && typeof args.price === "number" && args.price > INSTANCE_LIMITS.bidOnChangeMax) {
            ctx.addIssue({
                code: "custom",
                path: ["price"],
                message: `an adopted instance's bid is set by a bid change, which takes at most $${INSTANCE_LIMITS.bidOnChangeMax}/hour`,
            });
        }
        // A search's type and the bid go together, and the bid is what is paid: never above the ceiling.
        const search = args.offer;
        if (search && !isUnknown(search)) {
            if (search.type === "bid" && args.price === undefined) {
                ctx.addIssue({ code: "custom", path: ["price"], message: 'a search for interruptible offers (offer.type "bid") needs the bid: price, in $/hour' });
            }
            if (args.price !== undefined && !isUnknown(args.price) && search.type !== "bid") {
                ctx.addIssue({ code: "custom", path: ["price"], message: 'a bid goes with a search for interruptible offers: set offer.type to "bid"' });
            }
            const max = search.maxPricePerHour;
            if (typeof args.price === "number" && typeof max === "number" && args.price > max) {
                ctx.addIssue({ code: "custom", path: ["price"], message: `the bid $${args.price}/hour is above offer.maxPricePerHour $${max}/hour` });
            }
        }
        if (args.image === undefined && args.templateHashId === undefined) {
            ctx.addIssue({ code: "custom", path: ["image"], message: "give an image, or a templateHashId whose template has one" });
        }
    });

type SchemaArgs = z.input<typeof instanceArgsSchema>;

/**
 * `offer` typed as `searchOffers` takes it, each filter by its field (the schema checks the
 * fields at run time only), its doc comment kept: a mapped type over the schema's own key.
 */
type TypedOffer = { [K in keyof Pick<SchemaArgs, "offer">]?: PulumiArgs<{ search: OfferSearch & { maxPricePerHour?: number } }>["search"] };

/** An instance's arguments in a Pulumi program. */
export interface InstanceArgs extends PulumiArgs<Omit<SchemaArgs, "offer">>, TypedOffer {}

/**
 * Inputs after `check`: validated, defaulted, `env` as the canonical map. `desiredState` as the
 * program asked, or `frozen` as a refresh read it back (see READ_BACK_STATES), which check keeps
 * when the program ignores changes to it.
 */
export type InstanceInputs = Omit<CanonicalInputs<typeof instanceArgsSchema>, "desiredState"> & { desiredState: ReadBackState } & CreateKeyInputs;

/**
 * What the Instance class and `check` add beside the properties, kept with the inputs in state
 * (common/createKey.ts): where the resource stands, hashed, and its generation.
 */
export type CreateKeyInputs = {
    createSlot?: string;
    createGeneration?: number;
};

/** The create-key inputs of a property bag, as they are. */
export function createKeyInputs(props: Record<string, unknown>): CreateKeyInputs {
    const kept: CreateKeyInputs = {};
    if (typeof props.createSlot === "string") kept.createSlot = props.createSlot;
    if (typeof props.createGeneration === "number") kept.createGeneration = props.createGeneration;
    return kept;
}

/** Outputs: every input, plus what the service reports. Absent values are left out. */
export interface InstanceOutputs extends InstanceInputs {
    /** `new_contract`; the Pulumi id too. */
    instanceId: number;
    /** The status the service reports: `running`, `loading`, `stopped`, `exited`, ... */
    actualStatus?: string;
    /** The status the service is taking the instance to: `running` or `stopped`. */
    intendedStatus?: string;
    /** The service's last status message, such as a pull or start error. */
    statusMsg?: string;
    /** Host to SSH to, with `sshPort`. */
    sshHost?: string;
    /** Port to SSH to on `sshHost`. */
    sshPort?: number;
    /** Trimmed: the service pads it. */
    publicIpaddr?: string;
    /** Container port (`"8888/tcp"`) → public host port. */
    ports?: Record<string, number>;
    /** The machine the instance runs on. */
    machineId?: number;
    /** The offer the instance was rented on: `offerId`, or the one `offer`'s search chose. */
    rentedOfferId?: number;
    /** The rented machine's GPU model, as the offer search or the instance's record says it. */
    gpuName?: string;
    /** The number of GPUs rented, as the offer search or the instance's record says it. */
    numGpus?: number;
    /** Where the rented machine is ("Texas, US"), as the offer search or the instance's record says it. */
    geolocation?: string;
    /** $/hour, everything included. */
    dphTotal?: number;
    /** The env the instance was created with: the template's merged with `env`, `env` winning. */
    effectiveEnv?: EnvMap;
    /**
     * How the instance is reached: `runtype` (`jupyter` as `jupyter_proxy`), or what its template
     * says; absent when neither says.
     */
    access?: InstanceAccess;
    /**
     * A bid change whose answer was lost ($/hour sent): the instance may or may not have taken it,
     * and the bid is not read back (`dphTotal` holds more than the bid). Until a bid change is
     * answered, every `up` sends the program's bid again, whatever `price` state holds.
     */
    bidUnconfirmed?: number;
    /**
     * A label edit whose answer was lost and whose read-back failed too: the instance may have
     * either label. The next `up` sends the program's label again; a refresh reads it and clears this.
     */
    labelUnconfirmed?: boolean;
    /**
     * A create cut short with this instance not running: it would not run (exited, unknown or
     * offline while starting) and its destroy failed before the next attempt. The next `up` finishes
     * the create: it destroys this instance and rents again, avoiding `failedMachineIds`, the
     * machines where the create's instances would not run. Absent once the instance runs.
     */
    unfinishedCreate?: { failedMachineIds: number[] };
    /**
     * The instance's account, recorded when a key other than the one that rented it reads it (a
     * key that sees it is its account's; the create and the same key's refreshes ask nothing, so
     * renting stays one call). Another account's key sees no instance at all, so a refresh or
     * destroy with one fails, naming both accounts, instead of taking the instance as gone while
     * it is billed. Absent until then (see `keyMark`), and when the key cannot tell its account
     * (it lacks `user_read`).
     */
    accountId?: number;
    /**
     * When `accountId` is absent: a mark of the API key that created (or last read) it, 8 hex digits
     * of a hash, never the key. The same key's "not found" is believed; another key's is not (it may
     * be another account's), so a refresh or destroy with it fails instead of dropping a billed
     * instance, and says to use the key that made it. After rotating keys, one refresh with the new
     * key while the instance runs records `accountId`, and any key of the account will do.
     */
    keyMark?: string;
}

/** Every input property, in the order they are reported. */
export const INSTANCE_PROPERTIES = propertiesOf(instanceArgsSchema);
export type InstanceProperty = (typeof INSTANCE_PROPERTIES)[number];

/** What a running instance takes in place (see the schema). */
export const INSTANCE_IN_PLACE_PROPERTIES: readonly InstanceProperty[] = updatedInPlace(instanceArgsSchema);

/** Everything else was fixed when the instance was created: a change starts a new instance. */
export const INSTANCE_REPLACE_PROPERTIES: readonly InstanceProperty[] = replacedBy(instanceArgsSchema);

/**
 * The changed properties that replace the instance: those fixed at creation, and `price` when it
 * adds or removes the bid (the bid endpoint changes a bid, it cannot make an instance
 * interruptible or on demand) or when the new bid is above what a bid change takes ($32/hour; a
 * create takes up to $128). A bid unknown during preview may be either: counted as replacing.
 * Pinning by `offerId` the offer a search rented is no new rental (the instance is on that offer
 * already), nor is going back from that pin to a search (which chooses only at create): both are
 * recorded in place, never a destroy and a rent.
 */
export function replacingChanges(
    olds: { price?: unknown; offerId?: unknown; offer?: unknown; rentedOfferId?: unknown; adopt?: unknown; instanceId?: unknown },
    news: { price?: unknown; offerId?: unknown; offer?: unknown; adopt?: unknown },
    changed: readonly string[],
): string[] {
    const bidToBid =
        typeof olds.price === "number" && typeof news.price === "number" && !isUnknown(news.price) && news.price <= INSTANCE_LIMITS.bidOnChangeMax;
    const rented = olds.rentedOfferId;
    const pinsRented = olds.offerId === undefined && rented !== undefined && news.offerId === rented;
    const unpinsToSearch = rented !== undefined && olds.offerId === rented && news.offerId === undefined && news.offer !== undefined;
    return changed.filter((p) => {
        if (p === "adopt") return adoptsAnother(olds, news);
        if (p === "offerId") return !(pinsRented || unpinsToSearch);
        return (INSTANCE_REPLACE_PROPERTIES as readonly string[]).includes(p) || (p === "price" && !bidToBid);
    });
}

/**
 * Whether `adopt` names another instance than the one the resource is (a replace); set to that
 * one, or removed, it changes nothing. During check, `olds` are inputs: compared with their `adopt`
 * (a resource that rented its instance is not known to be another until diff, which has its id).
 */
export function adoptsAnother(olds: { adopt?: unknown; instanceId?: unknown }, news: { adopt?: unknown }): boolean {
    if (news.adopt === undefined || news.adopt === null) return false;
    if (isUnknown(news.adopt)) return true;
    const held = olds.instanceId ?? olds.adopt;
    return held !== undefined && Number(news.adopt) !== Number(held);
}

/**
 * A replacement whose create would adopt the very instance the resource holds: the create takes
 * it (what adoption cannot compare, such as env or onstart, is not checked), then the old
 * resource's delete destroys it, and state keeps the id of an instance that is gone. Refused, in
 * `check` for an adopted resource and in diff for any (check's olds are inputs, without the id).
 */
export function replacementAdoptsItself(olds: { adopt?: unknown; instanceId?: unknown }, news: { adopt?: unknown }, replaces: readonly string[]): CheckFailure[] {
    const held = olds.instanceId ?? olds.adopt;
    if (replaces.length === 0 || news.adopt === undefined || news.adopt === null || isUnknown(news.adopt) || held === undefined) return [];
    if (Number(news.adopt) !== Number(held)) return [];
    return replaces.map((property) => ({
        property,
        reason:
            `instance ${held}, which adopt names, cannot take this change in place: a replacement would adopt that same instance and then destroy it. ` +
            `Put ${property} back as it was; to rent a new instance instead, remove adopt and give offerId or offer; to take another instance, give adopt its id`,
    }));
}

/**
 * Properties the provider computes, never accepted as inputs. `effectiveEnv` is secret: it repeats
 * the env (and the template's) under a key of its own, which the engine would otherwise store in
 * plain text even when an env value was a secret.
 */
export const INSTANCE_COMPUTED_OUTPUTS = {
    instanceId: {},
    actualStatus: {},
    intendedStatus: {},
    statusMsg: {},
    sshHost: {},
    sshPort: {},
    publicIpaddr: {},
    ports: {},
    machineId: {},
    rentedOfferId: {},
    gpuName: {},
    numGpus: {},
    geolocation: {},
    dphTotal: {},
    effectiveEnv: { secret: true },
    access: {},
    bidUnconfirmed: {},
    labelUnconfirmed: {},
    unfinishedCreate: {},
    accountId: {},
    keyMark: {},
} as const satisfies ComputedOutputs<InstanceOutputs, InstanceInputs>;
export const INSTANCE_COMPUTED = computedOf(INSTANCE_COMPUTED_OUTPUTS);

/** The defaults `check` fills in, from the schema's `.default(...)`. */
export const INSTANCE_DEFAULTS = defaultsOf(instanceArgsSchema);

/** Names that mean "the template's numeric id", which instance creation refuses (docs/service-contract.md §7). */
export const TEMPLATE_ID_SPELLINGS = ["templateId", "template_id"] as const;

/** `volumes` and `volumeInfo` both say what to mount: one of them. */
export function oneWayToMount(args: { volumeInfo?: unknown; volumes?: unknown }): CheckFailure[] {
    return args.volumeInfo !== undefined && args.volumes !== undefined ? [{ property: "volumes", reason: "give volumes or volumeInfo, not both" }] : [];
}

/**
 * A volume made by the instance's create (`createNew: true`) is a paid volume no state holds: it
 * outlives the instance, billed every month. Refused where a create follows; attach a volume made
 * on its own instead.
 */
export function volumeMadeOutsideState(args: { volumeInfo?: unknown }): CheckFailure[] {
    const info = args.volumeInfo as { createNew?: unknown } | undefined;
    if (info === undefined || isUnknown(info) || info.createNew !== true) return [];
    return [
        {
            property: "volumeInfo.createNew",
            reason:
                "true makes a paid volume when the instance is created that no Pulumi state holds: destroying the instance leaves it, " +
                "billed every month. Make the volume on its own (the Vast.ai console or CLI), then attach it with " +
                "{ createNew: false, volumeId: <the volume's id>, mountPath }",
        },
    ];
}

/**
 * A new bid above what a bid change takes replaces the instance (replacingChanges). Pinned to one
 * offer, that replacement would destroy the instance, disk and all, before renting the offer
 * again, which someone else may take meanwhile (people raise a bid because someone else wants the
 * machine): refused in `check`, unless another change replaces the instance anyway.
 */
export function highBidOnSameOffer(
    args: { price?: unknown; offerId?: unknown },
    olds: { price?: unknown; offerId?: unknown },
    replaces: readonly string[],
): CheckFailure[] {
    const { price, offerId } = args;
    if (typeof price !== "number" || typeof olds.price !== "number" || price === olds.price || price <= INSTANCE_LIMITS.bidOnChangeMax) return [];
    if (offerId === undefined || isUnknown(offerId) || offerId !== olds.offerId || replaces.some((p) => p !== "price")) return [];
    return [
        {
            property: "price",
            reason:
                `a bid is changed in place only up to $${INSTANCE_LIMITS.bidOnChangeMax}/hour; above that the instance is replaced, and on the same offer ` +
                `(${offerId}) that means destroying it, disk and all, before renting the offer again. Bid at most $${INSTANCE_LIMITS.bidOnChangeMax}, ` +
                "or rent by offer search, where the new instance is made before the old one is destroyed",
        },
    ];
}

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
