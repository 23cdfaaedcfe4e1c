import { z } from "zod";
import { ComputedOutputs, PulumiArgs, computedOf, defaultsOf, prop, propertiesOf, replacedBy } from "../../dynamic/properties";
import { volumeOfferSearchSchema } from "../../client/api/volumes";
import { VOLUME_NAME } from "../../schemas/volume";
import { VolumeOfferSearch } from "../../client/api/volumes";

/**
 * A local volume's properties, each declared once. The service has no call that changes a volume,
 * so every change replaces it (a new, empty volume): keep the data elsewhere first.
 */
export const volumeArgsSchema = z.strictObject({
    /** The volume offer to create it on (`searchVolumeOffers` lists them). Or give `offer`. */
    offerId: prop(z.number().int().positive("must be a positive volume offer id").optional(), { onChange: "replace" }),
    /**
     * Create by need instead of by offer id: a volume offer search (`filters`, `order`, `defaults`,
     * as `searchVolumeOffers` takes them) and `maxPricePerGbMonth`. At create the cheapest match
     * with room for `sizeGb` is taken. The query chooses at create: editing it later changes nothing.
     */
    offer: prop(
        volumeOfferSearchSchema
            .pick({ filters: true, order: true, defaults: true })
            .extend({
                /** Nothing is created above this price (USD per GB-month): it goes into the search as a `storage_cost` condition. When it excludes every match, the create fails naming the cheapest match's price. */
                maxPricePerGbMonth: z.number().positive("must be a positive price in USD per GB-month").optional(),
            })
            .optional(),
        { onChange: "update" },
    ),
    /**
     * The id of a volume already on the account (made in the console or with the vendor CLI), to
     * take into the stack instead of creating one: in place of `offerId` or `offer`. It is read,
     * refused if its size is not `sizeGb`, and then managed (and deleted) like one Pulumi made.
     * Keep it in the program: another id replaces the resource.
     */
    adopt: prop(z.number().int().positive("must be a volume's numeric id").optional(), { onChange: "replace" }),
    /** Size in GB, whole. The offer must have this much free. */
    sizeGb: prop(z.number().int("must be a whole number of GB").positive("must be a positive number of GB"), { wire: "size", onChange: "replace" }),
    /**
     * The volume's name on the account: letters, digits and underscores, at most 64. Default: one
     * made from where the resource stands (`pulumi_<slot>_<generation>`), by which the next `up`, on
     * any machine, takes over a volume a stopped `up` made; only a create uses it.
     */
    name: prop(z.string().regex(VOLUME_NAME, "must be letters, digits and underscores, at most 64").optional(), { wire: "name", onChange: "replace" }),
});

/** A volume's arguments in a Pulumi program. */
export interface VolumeArgs extends PulumiArgs<Omit<z.input<typeof volumeArgsSchema>, "offer">> {
    offer?: PulumiArgs<{ search: Pick<VolumeOfferSearch, "filters" | "order" | "defaults"> & { maxPricePerGbMonth?: number } }>["search"];
}

/** Inputs after `check`: the name given or generated, and what a generated one is made of. */
export type VolumeInputs = z.output<typeof volumeArgsSchema> & { name: string } & GeneratedName;

/**
 * What the classes and `check` add beside the properties, kept with the inputs in state: where the
 * resource stands (`createSlot`, hashed), and for a name not given, that the provider made it, from
 * the slot and a generation (0 when no state holds the resource, else one more than state's), so a
 * stopped `up`'s volume is found on the service by its name (createVolume.ts).
 */
export type GeneratedName = { createSlot?: string; createGeneration?: number; nameGenerated?: boolean };

/** The generated-name inputs of a property bag, as they are. */
export function generatedNameOf(props: Record<string, unknown>): GeneratedName {
    const kept: GeneratedName = {};
    if (typeof props.createSlot === "string") kept.createSlot = props.createSlot;
    if (typeof props.createGeneration === "number") kept.createGeneration = props.createGeneration;
    if (props.nameGenerated === true) kept.nameGenerated = true;
    return kept;
}

/** The name made for a volume whose program gives none: its slot and generation, which any machine computes the same. */
export function generatedName(slot: string, generation: number): string {
    return `pulumi_${slot.slice(0, 16)}_${generation}`;
}

/** Outputs: every input, plus what the service reports. Absent values are left out. */
export interface VolumeOutputs extends VolumeInputs {
    /** The service's numeric id; the Pulumi id too. An instance mounts it by `volumes: [{ volume: <this or the resource's id>, mountPath }]`. */
    volumeId: number;
    /** The machine it is on: an instance that mounts it must run there. A network volume has none. */
    machineId?: number;
    /** A network volume's storage cluster (`cluster_id`). */
    clusterId?: number;
    /** The volume offer it was created on. */
    rentedOfferId?: number;
    /** What the service says of it (`status`). */
    status?: string;
    /** The offer's price when it was created by query, USD per GB-month (an `offerId` is not searched). */
    storageCostPerGbMonth?: number;
    /** Where the machine is, as the service says it (`geolocation`). */
    geolocation?: string;
}

export const VOLUME_PROPERTIES = propertiesOf(volumeArgsSchema);
export type VolumeProperty = (typeof VOLUME_PROPERTIES)[number];
export const VOLUME_REPLACE_PROPERTIES = replacedBy(volumeArgsSchema);
export const VOLUME_DEFAULTS = defaultsOf(volumeArgsSchema);

export const VOLUME_COMPUTED_OUTPUTS = {
    volumeId: {},
    machineId: {},
    clusterId: {},
    rentedOfferId: {},
    status: {},
    storageCostPerGbMonth: {},
    geolocation: {},
} as const satisfies ComputedOutputs<VolumeOutputs, VolumeInputs>;
export const VOLUME_COMPUTED = computedOf(VOLUME_COMPUTED_OUTPUTS);
