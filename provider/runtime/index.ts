/**
 * The implementations the serialized provider shims load (`pulumi-vastai/runtime`), one per
 * resource kind. Loaded once per provider process, so all of them share one configuration,
 * client and pacer (see providerContext.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { CheckFailure, unquotedFailures } from "../dynamic/checkFailures";
import { PropertySchema, propertiesOf, unquotableOf } from "../dynamic/properties";
import { apiKeyArgsSchema } from "../resources/apiKey/apiKeyArgs";
import { apiKeyProvider } from "../resources/apiKey/apiKeyProvider";
import { instanceArgsSchema } from "../resources/instance/instanceArgs";
import { instanceProvider } from "../resources/instance/instanceProvider";
import { sshKeyArgsSchema } from "../resources/sshKey/sshKeyArgs";
import { sshKeyProvider } from "../resources/sshKey/sshKeyProvider";
import { templateArgsSchema } from "../resources/template/templateArgs";
import { templateProvider } from "../resources/template/templateProvider";
import { volumeArgsSchema } from "../resources/volume/volumeArgs";
import { volumeProvider } from "../resources/volume/volumeProvider";
import { configure, processContext } from "./providerContext";

type Checks = { check(olds: any, news: any): Promise<pulumi.dynamic.CheckResult<any>> };

/** A kind's implementation as the engine meets it: its check failures never have a credential printed (`unquotedFailures`). */
function forTheEngine<P extends Checks>(provider: P, schema: PropertySchema): P {
    const properties = { declared: propertiesOf(schema), unquotable: unquotableOf(schema) };
    return {
        ...provider,
        async check(olds: unknown, news: unknown) {
            const checked = await provider.check(olds, news);
            const failures: CheckFailure[] | undefined = checked.failures;
            return failures && failures.length > 0 ? { ...checked, failures: unquotedFailures(failures, properties) } : checked;
        },
    };
}

export const template = { configure, ...forTheEngine(templateProvider(processContext), templateArgsSchema) };
export const instance = { configure, ...forTheEngine(instanceProvider(processContext), instanceArgsSchema) };
export const apiKey = { configure, ...forTheEngine(apiKeyProvider(processContext), apiKeyArgsSchema) };
export const sshKey = { configure, ...forTheEngine(sshKeyProvider(processContext), sshKeyArgsSchema) };
export const volume = { configure, ...forTheEngine(volumeProvider(processContext, "local"), volumeArgsSchema) };
export const networkVolume = { configure, ...forTheEngine(volumeProvider(processContext, "network"), volumeArgsSchema) };

const KINDS = { template, instance, apiKey, sshKey, volume, networkVolume };
const METHODS = ["check", "diff", "create", "read", "update", "delete"] as const;

/**
 * What a shim's `configure` calls (dynamic/shim.ts): configures this process and returns the
 * kind's methods for the shim to take over. Throws when this version has no such kind, so the
 * shim keeps failing every call rather than answer one with nothing. (Shims written by versions
 * before 0.2 read `template`, `instance`, … directly: those stay exported.)
 */
export function load(kind: string, req: { config?: { get?: unknown } }): Record<string, unknown> {
    // The shim's one function stands for every method: anything but `configure` lands here too.
    if (typeof req?.config?.get !== "function") throw new Error(`a ${kind} call arrived before configure`);
    const impl = (KINDS as Record<string, (typeof KINDS)[keyof typeof KINDS]>)[kind];
    if (!impl) throw new Error(`the installed version has no ${kind} resource; install the version that created it or newer`);
    impl.configure(req as Parameters<typeof configure>[0]);
    const methods: Record<string, unknown> = {};
    for (const m of METHODS) methods[m] = (impl[m] as (...args: unknown[]) => unknown).bind(impl);
    return methods;
}
