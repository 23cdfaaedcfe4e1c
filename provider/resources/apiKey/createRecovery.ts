/** What a failed API key create leaves: the key a lost response made, recorded in state; or the refusal explained. */
import { VastAuthError, VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { ProviderContext } from "../../dynamic/context";
import { sameValue } from "../../dynamic/diffInputs";
import { initFailure, providerOf } from "../../dynamic/initFailure";
import { ApiKeyRecord } from "../../schemas/apiKey";
import { safeParse } from "../../schemas/parse";
import { Permissions, permissionsSchema } from "../../schemas/permissions";
import { findLostCreate } from "../lostCreate";
import { accountOnceMade } from "../sameAccount";
import { ApiKeyInputs } from "./apiKeyArgs";
import { withAccount } from "./apiKeyRecords";
import { ProviderError, withMore } from "../../errors/providerError";

/** Keys this process made: a lost create of another resource never takes them for its own. */
export const createdHere = new Set<number>();

/** One create as sent: what it asked for, when, the highest key id listed just before, and the account asked about meanwhile. */
export interface SentCreate {
    inputs: ApiKeyInputs;
    name: string;
    permissions: Permissions;
    sentAt: number;
    before: number;
    account: Promise<number | undefined>;
}

/** The key a lost create may have made, as a person would look for it in the console. */
function lostKeyDescription(name: string, sentAt: number, before: number): string {
    return `an API key named "${name}" with an id above ${before} (made at ${new Date(sentAt).toISOString()} or later)`;
}

/** True or false when the listing shows permissions; undefined when it cannot tell. */
function samePermissions(listed: unknown, asked: Permissions): boolean | undefined {
    const parsed = safeParse(permissionsSchema, listed);
    return parsed.success ? sameValue(parsed.data, asked) : undefined;
}

/**
 * After a create whose response was lost: the key it may have made, named as asked and newer than
 * every key listed before (`before`); several: none is taken (docs/design/key-lost-create.md).
 */
async function findLostKey(ctx: ProviderContext, vast: VastClient, name: string, permissions: Permissions, sentAt: number, before: number): Promise<ApiKeyRecord | undefined> {
    const found = await findLostCreate(ctx, {
        what: `API key "${name}"`,
        lookFor: lostKeyDescription(name, sentAt, before),
        look: async () => {
            // What the listing does not show (permissions) cannot rule a key out.
            const candidates = (await vast.account.listApiKeys()).filter(
                (k) => k.name === name && k.id > before && !createdHere.has(k.id) && samePermissions(k.permissions, permissions) !== false,
            );
            return candidates.length > 0 ? candidates : undefined;
        },
    });
    if (found && found.length > 1) {
        throw new ProviderError(
            "lost_create_undecided",
            `vastai: the answer to the create of API key "${name}" was lost, and the account's keys cannot tell which it made: ` +
                `${found.map((k) => k.id).join(", ")} may be it. Revoke the one it made in the Vast.ai console (its secret is lost), ` +
                "then run `pulumi up` again",
        );
    }
    return found?.[0];
}

/**
 * A lost response: the key it made goes into state through the failure the engine records with
 * these outputs; its secret is lost, so the next `up` replaces it (docs/design/key-lost-create.md).
 */
async function lostCreateFailure(ctx: ProviderContext, vast: VastClient, e: VastOutcomeUnknownError, sent: SentCreate): Promise<Error> {
    const { name, permissions, sentAt, before } = sent;
    const lost = await findLostKey(ctx, vast, name, permissions, sentAt, before);
    if (!lost) {
        // The service may still make it after the looks: the next `up` would make another.
        return new ProviderError(
            "lost_create_undecided",
            `${e.message}. No key named "${name}" was found afterwards, but the service may still make it: if the Vast.ai console ` +
                `shows ${lostKeyDescription(name, sentAt, before)}, it is the one this create made; revoke it there (its secret is lost). ` +
                "Then run `pulumi up` again",
            { cause: e },
        );
    }
    createdHere.add(lost.id);
    const message =
        `vastai: the answer to the create of API key "${name}" was lost; the key it made (${lost.id}) is kept in state, ` +
        "but its secret cannot be read back: the next `pulumi up` replaces it with a new key and revokes this one. " +
        `The account's listing cannot date keys: if another stack or a person made a key named "${name}" in the same moments, ` +
        `${lost.id} may be theirs; then remove it from this stack's state (\`pulumi state delete\` with this resource's URN) before that \`up\``;
    return initFailure({ code: "secret_lost", message }, lost.id, withAccount({ name, permissions, keyId: lost.id }, await accountOnceMade(ctx, sent.account)), providerOf(sent.inputs));
}

/** What a failed create throws: the lost response's key recorded in state, a refused grant explained, or `e` as it is. */
export async function createFailure(ctx: ProviderContext, vast: VastClient, e: unknown, sent: SentCreate): Promise<unknown> {
    if (e instanceof VastOutcomeUnknownError) return lostCreateFailure(ctx, vast, e, sent);
    if (e instanceof VastAuthError && (e.status === 403 || e.status === 401)) {
        // The generic message names the route's permission or the key; here a likelier cause is
        // the grant (docs/design/key-lost-create.md).
        return withMore(
            e,
            ". A key can only grant categories the key that creates it holds: " +
                `check that the stack's key (vastai:apiKey) has ${Object.keys(sent.permissions.api).join(", ")}`,
        );
    }
    return e;
}
