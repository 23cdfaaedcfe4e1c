import * as pulumi from "@pulumi/pulumi";
import { resourceArgs } from "../../provider/dynamic/properties";
import { ResourceKind } from "../../provider/dynamic/shim";
import { PACKAGE_NAME, pluginTypeToken } from "../../provider/dynamic/typeTokens";
import { RESOURCE_DECLARATIONS } from "../../provider/resources/declarations";

/**
 * A resource of the provider plugin as a program in another language declares it through its
 * generated SDK: the plugin's type token, every input and output property registered, secret
 * inputs wrapped and secret outputs in `additionalSecretOutputs`, as the schema marks them. The
 * mini engine sends it to whichever host it drives, so one program runs on either path.
 */
export class PluginResource extends pulumi.CustomResource {
    constructor(kind: ResourceKind, name: string, args: object, opts?: pulumi.CustomResourceOptions) {
        const declared = RESOURCE_DECLARATIONS[kind];
        const resource = resourceArgs(args, declared.args, declared.computed, opts);
        super(pluginTypeToken(kind), name, resource.props, resource.opts);
    }

    /** An output by name (generated SDKs declare one field per output; here they are looked up). */
    output<T = unknown>(name: string): pulumi.Output<T> {
        return (this as unknown as Record<string, pulumi.Output<T>>)[name];
    }
}

/** An explicit provider, as a generated SDK declares `vastai.Provider`: its key kept secret. */
export class PluginProvider extends pulumi.ProviderResource {
    constructor(name: string, args: { apiKey?: pulumi.Input<string>; baseUrl?: pulumi.Input<string> }, opts?: pulumi.ResourceOptions) {
        super(PACKAGE_NAME, name, { apiKey: args.apiKey === undefined ? undefined : pulumi.secret(args.apiKey), baseUrl: args.baseUrl }, opts);
    }
}
