/**
 * pulumi-vastai: Pulumi resources and a typed REST client for Vast.ai.
 *
 * The public API, and only it: the resources and their argument types, the functions a program
 * calls, the client with the types of what it sends and receives, and the errors. Everything else
 * (pacing, retry tables, endpoint intervals, schemas, the serialized shim) may change in any
 * release; `pulumi-vastai/runtime` is what the shim loads, not for programs.
 */

// Resources
export { Template } from "./resources/template/template";
export type { TemplateArgs } from "./resources/template/templateArgs";
export { Instance } from "./resources/instance/instance";
export type { InstanceArgs, InstanceVolumeInfo } from "./resources/instance/instanceArgs";
export { ApiKey } from "./resources/apiKey/apiKey";
export type { ApiKeyArgs } from "./resources/apiKey/apiKeyArgs";
export { apiKeyPermissions, PermissionsBuilder } from "./resources/apiKey/permissionsBuilder";
export type { PermissionRules } from "./resources/apiKey/permissionsBuilder";
export { SshKey } from "./resources/sshKey/sshKey";
export type { SshKeyArgs } from "./resources/sshKey/sshKeyArgs";
export { Volume } from "./resources/volume/volume";
export { NetworkVolume } from "./resources/volume/networkVolume";
export type { VolumeArgs } from "./resources/volume/volumeArgs";
export { Endpoint } from "./resources/endpoint/endpoint";
export type { EndpointArgs } from "./resources/endpoint/endpointArgs";
export { WorkerGroup } from "./resources/workerGroup/workerGroup";
export type { WorkerGroupArgs, Worker } from "./resources/workerGroup/workerGroupArgs";
export type { EnvMap } from "./schemas/envFlags";
export { templatesFromFiles, readTemplateFiles } from "./declarative/templateFiles";
export { TemplateFileError } from "./declarative/templateFileReader";
export type { TemplatesFromFilesOptions } from "./declarative/templateFiles";
export type { TemplateFile, TemplateFileProblem } from "./declarative/templateFileReader";

// Functions for a program
export type { FunctionOptions } from "./functions/programClient";
export type { FunctionOutputOptions, DeepInput } from "./functions/outputForm";
export { getCurrentUser, getCurrentUserOutput } from "./functions/getCurrentUser";
export { getMachines, getMachinesOutput } from "./functions/getMachines";
export type { GetMachinesArgs } from "./functions/getMachines";
export type { Machine } from "./functions/machine";
export type { GpuOccupancyCode } from "./functions/gpuOccupancy";
export { searchTemplates, searchTemplatesOutput } from "./functions/searchTemplates";
export { templateFilters, TemplateFilterBuilder, TemplateFieldFilter } from "./functions/templateFilterBuilder";
export { searchOffers, searchOffersOutput, offerQuery } from "./functions/searchOffers";
export type { OfferSearch } from "./functions/searchOffers";
export { searchVolumeOffers, searchVolumeOffersOutput, volumeOfferQuery, VOLUME_OFFER_SEARCH_DEFAULTS } from "./functions/searchVolumeOffers";
export type { VolumeOfferSearch } from "./functions/searchVolumeOffers";

// The client, and the types of what it sends and receives
export { VastClient } from "./client/vastClient";
export type { VastClientOptions } from "./client/vastClient";
export type { RetryOptions } from "./client/retryPolicy";
export type { TemplatesApi } from "./client/api/templates";
export type { InstancesApi, InstancePage } from "./client/api/instances";
export type { AccountApi } from "./client/api/account";
export type { SshKeysApi } from "./client/api/sshKeys";
export type { VolumesApi } from "./client/api/volumes";
export type { OffersApi } from "./client/api/offers";
export type { TemplateRecord, TemplateFields, TemplateCreateRequest, TemplateEditRequest, VolumeInfo } from "./schemas/template";
export type { TemplateFilters, TemplateFilterField, TemplateFilterValue, FilterOperator, FilterCondition } from "./schemas/templateFilters";
export type { InstanceRecord, InstanceCreateRequest, InstanceListFilters, InstanceState, ReadBackState } from "./schemas/instance";
export type { OfferRecord, OfferQuery, OfferFilters, OfferFilterField, OfferFilterValue, OfferOrder, RentalType } from "./schemas/offer";
export type { VolumeOfferRecord, VolumeOfferQuery, VolumeOfferFilters, VolumeOfferOrder, VolumeRecord } from "./schemas/volume";
export type { MachineRecord } from "./schemas/machine";
export type { CurrentUser } from "./schemas/user";
export type { ApiKeyRecord, ApiKeyCreateRequest } from "./schemas/apiKey";
export type { SshKeyRecord } from "./schemas/sshKey";
export type { Permissions, PermissionName } from "./schemas/permissions";

// Errors
export {
    VastError,
    VastAuthError,
    VastNotFoundError,
    VastRateLimitError,
    VastInvalidArgsError,
    VastRequestRejectedError,
    VastServerError,
    VastNetworkError,
    VastUnexpectedResponseError,
    VastOutcomeUnknownError,
    VastConfigError,
} from "./client/errors";
export type { VastErrorKind, VastErrorContext } from "./client/errors";
export { ProviderError, codeOf } from "./errors/providerError";
export { ERROR_CODES } from "./errors/codes";
export type { ErrorCode, ErrorCodeEntry } from "./errors/codes";
