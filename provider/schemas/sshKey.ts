import { z } from "zod";

export const sshKeyCreateRequestSchema = z.strictObject({
    ssh_key: z.string().min(1),
});
export type SshKeyCreateRequest = z.infer<typeof sshKeyCreateRequestSchema>;

/** A key on the account, as created and as listed (docs/live-service.md "Offers, SSH keys, start and stop"). */
export const sshKeyRecordSchema = z.looseObject({
    id: z.number().int(),
    user_id: z.number().int().nullish(),
    public_key: z.string(),
    /** Seconds since the epoch on the live service; an ISO date is accepted too. */
    created_at: z.union([z.number(), z.string()]).nullish(),
});
export type SshKeyRecord = z.infer<typeof sshKeyRecordSchema>;

export const sshKeyCreateResponseSchema = z.looseObject({
    key: sshKeyRecordSchema,
});

/** The listing is a bare array on the live service; `{ssh_keys: [...]}` is accepted too. */
export const sshKeyListResponseSchema = z.union([
    z.array(sshKeyRecordSchema),
    z.looseObject({ ssh_keys: z.array(sshKeyRecordSchema) }).transform((answer) => answer.ssh_keys),
]);
