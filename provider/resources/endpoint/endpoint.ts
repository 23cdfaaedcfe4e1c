/** The Endpoint resource a program declares (its provider is endpointProvider.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { ENDPOINT_COMPUTED_OUTPUTS, EndpointArgs, EndpointOutputs, endpointArgsSchema } from "./endpointArgs";

/**
 * A Vast.ai Serverless endpoint: a name and the scaling limits of the workers its worker groups
 * run. Every setting changes in place. Deleting it deletes its worker groups and destroys every
 * worker they rented, which the service may otherwise keep running.
 *
 *     const llm = new vast.Endpoint("llm", { name: "vllm-qwen3-8b", coldWorkers: 1, maxWorkers: 4 });
 */
export class Endpoint extends pulumi.dynamic.Resource {
    constructor(name: string, args: EndpointArgs, opts?: pulumi.CustomResourceOptions) {
        const resource = resourceArgs(args, endpointArgsSchema, ENDPOINT_COMPUTED_OUTPUTS, opts);
        super(providerShim("endpoint"), name, resource.props, resource.opts, TYPE_MODULE, TYPE_NAMES.endpoint);
    }
}

/** Its outputs, one per property of `EndpointOutputs` (declared there, with their docs). */
export interface Endpoint extends ResourceOutputs<EndpointOutputs> {}
