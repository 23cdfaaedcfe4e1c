import { CurrentUser } from "../schemas/user";
import { FunctionOptions, programClient } from "./programClient";

/**
 * The account the key belongs to: `id`, `email`, `credit` and `ssh_key` (docs/service-contract.md §2.4). The
 * service also puts the account's `api_key` in this body; the schema drops it while parsing, so
 * it never reaches the result, a log line or an error.
 *
 *     const me = await vast.getCurrentUser();
 *     export const accountId = me.id;
 */
export async function getCurrentUser(options?: FunctionOptions): Promise<CurrentUser> {
    return programClient(options).account.currentUser();
}
