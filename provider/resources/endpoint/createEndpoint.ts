/**
 * An Endpoint create, its steps in order: refuse a name the account has, send the create, find
 * what a lost response made (never sending again), read the record back for the outputs.
 */
import { VastInvalidArgsError, VastOutcomeUnknownError } from "../../client/errors";
import { VastClient } from "../../client/vastClient";
import { ProviderContext } from "../../dynamic/context";
import { ProviderError } from "../../errors/providerError";
import { EndpointRecord } from "../../schemas/serverless";
import { findLostCreate, oneCreateAtATime } from "../lostCreate";
import { EndpointInputs, EndpointOutputs } from "./endpointArgs";
import { outputsOf, settingsOf } from "./endpointRecords";

/** Endpoints this process made: a lost create of another resource never takes them for its own. */
const createdHere = new Set<number>();

export async function createEndpoint(ctx: ProviderContext, inputs: EndpointInputs): Promise<{ id: string; outs: EndpointOutputs }> {
    const { name } = inputs;
    if (inputs.adopt !== undefined) return adoptEndpoint(ctx, inputs, inputs.adopt);
    // One name at a time: a lost create's look must not take the endpoint another create of the name is still waiting for.
    return oneCreateAtATime(`endpoint ${name}`, async () => {
        const vast = ctx.client();
        // Listed before the send: the endpoint a lost response made is one not listed here. If the list cannot be read, nothing is sent.
        const listed = await vast.serverless.listEndpoints();
        const existing = listed.find((e) => e.endpoint_name === name);
        if (existing) throw nameTaken(name, existing.id);
        const before = new Set(listed.map((e) => e.id));
        const sentAt = ctx.clock.now();
        let endpointId: number;
        let record: EndpointRecord | undefined;
        try {
            endpointId = await vast.serverless.createEndpoint(settingsOf(inputs));
        } catch (e) {
            record = await recoverFailedCreate(ctx, vast, e, name, sentAt, before);
            endpointId = record.id;
        }
        createdHere.add(endpointId);
        // For the outputs only: made is made, so a failed read leaves them to the inputs until the next refresh.
        record ??= await vast.serverless.showEndpoint(endpointId).catch(() => undefined);
        ctx.log.progress(`endpoint ${endpointId} (${name}) created`);
        return { id: String(endpointId), outs: outputsOf(inputs, endpointId, record) };
    });
}

/** Takes endpoint `endpointId` into the stack: read (no create call), then set to the program's settings with one update. */
async function adoptEndpoint(ctx: ProviderContext, inputs: EndpointInputs, endpointId: number): Promise<{ id: string; outs: EndpointOutputs }> {
    const vast = ctx.client();
    const found = await vast.serverless.showEndpoint(endpointId);
    if (!found) {
        throw new ProviderError(
            "adopt_not_found",
            `vastai: adopt endpoint ${endpointId} failed: the account has no endpoint ${endpointId} (deleted, another account's, or a mistyped id); remove \`adopt\` to create one`,
        );
    }
    await vast.serverless.updateEndpoint(endpointId, settingsOf(inputs));
    createdHere.add(endpointId);
    const record = (await vast.serverless.showEndpoint(endpointId).catch(() => undefined)) ?? found;
    ctx.log.progress(`endpoint ${endpointId} (${inputs.name}) adopted: set to the program's settings`);
    return { id: String(endpointId), outs: outputsOf(inputs, endpointId, record) };
}

/**
 * A name the account has already (the service refuses a duplicate): which endpoint, and what to
 * do. The service records nothing of who made an endpoint, so one a stopped `pulumi up` made
 * cannot be told from one made in the console, and is not taken over.
 */
function nameTaken(name: string, existingId: number): ProviderError {
    const held = createdHere.has(existingId)
        ? `another Endpoint of this program holds this name already (endpoint ${existingId}), and the account holds a name once: give each Endpoint its own name`
        : `the account has an endpoint of this name already (endpoint ${existingId}), and holds a name once. ` +
          "If another Endpoint (of this stack or another) holds it, give this one another name. " +
          `If a \`pulumi up\` of this stack made it and was stopped before its create returned, or it was made in the console, take it into state (\`adopt: ${existingId}\`, \`pulumi import\` by id ${existingId}, ` +
          `or \`pulumi refresh --import-pending-creates <urn> ${existingId}\`). Otherwise delete endpoint ${existingId} in the Vast.ai console (or \`vastai delete endpoint ${existingId}\`, ` +
          "then destroy its workers) and run `pulumi up` again";
    return new ProviderError("already_on_account", `vastai: create endpoint ${JSON.stringify(name)} failed: ${held}`);
}

/** After a failed create: the endpoint a lost response made, adopted; otherwise throws what to do. */
async function recoverFailedCreate(ctx: ProviderContext, vast: VastClient, e: unknown, name: string, sentAt: number, before: ReadonlySet<number>): Promise<EndpointRecord> {
    if (e instanceof VastOutcomeUnknownError) {
        ctx.log.warn(`the answer to create endpoint ${JSON.stringify(name)} was lost; looking for it before anything is sent again`);
        const made = await findLostCreate(ctx, {
            what: `endpoint ${JSON.stringify(name)}`,
            lookFor: `an endpoint named ${JSON.stringify(name)} made since ${new Date(sentAt).toISOString()}`,
            // The account holds a name once: one of this name not listed before the send is what the create made.
            look: async () => (await vast.serverless.listEndpoints()).find((r) => r.endpoint_name === name && !before.has(r.id) && !createdHere.has(r.id)),
        });
        if (made) {
            ctx.log.progress(`the answer to create endpoint ${JSON.stringify(name)} was lost; found it on the account as endpoint ${made.id}`);
            return made;
        }
        throw new ProviderError("lost_create_not_made", `${e.message}. No endpoint of this name was found on the account afterwards, and nothing was sent again; run \`pulumi up\` again`, { cause: e });
    }
    if (e instanceof VastInvalidArgsError) {
        // Most likely made meanwhile by hand (or by another stack): say which.
        const taken = (await vast.serverless.listEndpoints().catch(() => [])).find((r) => r.endpoint_name === name);
        if (taken) throw Object.assign(nameTaken(name, taken.id), { cause: e });
    }
    throw e;
}
