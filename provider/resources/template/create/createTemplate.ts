/** A Template create, its steps in order: adopt or build the request, send it, recover a lost response, map it to outputs. */
import { VastOutcomeUnknownError } from "../../../client/errors";
import { ProviderContext } from "../../../dynamic/context";
import { TemplateRecord } from "../../../schemas/template";
import { oneCreateAtATime } from "../../lostCreate";
import { REGISTRY_LOGIN_ON_CREATE, TemplateInputs, TemplateOutputs } from "../templateArgs";
import { canonicalTemplateInputs, toTemplateFields } from "../common/templateMapping";
import { creatorOf, createdOutputs } from "../common/templateOutputs";
import { adoptTemplate } from "./adoptTemplate";
import { findLostTemplate } from "./findLostTemplate";
import { sendCreate } from "./sendCreate";
import { ProviderError } from "../../../errors/providerError";

/** Creates sent for one resource at most; the second only after the first was looked for. */
const MAX_SENDS = 2;

export async function createTemplate(ctx: ProviderContext, inputs: TemplateInputs): Promise<{ id: string; outs: TemplateOutputs }> {
    const vast = ctx.client();
    const canonical = canonicalTemplateInputs(inputs);
    if (canonical.adopt !== undefined) {
        const { record, hashId } = await adoptTemplate(ctx, vast, canonical.adopt, canonical);
        return { id: String(record.id), outs: createdOutputs(ctx.log, canonical, { id: record.id, hash_id: hashId }, creatorOf(record)) };
    }
    const fields = toTemplateFields({ ...REGISTRY_LOGIN_ON_CREATE, ...canonical });
    // One name and image at a time in this process (lostCreate.ts): a lost create must not take
    // the template an identical create is still waiting for.
    return oneCreateAtATime(`template ${fields.name}\n${fields.image}`, async () => {
        // When the first create whose response was lost left (after its turn in the pacer, which
        // may be seconds): what it made is no older.
        let lostSentAt: number | undefined;
        // A lost response, to the first send or to the one re-send, is resolved by adopting what it made
        // (docs/design/template-create.md).
        for (let send = 1; ; send++) {
            let record: TemplateRecord | undefined;
            const sending = ctx.clock.now();
            try {
                record = await sendCreate(ctx, vast, fields, lostSentAt);
            } catch (e) {
                if (!(e instanceof VastOutcomeUnknownError)) throw e;
                lostSentAt ??= e.sentAt ?? sending;
                record = await findLostTemplate(ctx, vast, fields, lostSentAt);
                if (!record && send >= MAX_SENDS) {
                    throw new ProviderError("lost_create_not_made", `${e.message}; no template was found afterwards, and the create was not sent a third time`, { cause: e });
                }
            }
            if (record) return { id: String(record.id), outs: createdOutputs(ctx.log, canonical, record, creatorOf(record)) };
        }
    });
}
