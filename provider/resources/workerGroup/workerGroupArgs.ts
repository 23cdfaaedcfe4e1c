import { z } from "zod";
import { ComputedOutputs, PulumiArgs, computedOf, defaultsOf, prop, propertiesOf, replacedBy } from "../../dynamic/properties";
import { isUnknown } from "../../dynamic/unknowns";
import { envInputSchema } from "../../env/envInputSchema";
import { OfferSearch, offerSearchSchema } from "../../client/api/offers";
import { INSTANCE_LIMITS } from "../../schemas/limits";
import { EnvMap } from "../../schemas/envFlags";

/** How each new worker is created: the service's `launch_args`, create-instance flags in the vendor CLI's spelling. */
const launchSchema = z.strictObject({
    /** Container image, tag included (`--image`); without it the template's. */
    image: z.string().min(1, "must not be empty").optional(),
    /** Disk per worker in GB, at least 8 (`--disk`); without it the template's recommended disk. */
    diskGb: z.number().min(INSTANCE_LIMITS.diskMinGb, `must be at least ${INSTANCE_LIMITS.diskMinGb} GB`).optional(),
    /** Environment and ports of each worker, a map or the flag string, as an Instance's `env` (`--env '-e K=V ...'`). Merged over the template's. */
    env: envInputSchema({ asFlagString: true }).optional(),
    /** Run at each worker's start (`--onstart-cmd`). It may not hold both quote characters. */
    onstart: z.string().optional(),
});

/**
 * A worker group's properties, each declared once. The group is one record on the service that
 * says what its workers run, where they are rented and how many; the service's engine rents and
 * releases the workers (ordinary instances of the account). Everything but `endpointId` is changed
 * in place (`PUT`), a new template hash too: the service takes `template_hash` on an update, and
 * workers rented from then on run the new template.
 */
export const workerGroupArgsSchema = z
    .strictObject({
        /** The endpoint the group belongs to: an `Endpoint`'s `endpointId`. Another endpoint replaces the group. */
        endpointId: prop(z.number().int().positive("must be an endpoint's numeric id"), { wire: "endpoint_id", onChange: "replace" }),
        /** The template the workers run: a `Template`'s `hashId`. A new hash is sent in place (`template_hash`); workers rented after it run the new template. */
        templateHashId: prop(z.string().min(1, "must not be empty"), { wire: "template_hash", onChange: "update" }),
        /**
         * Where workers are rented: conditions on offer fields, typed as an Instance's `offer.filters`
         * (`gpu_ram` in MB, as the offer records say it), and the per-worker price ceiling. Sent as the
         * service's `search_params` text in the vendor CLI's query language (`gpu_ram` there in GB).
         */
        offer: prop(
            offerSearchSchema
                .pick({ filters: true })
                .extend({
                    /** No worker is rented above this price ($/hour per worker, everything included): sent as `dph_total<=X`. */
                    maxPricePerHour: z.number().positive("must be a positive price in $/hour").optional(),
                })
                .optional(),
            { wire: "search_params", onChange: "update" },
        ),
        /** Default true: the search also says the vendor CLI's default terms, `verified=True rentable=True rented=False` (a filter of the program's on one of those fields wins). `false` leaves them out. */
        vendorDefaults: prop(z.boolean().default(true), { onChange: "update" }),
        /** How each worker is created (image, disk, env, start command), sent as `launch_args`. */
        launch: prop(launchSchema.optional(), { wire: "launch_args", onChange: "update", mayHoldCredentials: true }),
        /** GB of GPU memory the model needs (`gpu_ram`), which the service uses to estimate bandwidth; default 24, the service's. Which offers are searched is `offer.filters.gpu_ram`'s to say. */
        gpuRamGb: prop(z.number().min(0, "must be a number of GB, at least 0").default(24), { wire: "gpu_ram", onChange: "update" }),
        /** Workers rented to estimate performance while the group starts (`test_workers`); default 3, the service's. */
        testWorkers: prop(z.number().int().min(0, "must be a whole number, at least 0").default(3), { wire: "test_workers", onChange: "update" }),
        /** Workers kept ready without load (`cold_workers`), at most `maxWorkers`; without it the endpoint's. */
        coldWorkers: prop(z.number().int().min(0, "must be a whole number, at least 0").optional(), { wire: "cold_workers", onChange: "update" }),
        /** The most workers the group runs at once (`max_workers`): with `offer.maxPricePerHour`, what the group can cost per hour. */
        maxWorkers: prop(z.number().int().min(0, "must be a whole number, at least 0"), { wire: "max_workers", onChange: "update" }),
    })
    .superRefine((args, ctx) => {
        const { coldWorkers, maxWorkers } = args;
        if (typeof coldWorkers === "number" && typeof maxWorkers === "number" && !isUnknown(coldWorkers) && !isUnknown(maxWorkers) && coldWorkers > maxWorkers) {
            ctx.addIssue({ code: "custom", path: ["coldWorkers"], message: `${coldWorkers} is above maxWorkers ${maxWorkers}: the service keeps at most maxWorkers workers` });
        }
    });

type SchemaArgs = z.input<typeof workerGroupArgsSchema>;

/** `offer` typed as an Instance's: each filter by its field. */
type TypedOffer = { offer?: PulumiArgs<{ search: Pick<OfferSearch, "filters"> & { maxPricePerHour?: number } }>["search"] };

/** A worker group's arguments in a Pulumi program. */
export interface WorkerGroupArgs extends PulumiArgs<Omit<SchemaArgs, "offer">>, TypedOffer {}

/** How each worker is created, after `check`: `env` as the canonical map. */
export type WorkerLaunch = Omit<z.output<typeof launchSchema>, "env"> & { env?: EnvMap };

/** Inputs after `check`: validated, defaulted, `launch.env` as the canonical map, and where the resource stands. */
export type WorkerGroupInputs = Omit<z.output<typeof workerGroupArgsSchema>, "launch"> & { launch?: WorkerLaunch } & CreateKeyInputs;

/** What the class and `check` add beside the properties: where the resource stands (hashed), and its generation (createKey.ts). */
export type CreateKeyInputs = { createSlot?: string; createGeneration?: number };

/** Outputs: every input, plus what the service reports. */
export interface WorkerGroupOutputs extends WorkerGroupInputs {
    /** The service's numeric id of the group; the Pulumi id too. */
    workerGroupId: number;
    /** The group's workers when last read (the service's engine rents and releases them): refreshed on `pulumi refresh`. */
    workers: {
        /** The worker's instance id. */
        instanceId: number;
        /** Its status (`actual_status`): `running`, `loading`, ... */
        status?: string;
        /** $/hour, everything included (`dph_total`). */
        pricePerHour?: number;
    }[];
}

/** One worker, as the account's instances list it. */
export type Worker = WorkerGroupOutputs["workers"][number];

export const WORKER_GROUP_PROPERTIES = propertiesOf(workerGroupArgsSchema);
export type WorkerGroupProperty = (typeof WORKER_GROUP_PROPERTIES)[number];
export const WORKER_GROUP_REPLACE_PROPERTIES = replacedBy(workerGroupArgsSchema);
export const WORKER_GROUP_DEFAULTS = defaultsOf(workerGroupArgsSchema);

export const WORKER_GROUP_COMPUTED_OUTPUTS = {
    workerGroupId: {},
    workers: {},
} as const satisfies ComputedOutputs<WorkerGroupOutputs, WorkerGroupInputs>;
export const WORKER_GROUP_COMPUTED = computedOf(WORKER_GROUP_COMPUTED_OUTPUTS);
