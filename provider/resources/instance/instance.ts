import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { INSTANCE_COMPUTED_OUTPUTS, InstanceArgs, InstanceOutputs, instanceArgsSchema } from "./instanceArgs";
import { slotInput } from "../resourceSlot";

/**
 * A Vast.ai GPU instance started on an offer, optionally from a `Template`. `pulumi up` waits until
 * it runs; one that fails to start is destroyed and tried again. Changing what it was started with
 * replaces it; `label`, `desiredState` (start, stop) and an interruptible instance's bid change in place.
 *
 *     const gpu = new vast.Instance("trainer", {
 *         offerId: 1234567, templateHashId: trainer.hashId, disk: 64,
 *         env: { WANDB_PROJECT: "llm", "-p 8080:8080": "1" }, label: "trainer",
 *     });
 *     export const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
 */
export class Instance extends pulumi.dynamic.Resource {
    constructor(name: string, args: InstanceArgs, opts?: pulumi.CustomResourceOptions) {
        const resource = resourceArgs(args, instanceArgsSchema, INSTANCE_COMPUTED_OUTPUTS, opts);
        // Where it stands, as its URN says: part of its create's key, by which any machine's next `up` finds what a stopped one rented.
        super(providerShim("instance"), name, { ...resource.props, createSlot: slotInput("vastai:Instance", name, opts) }, resource.opts, TYPE_MODULE, TYPE_NAMES.instance);
    }
}

/** Its outputs, one per property of `InstanceOutputs` (declared there, with their docs). */
export interface Instance extends ResourceOutputs<InstanceOutputs> {}
