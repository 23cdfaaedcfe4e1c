import { z } from "zod";
import { permissionsSchema } from "./permissions";
import { successResponseSchema } from "./success";

export const apiKeyCreateRequestSchema = z.strictObject({
    name: z.string().min(1),
    permissions: permissionsSchema,
    /**
     * "Optional wildcard parameters for advanced keys": an object in the service's API reference
     * (`{"ip_whitelist": ["1.2.3.4"]}`), a string as the vendor CLI's `--key_params` sends it.
     */
    key_params: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
});
export type ApiKeyCreateRequest = z.infer<typeof apiKeyCreateRequestSchema>;

/** The secret `key` is in this answer only; the service never shows it again. */
export const apiKeyCreateResponseSchema = z.looseObject({
    id: z.number().int(),
    key: z.string().min(1),
    permissions: z.unknown().optional(),
});

/** A key as listed: never the secret. A stripping object, so a listing that did carry it drops it. */
export const apiKeyRecordSchema = z.object({
    id: z.number().int(),
    name: z.string().nullish(),
    permissions: z.unknown().optional(),
    created_at: z.number().nullish(),
});
export type ApiKeyRecord = z.infer<typeof apiKeyRecordSchema>;

export const apiKeyListResponseSchema = z.looseObject({
    apikeys: z.array(apiKeyRecordSchema),
});

/**
 * A revoke's answer. The service's API reference documents the text "Successfully Deleted API Key"
 * (a JSON string or plain text); `{success: true}`, what its other deletes answer, is taken too.
 * Anything else (`{}`, another text) does not say the key was revoked: see success.ts.
 */
export const apiKeyDeleteResponseSchema = z.union([successResponseSchema, z.string().regex(/^\s*successfully deleted api key\.?\s*$/i)]);
