import { z } from "zod";

/**
 * The account from `GET /users/current/`. A plain (stripping) object on purpose: the live service
 * puts the account's `api_key` in this body, and only the fields named here survive parsing.
 */
export const currentUserSchema = z.object({
    id: z.number().int(),
    email: z.string().nullish(),
    credit: z.number().nullish(),
    ssh_key: z.string().nullish(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
