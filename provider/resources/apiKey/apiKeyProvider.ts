/** The ApiKey resource's provider: check, diff, create, read, update and delete, each short; create and delete in their own files. */
import type * as pulumi from "@pulumi/pulumi";
import { checkArgs, computedRefusals, pickInputs } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import { replacedBy } from "../../dynamic/properties";
import { goneResult, readResult } from "../../dynamic/readResult";
import { safeParse } from "../../schemas/parse";
import { permissionsSchema } from "../../schemas/permissions";
import { accountOnceMade, keyAccount } from "../sameAccount";
import { API_KEY_COMPUTED, API_KEY_KNOWN_NAMES, API_KEY_PROPERTIES, ApiKeyInputs, ApiKeyOutputs, apiKeyArgsSchema } from "./apiKeyArgs";
import { inputsOf, listedUnlessRevoked, withAccount } from "./apiKeyRecords";
import { createApiKey } from "./createApiKey";
import { deleteApiKey } from "./deleteApiKey";

type Props = Record<string, any>;

const API_KEY_REPLACED_BY: readonly string[] = replacedBy(apiKeyArgsSchema);

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
     * revoked. So does a key whose secret state lacks (its create's response was lost).
     */
    async diff(_id: string, olds: ApiKeyOutputs, news: ApiKeyInputs) {
        const changed: string[] = changedProperties(olds, news, API_KEY_PROPERTIES);
        // As declared in apiKeyArgsSchema (every property replaces), and a key without its secret.
        const replaces = changed.filter((p) => API_KEY_REPLACED_BY.includes(p));
        if (typeof olds.key !== "string") replaces.push("key");
        return { changes: changed.length > 0 || replaces.length > 0 || shimChanged(olds, news), replaces, deleteBeforeReplace: false, diffs: changed };
    },

    /** Reached only with nothing to change (diff replaces on any change; a new shim in state): the rest stays as it is. */
    async update(_id: string, olds: ApiKeyOutputs, news: ApiKeyInputs) {
        return { outs: { ...olds, ...inputsOf(news) } };
    },

    async create(inputs: ApiKeyInputs) {
        return createApiKey(ctx, inputs);
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

    async delete(id: string, props: ApiKeyOutputs) {
        return deleteApiKey(ctx, id, props);
    },
}) satisfies pulumi.dynamic.ResourceProvider<ApiKeyInputs, ApiKeyOutputs>;
