import type * as pulumi from "@pulumi/pulumi";
import { keyTarget } from "../../client/api/sshKeys";
import { confirmedRemoval } from "../../client/api/removal";
import { VastInvalidArgsError, VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { checkArgs, computedRefusals, pickInputs } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import { goneResult, readResult } from "../../dynamic/readResult";
import { isUnknown } from "../../dynamic/unknowns";
import { SshKeyRecord } from "../../schemas/sshKey";
import { findLostCreate, oneCreateAtATime } from "../lostCreate";
import { retryIfMissing } from "../retryIfMissing";
import { assertSameAccount } from "../sameAccount";
import { sharedListing } from "../batchedReads";
import { SSH_KEY_COMPUTED, SSH_KEY_PROPERTIES, SshKeyInputs, SshKeyOutputs, sshKeyArgsSchema } from "./sshKeyArgs";

type Props = Record<string, any>;

const inputsOf = (props: object) => pickInputs(props as Props, SSH_KEY_PROPERTIES) as unknown as SshKeyInputs;

/** Outputs: the key, its id, and the account holding it when known. */
function outputsOf(publicKey: string, sshKeyId: number, accountId: number | undefined): SshKeyOutputs {
    return accountId === undefined ? { publicKey, sshKeyId } : { publicKey, sshKeyId, accountId };
}

/** Key reads in this process share the account's key listing (a refresh of many keys: one call, not one each). */
const sharedKeyReader = sharedListing((vast) => vast.sshKeys.list());

/** Keys this process made: a lost create of another resource never takes them for its own. */
const madeHere = new Set<number>();

/**
 * The key as the account lists it, or undefined only when it is removed: left out of three
 * listings a moment apart (retryIfMissing.ts), with the key of the account that holds it (`accountId`,
 * sameAccount.ts). A key left out of state stays on the account, added to every new instance.
 */
async function listedUnlessRemoved(ctx: ProviderContext, sshKeyId: number, accountId: number | undefined): Promise<SshKeyRecord | undefined> {
    const look = () => sharedKeyReader(ctx.client()).get(sshKeyId);
    const record = await retryIfMissing(ctx.clock, await look(), look);
    if (!record) await assertSameAccount(ctx, `SSH key ${sshKeyId}`, accountId);
    return record;
}

/**
 * After a create whose answer was lost: the key with our text that the account did not have just
 * before the create (`before`, its key ids then). The account holds a key text once (the service
 * refuses a duplicate), so that key is the one the create made. No creation time is compared: the
 * service's clock and this machine's may disagree by minutes.
 */
async function findLostKey(ctx: ProviderContext, vast: VastClient, publicKey: string, sentAt: number, before: ReadonlySet<number>): Promise<SshKeyRecord | undefined> {
    return findLostCreate(ctx, {
        what: `SSH key ${keyTarget(publicKey)}`,
        lookFor: `an SSH key ${keyTarget(publicKey)} that the account did not list just before the create (sent ${new Date(sentAt).toISOString()})`,
        look: async () => (await vast.sshKeys.list()).find((k) => k.public_key.trim() === publicKey && !before.has(k.id) && !madeHere.has(k.id)),
    });
}

/** A key that cannot be added because the account has its text already: which one, and what to do (an import cannot reach a dynamic resource). */
function alreadyOnAccount(publicKey: string, existing: SshKeyRecord): Error {
    // Removing it would take it from the SshKey that holds it; two resources cannot hold one text.
    if (madeHere.has(existing.id)) {
        return new Error(
            `vastai: add SSH key ${keyTarget(publicKey)} failed: another SshKey of this program holds this key text already (SSH key ${existing.id}), ` +
                "and the account holds a key text once: keep one SshKey for it (one that replaces another of the same text, a renamed resource, needs `aliases` with the old name, or `deleteBeforeReplace: true`)",
        );
    }
    return new Error(
        `vastai: add SSH key ${keyTarget(publicKey)} failed: the account has this key already, as SSH key ${existing.id}, and holds a key text once. ` +
            "If another SshKey (of this stack or another) holds it, keep that one and leave this SshKey out of the program: the instances get the account's keys either way. " +
            `If this SshKey replaces one of the same text (a renamed resource, or \`--replace\`), give it \`aliases\` with the old name, or the option \`deleteBeforeReplace: true\`. ` +
            `Otherwise remove SSH key ${existing.id} in the Vast.ai console (or \`vastai delete ssh-key ${existing.id}\`) and run \`pulumi up\` again`,
    );
}

/**
 * "SSH key could not be retrieved." (a 400, the service's API reference calls it a "retrieval
 * failure"): the key may have been added and only reading it back failed, so it is looked for.
 */
function madeButNotReadBack(e: unknown): boolean {
    return e instanceof VastInvalidArgsError && /ssh key could not be retrieved/i.test(`${e.code ?? ""} ${e.serviceMessage ?? ""}`);
}

/** Adds the key to the account: the create of one SshKey (see `create`). */
async function addKey(ctx: ProviderContext, publicKey: string): Promise<{ id: string; outs: SshKeyOutputs }> {
    const vast = ctx.client();
    // One listing before the create: a key its lost answer made is one not listed here. If it
    // cannot be read, nothing is sent (a lost answer then could not be settled), and nothing is made.
    const listed = await vast.sshKeys.list();
    const existing = listed.find((k) => k.public_key.trim() === publicKey);
    if (existing) throw alreadyOnAccount(publicKey, existing);
    const before = new Set(listed.map((k) => k.id));
    const sentAt = ctx.clock.now();
    let created: SshKeyRecord;
    try {
        created = await vast.sshKeys.create(publicKey);
    } catch (e) {
        // Made, but its answer lost or unreadable: the key it made is looked for, and adopted.
        const lost = e instanceof VastOutcomeUnknownError || madeButNotReadBack(e) ? await findLostKey(ctx, vast, publicKey, sentAt, before) : undefined;
        if (lost) {
            ctx.log.progress(`the answer to adding SSH key ${keyTarget(publicKey)} was lost or could not be read back; found it on the account as key ${lost.id}`);
            created = lost;
        } else if (e instanceof VastOutcomeUnknownError) {
            throw new Error(`${e.message}. No such key was found on the account afterwards; run \`pulumi up\` again`, { cause: e });
        } else if (e instanceof VastInvalidArgsError) {
            // Most likely added meanwhile by hand (or by another stack): say which.
            const added = (await vast.sshKeys.list().catch(() => [])).find((k) => k.public_key.trim() === publicKey);
            if (!added) throw e;
            throw Object.assign(alreadyOnAccount(publicKey, added), { cause: e });
        } else {
            throw e;
        }
    }
    madeHere.add(created.id);
    ctx.log.progress(`SSH key ${created.id} ${keyTarget(publicKey)} added to the account`);
    return { id: String(created.id), outs: outputsOf(publicKey, created.id, created.user_id ?? undefined) };
}

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
        return { changes: changed.length > 0 || shimChanged(olds, news), replaces: changed, deleteBeforeReplace: false };
    },

    /** Reached only with nothing to change (a new shim in state): the rest stays as it is. */
    async update(_id: string, olds: SshKeyOutputs, news: SshKeyInputs) {
        return { outs: { ...olds, ...inputsOf(news) } };
    },

    async create(inputs: SshKeyInputs) {
        const { publicKey } = inputsOf(inputs);
        // One text at a time: a lost create must not take the key a create of the same text is
        // still waiting for the answer to; after it, the next one's listing shows that key.
        return oneCreateAtATime(`SSH key ${publicKey}`, () => addKey(ctx, publicKey));
    },

    /** The key as the account lists it now; gone only as `listedUnlessRemoved` says. */
    async read(id: string, props: Partial<SshKeyOutputs> = {}) {
        const sshKeyId = Number(props.sshKeyId ?? id);
        const record = await listedUnlessRemoved(ctx, sshKeyId, props.accountId);
        if (!record) return goneResult<SshKeyOutputs>();
        const inputs: SshKeyInputs = { publicKey: record.public_key.trim() };
        return readResult(String(sshKeyId), outputsOf(inputs.publicKey, sshKeyId, record.user_id ?? props.accountId), inputs);
    },

    /** Removes the key from the account; one already gone is fine. */
    async delete(id: string, props: SshKeyOutputs) {
        const sshKeyId = Number(props.sshKeyId ?? id);
        const vast = ctx.client();
        const { alreadyGone } = await confirmedRemoval(
            { operation: "delete SSH key", target: String(sshKeyId) },
            () => vast.sshKeys.delete(sshKeyId),
            async () => (await listedUnlessRemoved(ctx, sshKeyId, props.accountId)) !== undefined,
        );
        ctx.log.progress(alreadyGone ? `SSH key ${sshKeyId} was already removed` : `SSH key ${sshKeyId} removed from the account`);
    },
}) satisfies pulumi.dynamic.ResourceProvider<SshKeyInputs, SshKeyOutputs>;
