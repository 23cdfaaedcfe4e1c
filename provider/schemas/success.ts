import { z } from "zod";

/**
 * The answer of a call that changes something and says nothing else (a delete or destroy, a label,
 * a start or stop, a bid): `{success: true, msg}`. Only `success: true` says it was done. A 2xx
 * that does not (`{}`, an empty body, a message alone) is not taken as done: it fails as an
 * unexpected answer and is sent again (these calls are repeatable). Then a removal is settled by
 * reading the resource (`confirmedRemoval`), and an edit fails, so state keeps what it had and
 * the next `up` asks again: a destroy the service did not act on never drops a running instance
 * from state, and a label it did not set never reads as set.
 */
export const successResponseSchema = z.looseObject({ success: z.literal(true), msg: z.string().nullish() });
