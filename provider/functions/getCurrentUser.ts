import * as pulumi from "@pulumi/pulumi";
import { CurrentUser } from "../schemas/user";
import { VastClient } from "../client/vastClient";
import { FunctionOutputOptions, outputForm } from "./outputForm";
import { FunctionOptions, programClient } from "./programClient";
import { codeShownOnFailure } from "../errors/providerError";

/**
 * The account the key belongs to: `id`, `email`, `credit` and `ssh_key` (docs/service-contract.md §2.4). The
 * service also puts the account's `api_key` in this body; the schema drops it while parsing, so
 * it never reaches the result, a log line or an error.
 *
 *     const me = await vast.getCurrentUser();
 *     export const accountId = me.id;
 */
export async function getCurrentUser(options?: FunctionOptions): Promise<CurrentUser> {
    return codeShownOnFailure(() => currentUserOf(programClient("getCurrentUser", options)));
}

/** The look-up itself, on a client: what the function above and the plugin's invoke both run. */
export function currentUserOf(client: VastClient): Promise<CurrentUser> {
    return client.account.currentUser();
}

/**
 * `getCurrentUser` as an Output, its options Inputs: a key from `config.requireSecret` is waited
 * for, and the result is secret then.
 *
 *     const me = vast.getCurrentUserOutput({ apiKey: config.requireSecret("readerKey") });
 *     export const accountId = me.id;
 */
export function getCurrentUserOutput(options?: FunctionOutputOptions): pulumi.Output<CurrentUser> {
    return outputForm((_args: undefined, resolved) => getCurrentUser(resolved), undefined, options);
}
