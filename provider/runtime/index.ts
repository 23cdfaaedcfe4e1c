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
