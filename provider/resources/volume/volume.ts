/** The Volume resource a program declares (its provider is volumeProvider.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { slotInput } from "../resourceSlot";
import { VOLUME_COMPUTED_OUTPUTS, VolumeArgs, VolumeOutputs, volumeArgsSchema } from "./volumeArgs";

/**
 * A local volume: storage rented on one machine, billed per GB-month until deleted, which outlives
 * the instances that mount it. Created on a volume offer, or on the cheapest offer a query finds
 * within a price ceiling. An instance mounts it with `volumes: [{ volume: data.id, mountPath }]`,
 * which keeps the instance to the volume's machine. Any change replaces it with a new, empty volume.
 *
 *     const data = new vast.Volume("datasets", { offer: { maxPricePerGbMonth: 0.15 }, sizeGb: 200 });
 */
export class Volume extends pulumi.dynamic.Resource {
    constructor(name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
        const resource = resourceArgs(args, volumeArgsSchema, VOLUME_COMPUTED_OUTPUTS, opts);
        super(providerShim("volume"), name, { ...resource.props, createSlot: slotInput("vastai:Volume", name, opts) }, resource.opts, TYPE_MODULE, TYPE_NAMES.volume);
    }
}

/** Its outputs, one per property of `VolumeOutputs` (declared there, with their docs). */
export interface Volume extends ResourceOutputs<VolumeOutputs> {}
