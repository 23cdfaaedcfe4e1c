/**
 * The implementations the serialized provider shims load (`pulumi-vastai/runtime`), one per
 * resource kind. Loaded once per provider process, so all of them share one configuration,
 * client and pacer (see providerContext.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { CheckFailure, unquotedFailures } from "../dynamic/checkFailures";
import { PropertySchema, propertiesOf, unquotableOf } from "../dynamic/properties";
import { ResourceKind } from "../dynamic/shim";
import { apiKeyProvider } from "../resources/apiKey/apiKeyProvider";
import { apiKeyImporter } from "../resources/apiKey/importApiKey";
import { RESOURCE_DECLARATIONS } from "../resources/declarations";
import { Importer } from "../resources/importing";
import { instanceProvider } from "../resources/instance/instanceProvider";
import { instanceImporter } from "../resources/instance/read/importInstance";
import { sshKeyImporter } from "../resources/sshKey/importSshKey";
import { sshKeyProvider } from "../resources/sshKey/sshKeyProvider";
import { templateImporter } from "../resources/template/read/importTemplate";
import { templateProvider } from "../resources/template/templateProvider";
import { volumeImporter } from "../resources/volume/importVolume";
import { volumeProvider } from "../resources/volume/volumeProvider";
import { endpointImporter } from "../resources/endpoint/importEndpoint";
import { endpointProvider } from "../resources/endpoint/endpointProvider";
import { workerGroupImporter } from "../resources/workerGroup/importWorkerGroup";
import { workerGroupProvider } from "../resources/workerGroup/workerGroupProvider";
import { configure, processContext } from "./providerContext";
import { ProviderError, codeShown, codeShownOnFailure } from "../errors/providerError";

type Checks = { check(olds: any, news: any): Promise<pulumi.dynamic.CheckResult<any>> };
const METHODS = ["check", "diff", "create", "read", "update", "delete"] as const;

/**
 * A kind's implementation as the engine meets it: each failure shows its code (docs/errors.md),
 * and check failures never have a credential printed (`unquotedFailures`).
 */
function forTheEngine<P extends Checks>(provider: P, schema: PropertySchema): P {
    const properties = { declared: propertiesOf(schema), unquotable: unquotableOf(schema) };
    const checked: P = {
        ...provider,
        async check(olds: unknown, news: unknown) {
            const checked = await provider.check(olds, news);
            const failures: CheckFailure[] | undefined = checked.failures;
            return failures && failures.length > 0 ? { ...checked, failures: unquotedFailures(failures, properties) } : checked;
        },
    };
    const shown: Record<string, unknown> = { ...checked };
    for (const m of METHODS) {
        const method = (checked as Record<string, unknown>)[m] as ((...args: unknown[]) => unknown) | undefined;
        if (method) shown[m] = (...args: unknown[]) => codeShownOnFailure(() => method.apply(checked, args));
    }
    return shown as P;
}

const args = (kind: keyof typeof RESOURCE_DECLARATIONS) => RESOURCE_DECLARATIONS[kind].args;
export const template = { configure, ...forTheEngine(templateProvider(processContext), args("template")) };
export const instance = { configure, ...forTheEngine(instanceProvider(processContext), args("instance")) };
export const apiKey = { configure, ...forTheEngine(apiKeyProvider(processContext), args("apiKey")) };
export const sshKey = { configure, ...forTheEngine(sshKeyProvider(processContext), args("sshKey")) };
export const volume = { configure, ...forTheEngine(volumeProvider(processContext, "local"), args("volume")) };
export const networkVolume = { configure, ...forTheEngine(volumeProvider(processContext, "network"), args("networkVolume")) };
export const endpoint = { configure, ...forTheEngine(endpointProvider(processContext), args("endpoint")) };
export const workerGroup = { configure, ...forTheEngine(workerGroupProvider(processContext), args("workerGroup")) };

/** Every kind's implementation: the one core both the dynamic resources (through `load`) and the provider plugin call. */
export const KINDS = {
    template,
    instance,
    apiKey,
    sshKey,
    volume,
    networkVolume,
    endpoint,
    workerGroup,
};
export type Implementation = (typeof KINDS)[keyof typeof KINDS];

/** Every kind's import (`pulumi import` through the provider plugin): the read by id alone. */
export const IMPORTERS: Readonly<Record<ResourceKind, Importer>> = {
    template: templateImporter(processContext),
    instance: instanceImporter(processContext),
    apiKey: apiKeyImporter(processContext),
    sshKey: sshKeyImporter(processContext),
    volume: volumeImporter(processContext, "local"),
    networkVolume: volumeImporter(processContext, "network"),
    endpoint: endpointImporter(processContext),
    workerGroup: workerGroupImporter(processContext),
};
/**
 * What a shim's `configure` calls (dynamic/shim.ts): configures this process and returns the
 * kind's methods for the shim to take over. Throws when this version has no such kind, so the
 * shim keeps failing every call rather than answer one with nothing. (Shims written by versions
 * before 0.2 read `template`, `instance`, … directly: those stay exported.)
 */
export function load(kind: string, req: { config?: { get?: unknown } }): Record<string, unknown> {
    // The shim's one function stands for every method: anything but `configure` lands here too.
    if (typeof req?.config?.get !== "function") throw codeShown(new ProviderError("internal", `a ${kind} call arrived before configure`));
    const impl = (KINDS as Record<string, (typeof KINDS)[keyof typeof KINDS]>)[kind];
    if (!impl) throw codeShown(new ProviderError("version_too_old", `the installed version has no ${kind} resource; install the version that created it or newer`));
    impl.configure(req as Parameters<typeof configure>[0]);
    const methods: Record<string, unknown> = {};
    for (const m of METHODS) methods[m] = (impl[m] as (...args: unknown[]) => unknown).bind(impl);
    return methods;
}
