/** The SshKey resource's provider: check, diff, create, read, update and delete, each short; create and delete in their own files. */
import type * as pulumi from "@pulumi/pulumi";
import { checkArgs, computedRefusals } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import { goneResult, readResult } from "../../dynamic/readResult";
import { isUnknown } from "../../dynamic/unknowns";
import { SSH_KEY_COMPUTED, SSH_KEY_PROPERTIES, SshKeyInputs, SshKeyOutputs, sshKeyArgsSchema } from "./sshKeyArgs";
import { inputsOf, listedUnlessRemoved, outputsOf } from "./sshKeyRecords";
import { createSshKey } from "./createSshKey";
import { deleteSshKey } from "./deleteSshKey";

type Props = Record<string, any>;

/**
 * The SshKey resource's implementation, run inside Pulumi's dynamic-provider host, given the
 * provider process's context; typed against Pulumi's `ResourceProvider` with its own inputs and outputs.
 */
export const sshKeyProvider = (ctx: ProviderContext) => ({
    async check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<SshKeyInputs>> {
        const { args, failures } = checkArgs(news, sshKeyArgsSchema, SSH_KEY_PROPERTIES, computedRefusals(SSH_KEY_COMPUTED));
        if (failures.length > 0) return { inputs: news as SshKeyInputs, failures };
        // A .pub file read with its final newline is the same key: trimmed once here, so diff sees one text.
        const publicKey = typeof args.publicKey === "string" && !isUnknown(args.publicKey) ? args.publicKey.trim() : args.publicKey;
        return { inputs: inputsOf({ publicKey }) };
    },

    /** A key cannot be edited: a new text replaces it, the new key added before the old one is removed. */
    async diff(_id: string, olds: SshKeyOutputs, news: SshKeyInputs) {
        const changed = changedProperties(olds, news, SSH_KEY_PROPERTIES);
        return { changes: changed.length > 0 || shimChanged(olds, news), replaces: changed, deleteBeforeReplace: false, diffs: changed };
    },

    /** Reached only with nothing to change (a new shim in state): the rest stays as it is. */
    async update(_id: string, olds: SshKeyOutputs, news: SshKeyInputs) {
        return { outs: { ...olds, ...inputsOf(news) } };
    },

    async create(inputs: SshKeyInputs) {
        return createSshKey(ctx, inputs);
    },

    /** The key as the account lists it now; gone only as `listedUnlessRemoved` says. */
    async read(id: string, props: Partial<SshKeyOutputs> = {}) {
        const sshKeyId = Number(props.sshKeyId ?? id);
        const record = await listedUnlessRemoved(ctx, sshKeyId, props.accountId);
        if (!record) return goneResult<SshKeyOutputs>();
        const inputs: SshKeyInputs = { publicKey: record.public_key.trim() };
        return readResult(String(sshKeyId), outputsOf(inputs.publicKey, sshKeyId, record.user_id ?? props.accountId), inputs);
    },

    async delete(id: string, props: SshKeyOutputs) {
        return deleteSshKey(ctx, id, props);
    },
}) satisfies pulumi.dynamic.ResourceProvider<SshKeyInputs, SshKeyOutputs>;
