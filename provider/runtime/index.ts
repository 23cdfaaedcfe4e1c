/**
 * The implementations the serialized provider shims load (`pulumi-vastai/runtime`), one per
 * resource kind. Loaded once per provider process, so all of them share one configuration,
 * client and pacer (see providerContext.ts).
 */
import { apiKeyProvider } from "../resources/apiKey/apiKeyProvider";
import { instanceProvider } from "../resources/instance/instanceProvider";
import { sshKeyProvider } from "../resources/sshKey/sshKeyProvider";
import { templateProvider } from "../resources/template/templateProvider";
import { configure, processContext } from "./providerContext";

export const template = { configure, ...templateProvider(processContext) };
export const instance = { configure, ...instanceProvider(processContext) };
export const apiKey = { configure, ...apiKeyProvider(processContext) };
export const sshKey = { configure, ...sshKeyProvider(processContext) };

const KINDS = { template, instance, apiKey, sshKey };
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
