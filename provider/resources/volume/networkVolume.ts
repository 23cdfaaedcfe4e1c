/** The NetworkVolume resource a program declares (its provider is volumeProvider.ts, for the network kind). */
import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { slotInput } from "../resourceSlot";
import { VOLUME_COMPUTED_OUTPUTS, VolumeArgs, VolumeOutputs, volumeArgsSchema } from "./volumeArgs";

/**
 * A network volume: storage rented in a storage cluster rather than on one machine, billed per
 * GB-month until deleted. Created on a network volume offer (`searchVolumeOffers({ network: true })`),
 * or on the cheapest one a query finds within a price ceiling; the same arguments as `Volume`.
 * An instance mounts it with `volumes: [{ volume: data.id, mountPath }]`, on no one machine.
 *
 *     const shared = new vast.NetworkVolume("shared", { offer: { maxPricePerGbMonth: 0.2 }, sizeGb: 500 });
 */
export class NetworkVolume extends pulumi.dynamic.Resource {
    constructor(name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
        const resource = resourceArgs(args, volumeArgsSchema, VOLUME_COMPUTED_OUTPUTS, opts);
        super(providerShim("networkVolume"), name, { ...resource.props, createSlot: slotInput("vastai:NetworkVolume", name, opts) }, resource.opts, TYPE_MODULE, TYPE_NAMES.networkVolume);
    }
}

/** Its outputs, one per property of `VolumeOutputs` (declared there, with their docs). */
export interface NetworkVolume extends ResourceOutputs<VolumeOutputs> {}
