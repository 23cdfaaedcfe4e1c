import { describePlainCredential, plainCredentials } from "../../env/credentials";
import { VastAuthError, VastConfigError, VastError, VastInvalidArgsError, VastOutcomeUnknownError, VastRequestRejectedError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { checkArgs, computedRefusals, pickInputs } from "../../dynamic/checkArgs";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import type * as pulumi from "@pulumi/pulumi";
import { ProviderContext } from "../../dynamic/context";
import { replacedBy } from "../../dynamic/properties";
import { initFailure, providerOf } from "../../dynamic/initFailure";
import { goneResult, readResult } from "../../dynamic/readResult";
import { confirmedRemoval } from "../../client/api/removal";
import { findLostCreate, oneCreateAtATime } from "../lostCreate";
import { TemplateFields, TemplateRecord } from "../../schemas/template";
import {
    REGISTRY_LOGIN_ON_CREATE,
    TEMPLATE_COMPUTED,
    TEMPLATE_CONTENT,
    TEMPLATE_PROPERTIES,
    TemplateContentProperty,
    TemplateInputs,
    TemplateOutputs,
    templateArgsSchema,
} from "./templateArgs";
import { adoptTemplate, adoptionReplaces } from "./create/adoptTemplate";
import { TemplateEditUnsettledError, editTemplate, holds } from "./update/editTemplate";
import { asCheckedIn, canonicalTemplateInputs, clearedFields, clearedValue, inputsFromRecord, toTemplateFields } from "./shared/templateMapping";
import { ownTemplate, ownedBy } from "./shared/templateOwnership";
import { withoutSecretsIn } from "./publishedSecrets";
import { hold, isHeld, letGo, newHolder } from "./shared/templateHolders";
import { assertSameAccount } from "../sameAccount";

type Props = Record<string, any>;

const inputsOf = (props: Props): Props => pickInputs(props, TEMPLATE_PROPERTIES);

/**
 * Outputs from the inputs and what the service answered; `creatorId` when known (kept from state
 * otherwise); the resource's `holder` (templateHolders.ts), a new one for a resource without.
 */
function outputsOf(inputs: TemplateInputs, record: { id?: number; hash_id: string }, templateId: number, creatorId: number | undefined, holder: string | undefined): TemplateOutputs {
    const outs: TemplateOutputs = { ...inputs, templateId: record.id ?? templateId, hashId: record.hash_id, holder: holder ?? newHolder() };
    if (creatorId !== undefined) outs.creatorId = creatorId;
    return outs;
}

/** Holds the template a create made or took over for a new resource; its outputs. A lost create never takes a held template for its own (`isHeld`). */
function heldByNew(log: ProviderContext["log"], inputs: TemplateInputs, record: { id: number; hash_id: string }, creatorId: number | undefined): TemplateOutputs {
    const outs = outputsOf(inputs, record, record.id, creatorId, undefined);
    warnIfHeldByOthers(log, record.id, hold(record.id, outs.holder));
    return outs;
}

function warnIfHeldByOthers(log: ProviderContext["log"], templateId: number, others: number) {
    if (others === 0) return;
    log.warn(
        `template ${templateId} is held by ${others + 1} resources of this stack: each one's edits undo the others'. ` +
            "Keep one (remove the other file or resource); the template is deleted on Vast.ai only when the last one goes, " +
            "unless an `up` that removes one leaves the other out (`--target`, `--exclude`)",
    );
}

/**
 * The two refusals the service documents for a template delete, said with what to do: the template
 * stays, so the resource stays in state until the user decides.
 */
function refusedDelete(e: unknown, templateId: number): Error | undefined {
    const said = serviceSaid(e);
    if (e instanceof VastInvalidArgsError && /other users are still using it/i.test(said)) {
        return new Error(
            `${e.message}. Other accounts use template ${templateId} (they created one with the same content), and the service keeps it for them. ` +
                "To stop managing it, remove it from the stack's state (`pulumi state delete <urn>`); to keep it, leave it in the program",
            { cause: e },
        );
    }
    if (creatorOnly(e)) {
        return new Error(
            `vastai: delete template ${templateId} failed: the service says only the template's creator can delete it ("${said}"), ` +
                "and the stack's key belongs to another account. Delete it with the creator's key, or remove it from the stack's state (`pulumi state delete <urn>`)",
            { cause: e },
        );
    }
    return undefined;
}

const serviceSaid = (e: unknown): string => (e instanceof VastError ? (e.serviceMessage ?? "") : "");

/** The service's refusal of a delete by a key not the creator's. */
const creatorOnly = (e: unknown): boolean => e instanceof VastAuthError && /only be deleted by their creator/i.test(serviceSaid(e));

/** The creator the service names for a template, or undefined if it names none. */
const creatorOf = (record: TemplateRecord): number | undefined => record.creator_id ?? undefined;

const TEMPLATE_REPLACED_BY: readonly string[] = replacedBy(templateArgsSchema);

/** Creates sent for one resource at most; the second only after the first was looked for. */
const MAX_SENDS = 2;

/**
 * How far before the request, on the service's clock, a template's creation time may read. The
 * `Date` header that gives that clock is in whole seconds and stamped before the answer travels,
 * both of which put the estimate of the send earlier, not later; what is left is the creation
 * time's own rounding and room for a front end's clock to differ a little from the one that stamps
 * records. Kept small: an identical template another stack (same program, other stack) made within
 * this margin before the send would be taken for the lost one, and held by both.
 */
const SERVICE_CLOCK_MARGIN_MS = 5_000;

/**
 * Whether the template was made by a request sent at `sentAt` (this machine's clock) or later, as
 * far as its creation time tells, on the service's clock (known from any answer, the lookup's own
 * included). Without that clock nothing is taken for the lost create: this machine's clock may be
 * minutes off. The create is then sent again, and the service's "existing template found" answer
 * is refused with the advice to adopt it, which is safer than holding another stack's template.
 */
function createdSince(vast: VastClient, record: TemplateRecord, sentAt: number): boolean {
    if (record.created_at === undefined || record.created_at === null) return false;
    const onService = vast.serviceTime(sentAt);
    return onService !== undefined && record.created_at * 1000 >= onService - SERVICE_CLOCK_MARGIN_MS;
}

/**
 * After a create whose answer was lost: the template it may have made, found by creator, name and
 * image among those created since the request left, with the content that was sent (lostCreate.ts
 * looks again while the service is still working on it, and while its answers fail).
 */
function findLostTemplate(ctx: ProviderContext, vast: VastClient, fields: TemplateFields, sentAt: number): Promise<TemplateRecord | undefined> {
    return findLostCreate(ctx, {
        what: `template "${fields.name}"`,
        lookFor: `a template named "${fields.name}" with image ${fields.image}, created at ${new Date(sentAt).toISOString()} or later`,
        look: async () => {
            const me = await ctx.currentUserId();
            const candidates = (await vast.templates.search({ creator_id: { eq: me }, name: { eq: fields.name }, image: { eq: fields.image } }))
                // The account's own, whatever the search answered (it also lists other users' public templates).
                .filter((t) => ownedBy(t, me) && createdSince(vast, t, sentAt) && holds(t, fields) && !isHeld(t.id))
                .sort((a, b) => (b.created_at ?? 0) - (a.created_at ?? 0));
            if (candidates.length > 1) ctx.log.warn(`several templates match the lost create of "${fields.name}"; adopting ${candidates[0].id}`);
            return candidates[0];
        },
    });
}

/**
 * What state says the program manages, without what earlier versions stored that was no setting
 * of the program's:
 * - the registry login fields as empty strings when unused: read as absent, so an upgrade shows
 *   no change; unless the program sets that empty string itself (the contract tells callers to
 *   send "" when unused): then it is the program's, and the same on both sides;
 * - `null` (`jupyterDir`, `volumeInfo`), which the program now means as not set (see
 *   `canonicalTemplateInputs`) and the service stores as not set: read as absent, so an upgrade
 *   neither edits the template nor replaces the instances on it;
 * - a script or readme with CRLF line ends or a BOM, as template files checked out on Windows
 *   gave it before they were read as committed (`asCheckedIn`): the same as the program's text in
 *   that form, so an upgrade does not edit every such template (a new hash replaces the instances
 *   on it). The next edit of the template sends the program's text.
 */
function withoutLegacyBlanks(olds: object, news: object): Props {
    const managed: Props = Object.fromEntries(Object.entries(olds).filter(([, value]) => value !== null));
    const desired = news as Props;
    for (const property of Object.keys(REGISTRY_LOGIN_ON_CREATE)) if (managed[property] === "" && desired[property] !== "") delete managed[property];
    for (const property of ["onstart", "readme"]) {
        const stored = managed[property];
        if (typeof stored === "string" && stored !== desired[property] && asCheckedIn(stored) === desired[property]) managed[property] = desired[property];
    }
    return managed;
}

/**
 * The content properties an edit sends: those whose value differs from what state says the
 * program manages, but for one the program stops setting that has no cleared value (a registry
 * login field), which is left as the service has it: a change of that alone sends nothing, and an
 * edit of unchanged content would still give a new hash, replacing every Instance on the template.
 * The diff reports changes by this too, so a preview never plans an edit (every Instance on the
 * template shown as replaced) that the update then does not make.
 */
function editedProperties(managed: Props, desired: TemplateInputs): TemplateContentProperty[] {
    const changed = changedProperties(managed, desired, TEMPLATE_CONTENT);
    return TEMPLATE_CONTENT.filter((p) => changed.includes(p) && (desired[p] !== undefined || clearedValue(p) !== undefined));
}

/**
 * State after an edit that could not be settled (`editUnconfirmed`): the template as it is now, as
 * a refresh would record it, so that the update edits only where the template differs from the
 * program, and keeps the hash it has when nothing does.
 */
async function asTheTemplateIsNow(ctx: ProviderContext, vast: VastClient, templateId: number, olds: TemplateOutputs): Promise<TemplateOutputs> {
    const { editUnconfirmed: _unsure, ...known } = olds;
    const record = await ownTemplate(ctx, vast, templateId, olds.creatorId);
    if (!record) throw new Error(`vastai: edit template ${templateId} failed: the template no longer exists; run \`pulumi refresh\``);
    return { ...known, ...inputsFromRecord(record, inputsOf(known)), hashId: record.hash_id };
}

/**
 * The Template resource's implementation, run inside Pulumi's dynamic-provider host, given the
 * provider process's context. Typed against Pulumi's `ResourceProvider`: `diff`, `update`, `read`
 * and `delete` read the outputs `create` writes, and the compiler holds them to it.
 */
export const templateProvider = (ctx: ProviderContext) => ({
    async check(_olds: Props, given: Props): Promise<pulumi.dynamic.CheckResult<TemplateInputs>> {
        const { news, failure: published } = withoutSecretsIn(given);
        if (published) return { inputs: news as TemplateInputs, failures: [published] };
        const { args, failures } = checkArgs(news, templateArgsSchema, TEMPLATE_PROPERTIES, computedRefusals(TEMPLATE_COMPUTED));
        if (failures.length > 0) return { inputs: news as TemplateInputs, failures };
        const inputs = canonicalTemplateInputs(args);
        if (inputs.private === false) {
            for (const found of plainCredentials(inputs)) {
                ctx.log.warn(
                    `template "${inputs.name}" is public (private: false), and its ${describePlainCredential(found)}: every Vast.ai user can read a public template's fields. ` +
                        "Keep the template private, or give the value to each Instance's env instead",
                );
            }
        }
        return { inputs };
    },

    async diff(id: string, olds: TemplateOutputs, news: TemplateInputs) {
        const changed = editedProperties(withoutLegacyBlanks(olds, news), news);
        // As declared in templateArgsSchema: every field is edited in place (the edit gives a new hash_id);
        // only naming another template to adopt replaces (templateAdoption.ts).
        const replaces = [...changed.filter((p) => TEMPLATE_REPLACED_BY.includes(p)), ...adoptionReplaces(olds, news)];
        // After an edit that could not be settled, the update looks at the template (see `editUnconfirmed`).
        const unsure = olds.editUnconfirmed === true;
        // Kept (not replaced): this resource holds its template in this `up` (templateHolders.ts).
        if (replaces.length === 0) warnIfHeldByOthers(ctx.log, Number(olds.templateId ?? id), hold(Number(olds.templateId ?? id), olds.holder));
        return { changes: changed.length > 0 || replaces.length > 0 || shimChanged(olds, news) || unsure, replaces, deleteBeforeReplace: false };
    },

    async create(inputs: TemplateInputs) {
        const vast = ctx.client();
        const canonical = canonicalTemplateInputs(inputs);
        if (canonical.adopt !== undefined) {
            const { record, hashId } = await adoptTemplate(ctx, vast, canonical.adopt, canonical);
            return { id: String(record.id), outs: heldByNew(ctx.log, canonical, { id: record.id, hash_id: hashId }, creatorOf(record)) };
        }
        const fields = toTemplateFields({ ...REGISTRY_LOGIN_ON_CREATE, ...canonical });
        // One name and image at a time in this process (lostCreate.ts): a lost create must not take
        // the template an identical create is still waiting for.
        return oneCreateAtATime(`template ${fields.name}\n${fields.image}`, async () => {
            // When the first create whose answer was lost left (after its turn in the pacer, which
            // may be seconds): what it made is no older.
            let lostSentAt: number | undefined;
            // The service answers identical content with the account's existing template instead of a
            // new one. That template is not this resource's to manage (deleting the resource would
            // delete it), unless it is the one our own lost create made, or one this account deleted.
            const createNew = async (): Promise<TemplateRecord> => {
                const { template, existing, linkedNow } = await vast.templates.create(fields);
                if (!existing) return template;
                // Another account's (public) template can be the match too: it cannot be edited or
                // deleted from here, and is never what our lost create made, however recent.
                const me = await ctx.currentUserId().catch(() => undefined);
                const others = template.creator_id != null && me !== undefined && template.creator_id !== me;
                const mine = template.creator_id == null || (me !== undefined && template.creator_id === me);
                // The account's own template that this create linked to it again: one it had deleted
                // (a delete only unlinks), as a destroy and an `up` of the same program do. Linked to
                // the account by nothing else, it is no other resource's: taken back here.
                if (linkedNow && me !== undefined && template.creator_id === me && !isHeld(template.id)) {
                    ctx.log.progress(`template ${template.id}, which this account deleted, has exactly this content: the service linked it again, and it is managed here`);
                    return template;
                }
                if (!(mine && lostSentAt !== undefined && createdSince(vast, template, lostSentAt) && !isHeld(template.id))) {
                    throw new VastRequestRejectedError(
                        { operation: "create template", target: `"${fields.name}"` },
                        `template ${template.id}${others ? ", made by another account," : ""} already has exactly this content (the service answered with it, and links it to this account). ` +
                            `Identical templates are one template on Vast.ai: give this one different content (its name, for one)` +
                            // A delete only unlinks a template from the account, so identical content can
                            // also bring back one this account deleted, say by an earlier destroy: deleting
                            // it again would not help, adopting it would.
                            (others ? "" : `; or, if no other resource manages it (a template this account deleted comes back this way), set adopt: ${template.id} to manage it here`),
                    );
                }
                return template;
            };
            // A lost answer, to the first send or to the one re-send, is resolved by adopting what it made.
            for (let send = 1; ; send++) {
                let record: TemplateRecord | undefined;
                const sending = ctx.clock.now();
                try {
                    record = await createNew();
                } catch (e) {
                    if (!(e instanceof VastOutcomeUnknownError)) throw e;
                    lostSentAt ??= e.sentAt ?? sending;
                    record = await findLostTemplate(ctx, vast, fields, lostSentAt);
                    if (!record && send >= MAX_SENDS) {
                        throw new Error(`${e.message}; no template was found afterwards, and the create was not sent a third time`, { cause: e });
                    }
                }
                if (record) return { id: String(record.id), outs: heldByNew(ctx.log, canonical, record, creatorOf(record)) };
            }
        });
    },

    async read(id: string, props: Partial<TemplateOutputs> = {}) {
        const vast = ctx.client();
        const templateId = Number(props.templateId ?? id);
        const record = await ownTemplate(ctx, vast, templateId, props.creatorId);
        if (!record) return goneResult<TemplateOutputs>();
        const inputs = inputsFromRecord(record, inputsOf(props));
        return readResult(String(record.id), outputsOf(inputs, record, record.id, creatorOf(record) ?? props.creatorId, props.holder), inputs);
    },

    async update(id: string, olds: TemplateOutputs, news: TemplateInputs) {
        const vast = ctx.client();
        const templateId = Number(olds.templateId ?? id);
        const desired = canonicalTemplateInputs(news);
        const known = olds.editUnconfirmed ? await asTheTemplateIsNow(ctx, vast, templateId, olds) : olds;
        // Only the shim in state is new (see shimChanged), or nothing to send: no edit, which would change the hash.
        const managed = withoutLegacyBlanks(known, desired);
        const toSend = editedProperties(managed, desired);
        if (toSend.length === 0) {
            return { outs: outputsOf(desired, { id: templateId, hash_id: String(known.hashId) }, templateId, known.creatorId, olds.holder) };
        }
        // A null an earlier version stored may stand for a value it failed to clear: cleared with the edit.
        const removed = TEMPLATE_CONTENT.filter((p) => (managed[p] !== undefined || (known as Props)[p] === null) && desired[p] === undefined);
        const fields = { ...clearedFields(removed), ...toTemplateFields(desired) };
        let edited: { id?: number; hash_id: string };
        try {
            edited = await editTemplate(ctx, vast, templateId, String(known.hashId), fields, known.creatorId);
        } catch (e) {
            if (!(e instanceof TemplateEditUnsettledError)) throw e;
            // Kept as it was, the state would show no change for a program put back as before while
            // the template may hold this edit (and a hash state does not have): recorded as unsure,
            // so the next up looks first (the engine records these outputs with the failure).
            throw initFailure(e.message, id, { ...known, editUnconfirmed: true }, providerOf(news));
        }
        return { outs: outputsOf(desired, edited, templateId, known.creatorId, olds.holder) };
    },

    async delete(id: string, props: TemplateOutputs) {
        const vast = ctx.client();
        const templateId = Number(props.templateId ?? id);
        // Deleted (unlinked) or not, this resource holds it no more: a create of the same content may take it back.
        if (letGo(templateId, props.holder)) {
            ctx.log.warn(`template ${templateId} is not deleted on Vast.ai: another resource of this stack holds it; this one only leaves the stack`);
            return;
        }
        try {
            await confirmedRemoval(
                { operation: "delete template", target: String(templateId) },
                () => vast.templates.delete(templateId),
                async () => (await ownTemplate(ctx, vast, templateId, props.creatorId)) !== undefined,
            );
        } catch (e) {
            // Still there: held again, as it was.
            hold(templateId, props.holder);
            // Refused to a key not the creator's: with the creator in state, say which account's key
            // is in use and which one deletes it, as a read does (the service's 401 names neither).
            if (creatorOnly(e)) {
                await assertSameAccount(ctx, `template ${templateId}`, props.creatorId).catch((lookup: Error) => {
                    if (lookup instanceof VastConfigError) throw lookup;
                });
            }
            throw refusedDelete(e, templateId) ?? e;
        }
    },
}) satisfies pulumi.dynamic.ResourceProvider<TemplateInputs, TemplateOutputs>;
