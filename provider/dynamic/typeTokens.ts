import { ResourceKind } from "./shim";

/**
 * The module and type name each resource class registers under: `pulumi.dynamic.Resource` makes
 * its type token `pulumi-nodejs:dynamic/vastai:<name>`, which state, the CLI and policies see.
 */
export const TYPE_MODULE = "vastai";
export const TYPE_NAMES = {
    template: "Template",
    instance: "Instance",
    apiKey: "ApiKey",
    sshKey: "SshKey",
    volume: "Volume",
    networkVolume: "NetworkVolume",
} as const satisfies Record<ResourceKind, string>;

/** The type token a resource of `kind` has. */
export function typeToken(kind: ResourceKind): string {
    return `pulumi-nodejs:dynamic/${TYPE_MODULE}:${TYPE_NAMES[kind]}`;
}
