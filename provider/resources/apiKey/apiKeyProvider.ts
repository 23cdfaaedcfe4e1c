import { VastAuthError, VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { checkArgs, computedRefusals, pickInputs } from "../../dynamic/checkArgs";
import { changedProperties } from "../../dynamic/diffInputs";
import { progress } from "../../runtime/log";
import { configure, vastClient } from "../../runtime/providerContext";
import { permissionsSchema } from "../../schemas/permissions";
import { API_KEY_COMPUTED, API_KEY_KNOWN_NAMES, API_KEY_PROPERTIES, ApiKeyInputs, ApiKeyOutputs, apiKeyArgsSchema } from "./apiKeyArgs";

type Props = Record<string, any>;

const inputsOf = (props: Props) => pickInputs(props, API_KEY_PROPERTIES) as unknown as ApiKeyInputs;

/** How far back a lost create is looked for, in seconds, to allow for clock skew. */
const LOST_CREATE_SLACK_S = 120;

/**
 * After a create whose answer was lost. The service may have made the key, but its secret was in
 * that answer only, so adopting it is no use; revoking it here could hit a key another resource
 * just made under the same name. So the error names the candidates and leaves the choice to a person.
 */
async function lostCreateError(vast: VastClient, lost: VastOutcomeUnknownError, name: string, sentAt: number): Promise<Error> {
    let candidates = "";
    try {
        const since = sentAt / 1000 - LOST_CREATE_SLACK_S;
        // A listing without creation times cannot rule a key out: keep it as a candidate.
        const ids = (await vast.account.listApiKeys())
            .filter((k) => k.name === name && (k.created_at ?? Infinity) >= since)
            .map((k) => k.id);
        candidates =
            ids.length > 0
                ? ` Keys named "${name}" made since then: ${ids.join(", ")}; revoke the one this create made.`
                : ` No key named "${name}" was found, so it was most likely not made.`;
    } catch {
        candidates = " The account's keys could not be listed to look for it.";
    }
    return new Error(
        `${lost.message}. Its secret cannot be read back, so a key made by it cannot be used.${candidates} ` +
            "Then run `pulumi up` again.",
        { cause: lost },
    );
}

/** The ApiKey resource's implementation, run inside Pulumi's dynamic-provider host. */
export const apiKeyProvider = {
    configure,

    async check(_olds: Props, news: Props) {
        const { args, failures } = checkArgs(news, apiKeyArgsSchema, API_KEY_PROPERTIES, computedRefusals(API_KEY_COMPUTED), API_KEY_KNOWN_NAMES);
        if (failures.length > 0) return { inputs: news, failures };
        return { inputs: inputsOf(args) };
    },

    /** A key cannot be edited: every changed input replaces it, the new key made before the old is revoked. */
    async diff(_id: string, olds: Props, news: Props) {
        const changed = changedProperties(olds, news, API_KEY_PROPERTIES);
        return { changes: changed.length > 0, replaces: changed, deleteBeforeReplace: false };
    },

    async create(inputs: Props) {
        const vast = vastClient();
        const { name, permissions } = inputsOf(inputs);
        const sentAt = Date.now();
        let created: { id: number; key: string };
        try {
            created = await vast.account.createApiKey({ name, permissions });
        } catch (e) {
            if (e instanceof VastOutcomeUnknownError) throw await lostCreateError(vast, e, name, sentAt);
            if (e instanceof VastAuthError && e.status === 403) {
                // The generic 403 names the route's permission; here the likelier cause is the grant.
                throw new Error(
                    `${e.message}. A key can only grant categories the key that creates it holds: ` +
                        `check that the stack's key (vastai:apiKey) has ${Object.keys(permissions.api).join(", ")}`,
                    { cause: e },
                );
            }
            throw e;
        }
        // A line for the person running `pulumi up`: which key, never its secret.
        progress(`API key ${created.id} "${name}" created with ${Object.keys(permissions.api).join(", ")}`);
        const outs: ApiKeyOutputs = { name, permissions, keyId: created.id, key: created.key };
        return { id: String(created.id), outs };
    },

    /**
     * The key as the account lists it now; gone once revoked. The listing never holds the secret,
     * so `key` comes from state (and is left out when state has none, as after an import).
     */
    async read(id: string, props: Props) {
        const keyId = Number(props.keyId ?? id);
        const record = (await vastClient().account.listApiKeys()).find((k) => k.id === keyId);
        if (!record) return { id: "", props: {} };
        const previous = inputsOf(props);
        const listed = permissionsSchema.safeParse(record.permissions);
        const inputs: Props = pickInputs(
            { name: record.name ?? previous.name, permissions: listed.success ? listed.data : previous.permissions },
            API_KEY_PROPERTIES,
        );
        const outs: Props = { ...inputs, keyId, ...(typeof props.key === "string" ? { key: props.key } : {}) };
        return { id: String(keyId), props: outs, inputs };
    },

    /** Revokes the key; one already revoked is fine. */
    async delete(id: string, props: Props) {
        const keyId = Number(props.keyId ?? id);
        const { alreadyGone } = await vastClient().account.deleteApiKey(keyId);
        progress(alreadyGone ? `API key ${keyId} was already revoked` : `API key ${keyId} revoked`);
    },
};
