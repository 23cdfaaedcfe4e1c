/**
 * The implementations the serialized provider shims load (`pulumi-vastai/runtime`), one per
 * resource kind. Loaded once per provider process, so all of them share one configuration,
 * client and pacer (see providerContext.ts).
 */
export { templateProvider as template } from "../resources/template/templateProvider";
export { apiKeyProvider as apiKey } from "../resources/apiKey/apiKeyProvider";
export { instanceProvider as instance } from "../resources/instance/instanceProvider";
