import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Endpoint, Instance, NetworkVolume, SshKey, Template, Volume, WorkerGroup } from "../../provider";
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

/**
 * The two front doors a program reaches the provider by: Pulumi's dynamic-provider host with the
 * TypeScript classes, or the provider plugin with the resources a generated SDK declares. A host
 * started with `plugin: true` serves the second.
 */
export type ProgramPath = "dynamic" | "plugin";
export const PROGRAM_PATHS: ProgramPath[] = ["dynamic", "plugin"];

const CLASSES: Record<ResourceKind, new (name: string, args: any, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource> = {
    template: Template,
    instance: Instance,
    apiKey: ApiKey,
    sshKey: SshKey,
    volume: Volume,
    networkVolume: NetworkVolume,
    endpoint: Endpoint,
    workerGroup: WorkerGroup,
};

/** The resource `name` of `kind` as a program on `path` declares it: one table of cases runs through both. */
export function declareOn(path: ProgramPath, kind: ResourceKind, name: string, args: object, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource {
    return path === "plugin" ? new PluginResource(kind, name, args, opts) : new CLASSES[kind](name, args, opts);
}
