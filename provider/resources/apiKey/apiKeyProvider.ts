import { VastAuthError, VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { confirmedRemoval } from "../../client/api/removal";
import { changedProperties, sameValue, shimChanged } from "../../dynamic/diffInputs";
import type * as pulumi from "@pulumi/pulumi";
import { ProviderContext } from "../../dynamic/context";
import { replacedBy } from "../../dynamic/properties";
import { initFailure, providerOf } from "../../dynamic/initFailure";
import { goneResult, readResult } from "../../dynamic/readResult";
import { ApiKeyRecord } from "../../schemas/apiKey";
import { findLostCreate, oneCreateAtATime } from "../lostCreate";
import { retryIfMissing } from "../retryIfMissing";
import { accountOnceMade, assertSameAccount, keyAccount } from "../sameAccount";
import { sharedListing } from "../batchedReads";
import { checkArgs, computedRefusals, pickInputs } from "../../dynamic/checkArgs";
import { Permissions, permissionsSchema } from "../../schemas/permissions";
import { API_KEY_COMPUTED, API_KEY_KNOWN_NAMES, API_KEY_PROPERTIES, ApiKeyInputs, ApiKeyOutputs, apiKeyArgsSchema } from "./apiKeyArgs";
import { safeParse } from "../../schemas/parse";

type Props = Record<string, any>;

const inputsOf = (props: object) => pickInputs(props as Props, API_KEY_PROPERTIES) as unknown as ApiKeyInputs;

const API_KEY_REPLACED_BY: readonly string[] = replacedBy(apiKeyArgsSchema);

/** Key reads in this process share the account's key listing (a refresh of many keys: one call, not one each). */
const sharedKeyReader = sharedListing((vast) => vast.account.listApiKeys());

/** Keys this process made: a lost create of another resource never takes them for its own. */
const madeHere = new Set<number>();

/**
 * The key as the account lists it, or undefined only when it is revoked: left out of three
 * listings a moment apart (retryIfMissing.ts), with the key of the account that made it (`accountId`,
 * sameAccount.ts). A key left out of state still works, and the next `up` makes another.
 */
async function listedUnlessRevoked(ctx: ProviderContext, keyId: number, accountId: number | undefined): Promise<ApiKeyRecord | undefined> {
    const look = () => sharedKeyReader(ctx.client()).get(keyId);
    const record = await retryIfMissing(ctx.clock, await look(), look);
    if (!record) await assertSameAccount(ctx, `API key ${keyId}`, accountId);
    return record;
}

/**
 * After a create whose answer was lost: the key it may have made, named as asked, not made by
 * another resource of this process, and newer than every key the account had just before the
 * create (`before`, the highest id then: the live listing shows neither creation times nor
 * permissions, its API reference's example says; where it does show permissions, they must
 * match). lostCreate.ts looks again while the service is still working on it, and while its
 * answers fail. One such key is adopted; several (keys made meanwhile by hand or by another
 * program): none is taken, a person chooses, since adopting a hand-made key would have the next
 * `up` revoke it.
 */
async function findLostKey(ctx: ProviderContext, vast: VastClient, name: string, permissions: Permissions, sentAt: number, before: number): Promise<ApiKeyRecord | undefined> {
    const found = await findLostCreate(ctx, {
        what: `API key "${name}"`,
        lookFor: lostKeyDescription(name, sentAt, before),
        look: async () => {
            // What the listing does not show (permissions) cannot rule a key out.
            const candidates = (await vast.account.listApiKeys()).filter(
                (k) => k.name === name && k.id > before && !madeHere.has(k.id) && samePermissions(k.permissions, permissions) !== false,
            );
            return candidates.length > 0 ? candidates : undefined;
        },
    });
    if (found && found.length > 1) {
        throw new Error(
            `vastai: the answer to the create of API key "${name}" was lost, and the account's keys cannot tell which it made: ` +
                `${found.map((k) => k.id).join(", ")} may be it. Revoke the one it made in the Vast.ai console (its secret is lost), ` +
                "then run `pulumi up` again",
        );
    }
    return found?.[0];
}

/** Outputs with the account the key belongs to, when known. */
function withAccount(outs: ApiKeyOutputs, accountId: number | undefined): ApiKeyOutputs {
    return accountId === undefined ? outs : { ...outs, accountId };
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
 * One create: a listing first (a key its lost answer made is newer than all of these; if the
 * listing cannot be read, nothing is sent, so nothing is made that could not be found), then the
 * create, and after a lost answer the key it made.
 */
async function createKey(ctx: ProviderContext, inputs: ApiKeyInputs): Promise<{ id: string; outs: ApiKeyOutputs }> {
    const vast = ctx.client();
    const { name, permissions } = inputsOf(inputs);
    // Whose key this is, asked (once per process) while the listing and the create are under way.
    const account = keyAccount(ctx);
    const before = Math.max(0, ...(await vast.account.listApiKeys()).map((k) => k.id));
    const sentAt = ctx.clock.now();
    let created: { id: number; key: string };
    try {
        created = await vast.account.createApiKey({ name, permissions });
    } catch (e) {
        if (e instanceof VastOutcomeUnknownError) {
            const lost = await findLostKey(ctx, vast, name, permissions, sentAt, before);
            if (!lost) {
                // The service may still make it after the looks: the next `up` would make another.
                throw new Error(
                    `${e.message}. No key named "${name}" was found afterwards, but the service may still make it: if the Vast.ai console ` +
                        `shows ${lostKeyDescription(name, sentAt, before)}, it is the one this create made; revoke it there (its secret is lost). ` +
                        "Then run `pulumi up` again",
                    { cause: e },
                );
            }
            // It exists, so it goes into state (a live key no one holds would be left on the
            // account otherwise); its secret was in the lost answer only, so the next `pulumi up`
            // replaces it (a new key, then this one revoked). The listing cannot tell it from a
            // key of the same name another stack made in the same moments: the message says so.
            madeHere.add(lost.id);
            const message =
                `vastai: the answer to the create of API key "${name}" was lost; the key it made (${lost.id}) is kept in state, ` +
                "but its secret cannot be read back: the next `pulumi up` replaces it with a new key and revokes this one. " +
                `The account's listing cannot date keys: if another stack or a person made a key named "${name}" in the same moments, ` +
                `${lost.id} may be theirs; then remove it from this stack's state (\`pulumi state delete\` with this resource's URN) before that \`up\``;
            throw initFailure(message, lost.id, withAccount({ name, permissions, keyId: lost.id }, await accountOnceMade(ctx, account)), providerOf(inputs));
        }
        if (e instanceof VastAuthError && (e.status === 403 || e.status === 401)) {
            // The generic answer names the route's permission or the key; here a likelier cause is
            // the grant (the service answers 401 also to a key "not authorized to create a key
            // with the specified permissions", its API reference says).
            throw new Error(
                `${e.message}. A key can only grant categories the key that creates it holds: ` +
                    `check that the stack's key (vastai:apiKey) has ${Object.keys(permissions.api).join(", ")}`,
                { cause: e },
            );
        }
        throw e;
    }
    madeHere.add(created.id);
    // A line for the person running `pulumi up`: which key, never its secret.
    ctx.log.progress(`API key ${created.id} "${name}" created with ${Object.keys(permissions.api).join(", ")}`);
    return { id: String(created.id), outs: withAccount({ name, permissions, keyId: created.id, key: created.key }, await accountOnceMade(ctx, account)) };
}

/**
 * The ApiKey resource's implementation, run inside Pulumi's dynamic-provider host, given the
 * provider process's context; typed against Pulumi's `ResourceProvider` with its own inputs and outputs.
 */
export const apiKeyProvider = (ctx: ProviderContext) => ({
    async check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<ApiKeyInputs>> {
        const { args, failures } = checkArgs(news, apiKeyArgsSchema, API_KEY_PROPERTIES, computedRefusals(API_KEY_COMPUTED), API_KEY_KNOWN_NAMES);
        if (failures.length > 0) return { inputs: news as ApiKeyInputs, failures };
        return { inputs: inputsOf(args) };
    },

    /**
     * A key cannot be edited: every changed input replaces it, the new key made before the old is
     * revoked. So does a key whose secret state lacks (its create's answer was lost).
     */
    async diff(_id: string, olds: ApiKeyOutputs, news: ApiKeyInputs) {
        const changed: string[] = changedProperties(olds, news, API_KEY_PROPERTIES);
        // As declared in apiKeyArgsSchema (every property replaces), and a key without its secret.
        const replaces = changed.filter((p) => API_KEY_REPLACED_BY.includes(p));
        if (typeof olds.key !== "string") replaces.push("key");
        return { changes: changed.length > 0 || replaces.length > 0 || shimChanged(olds, news), replaces, deleteBeforeReplace: false };
    },

    /** Reached only with nothing to change (diff replaces on any change; a new shim in state): the rest stays as it is. */
    async update(_id: string, olds: ApiKeyOutputs, news: ApiKeyInputs) {
        return { outs: { ...olds, ...inputsOf(news) } };
    },

    async create(inputs: ApiKeyInputs) {
        const { name } = inputsOf(inputs);
        // One name at a time: a lost create must not take the key a same-named create is still waiting for.
        return oneCreateAtATime(`API key ${name}`, () => createKey(ctx, inputs));
    },

    /**
     * The key as the account lists it now; gone once revoked. The listing never holds the secret,
     * so `key` comes from state (and is left out when state has none, as after an import).
     */
    async read(id: string, props: Partial<ApiKeyOutputs> = {}) {
        const keyId = Number(props.keyId ?? id);
        // A key from before `accountId` existed (or imported) has it recorded now, asked once per process.
        const account = props.accountId !== undefined ? Promise.resolve(props.accountId) : keyAccount(ctx);
        const record = await listedUnlessRevoked(ctx, keyId, props.accountId);
        if (!record) return goneResult<ApiKeyOutputs>();
        const previous = inputsOf(props);
        const listed = safeParse(permissionsSchema, record.permissions);
        const inputs = pickInputs(
            { name: record.name ?? previous.name, permissions: listed.success ? listed.data : previous.permissions },
            API_KEY_PROPERTIES,
        ) as unknown as ApiKeyInputs;
        const outs: ApiKeyOutputs = withAccount({ ...inputs, keyId, ...(typeof props.key === "string" ? { key: props.key } : {}) }, await accountOnceMade(ctx, account));
        return readResult(String(keyId), outs, inputs);
    },

    /** Revokes the key; one already revoked is fine. */
    async delete(id: string, props: ApiKeyOutputs) {
        const keyId = Number(props.keyId ?? id);
        const vast = ctx.client();
        const { alreadyGone } = await confirmedRemoval(
            { operation: "delete API key", target: String(keyId) },
            () => vast.account.deleteApiKey(keyId),
            async () => (await listedUnlessRevoked(ctx, keyId, props.accountId)) !== undefined,
        );
        ctx.log.progress(alreadyGone ? `API key ${keyId} was already revoked` : `API key ${keyId} revoked`);
    },
}) satisfies pulumi.dynamic.ResourceProvider<ApiKeyInputs, ApiKeyOutputs>;
