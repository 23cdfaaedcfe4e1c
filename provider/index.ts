/**
 * pulumi-vastai: Pulumi resources and a typed REST client for Vast.ai.
 */
export { VastClient } from "./client/vastClient";
export type { VastClientOptions } from "./client/vastClient";
export { TemplatesApi } from "./client/api/templates";
export { InstancesApi, INSTANCE_PAGE_SIZE } from "./client/api/instances";
export type { InstancePage } from "./client/api/instances";
export { AccountApi } from "./client/api/account";
export { SshKeysApi } from "./client/api/sshKeys";
export { OffersApi } from "./client/api/offers";
export { Pacer, sharedPacer } from "./client/pacer";
export { DEFAULT_RETRY } from "./client/retryPolicy";
export type { RetryOptions } from "./client/retryPolicy";
export { ENDPOINTS } from "./client/endpoints";
export type { Endpoint, EndpointName } from "./client/endpoints";
export { DEFAULT_TIMEOUT_MS } from "./client/transport";
export type { TransportOptions } from "./client/transport";
export * from "./client/errors";
export { resolveConfig, DEFAULT_BASE_URL, CONFIG_KEYS, ENV_VARS } from "./config/providerConfig";
export type { ProviderConfig } from "./config/providerConfig";

export * from "./schemas/template";
export * from "./schemas/templateFilters";
export * from "./schemas/offer";
export * from "./schemas/instance";
export * from "./schemas/machine";
export * from "./schemas/user";
export * from "./schemas/apiKey";
export * from "./schemas/sshKey";
export * from "./schemas/permissions";
export * from "./schemas/limits";

export { Template } from "./resources/template/template";
export type { TemplateArgs, TemplateInputs, TemplateOutputs } from "./resources/template/templateArgs";
export { parseEnvFlags, formatEnvFlags, toEnvMap, normalizeEnvMap, EnvFlagError } from "./env/envFlags";
export type { EnvMap } from "./env/envFlags";
export { UNKNOWN } from "./dynamic/unknowns";
export { readTemplateFiles, templatesFromFiles, TemplateFileError } from "./declarative/templateFiles";
export type { TemplateFile, TemplateFileProblem, TemplatesFromFilesOptions } from "./declarative/templateFiles";

export { getCurrentUser } from "./functions/getCurrentUser";
export { getMachines } from "./functions/getMachines";
export type { GetMachinesArgs } from "./functions/getMachines";
export { machineFromRecord, BYTES_PER_GIB } from "./functions/machine";
export type { Machine } from "./functions/machine";
export { parseGpuOccupancy, GPU_OCCUPANCY_CODES } from "./functions/gpuOccupancy";
export type { GpuOccupancyCode } from "./functions/gpuOccupancy";
export { searchTemplates } from "./functions/searchTemplates";
export { templateFilters, TemplateFilterBuilder, TemplateFieldFilter } from "./functions/templateFilterBuilder";
export { searchOffers, offerQuery, OFFER_SEARCH_DEFAULTS } from "./functions/searchOffers";
export type { OfferSearch } from "./functions/searchOffers";
export type { FunctionOptions } from "./functions/programClient";
export { ApiKey } from "./resources/apiKey/apiKey";
export type { ApiKeyArgs, ApiKeyInputs, ApiKeyOutputs } from "./resources/apiKey/apiKeyArgs";
export { apiKeyPermissions, PermissionsBuilder } from "./resources/apiKey/permissionsBuilder";
export type { PermissionRules } from "./resources/apiKey/permissionsBuilder";
export { SshKey } from "./resources/sshKey/sshKey";
export type { SshKeyArgs, SshKeyInputs, SshKeyOutputs } from "./resources/sshKey/sshKeyArgs";

export { Instance } from "./resources/instance/instance";
export type { InstanceArgs, InstanceInputs, InstanceOutputs, InstanceVolumeInfo } from "./resources/instance/instanceArgs";
