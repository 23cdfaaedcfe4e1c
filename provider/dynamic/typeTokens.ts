import { ResourceKind } from "./shim";

/**
 * The module and type name each resource class registers under: `pulumi.dynamic.Resource` makes
 * its type token `pulumi-nodejs:dynamic/vastai:<name>`, which state, the CLI and policies see.
 * Through the provider plugin (provider/plugin/) the same resource is `vastai:index:<name>`.
 */
export const TYPE_MODULE = "vastai";
export const TYPE_NAMES = {
    template: "Template",
    instance: "Instance",
    apiKey: "ApiKey",
    sshKey: "SshKey",
    volume: "Volume",
    networkVolume: "NetworkVolume",
    endpoint: "Endpoint",
    workerGroup: "WorkerGroup",
} as const satisfies Record<ResourceKind, string>;

export const RESOURCE_KINDS = Object.keys(TYPE_NAMES) as ResourceKind[];

/** The plugin's package name: `pulumi-resource-vastai`, tokens `vastai:index:*`, config `vastai:*`. */
export const PACKAGE_NAME = "vastai";

/** The type token a dynamic resource of `kind` has. */
export function typeToken(kind: ResourceKind): string {
    return `pulumi-nodejs:dynamic/${TYPE_MODULE}:${TYPE_NAMES[kind]}`;
}

/** The type token a resource of `kind` has through the provider plugin, as every language's SDK names it. */
export function pluginTypeToken(kind: ResourceKind): string {
    return `${PACKAGE_NAME}:index:${TYPE_NAMES[kind]}`;
}

/** The kind of a resource of this package, by either path's type token; undefined for anything else. */
export function kindOfType(type: string): ResourceKind | undefined {
    return RESOURCE_KINDS.find((kind) => typeToken(kind) === type || pluginTypeToken(kind) === type);
}

/** The functions a program calls, by their invoke token's name (`vastai:index:searchOffers`). */
export const FUNCTION_NAMES = ["searchOffers", "searchVolumeOffers", "searchTemplates", "getMachines", "getCurrentUser"] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

export function functionToken(name: FunctionName): string {
    return `${PACKAGE_NAME}:index:${name}`;
}
