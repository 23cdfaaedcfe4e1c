/** An endpoint as the service shows it, as it is sent, and as a resource's outputs record it. */
import { pickInputs } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { wireFieldsOf } from "../../dynamic/properties";
import { EndpointRecord, EndpointSettings } from "../../schemas/serverless";
import { assertSameAccount } from "../sameAccount";
import { ENDPOINT_PROPERTIES, ENDPOINT_STATES, EndpointInputs, EndpointOutputs, KEPT_WHEN_LEFT_OUT, endpointArgsSchema } from "./endpointArgs";

const WIRE = wireFieldsOf(endpointArgsSchema);

/** The inputs among a resource's state or arguments. */
export const inputsOf = (props: object) => pickInputs(props as Record<string, any>, ENDPOINT_PROPERTIES) as unknown as EndpointInputs;

/** The full settings, as a create or an update sends them: every property the inputs hold. */
export function settingsOf(inputs: EndpointInputs): EndpointSettings {
    const settings: Record<string, unknown> = {};
    for (const property of ENDPOINT_PROPERTIES) if (property in WIRE && inputs[property] !== undefined) settings[WIRE[property as keyof typeof WIRE]] = inputs[property];
    return settings as EndpointSettings;
}

/**
 * The inputs the record stands for, so a refresh shows what was changed outside Pulumi: each
 * property as the service has it, else as `known` (state) has it.
 */
export function inputsOfRecord(record: EndpointRecord, known: Partial<EndpointInputs>): EndpointInputs {
    const values: Record<string, unknown> = { ...inputsOf(known) };
    for (const property of ENDPOINT_PROPERTIES) {
        if (!(property in WIRE)) continue;
        const value = (record as Record<string, unknown>)[WIRE[property as keyof typeof WIRE]];
        if (property === "state" && !ENDPOINT_STATES.includes(value as never)) continue;
        if (value !== undefined && value !== null) values[property] = value;
        else if (KEPT_WHEN_LEFT_OUT.includes(property)) delete values[property];
    }
    return inputsOf(values);
}

/**
 * Outputs: the inputs, the service's value of a property the program leaves to it, and what the
 * record tells. Its `api_key` (the endpoint's own token) is never copied: it must not reach state.
 */
export function outputsOf(inputs: EndpointInputs, endpointId: number, record: EndpointRecord | undefined, known: Partial<EndpointOutputs> = {}): EndpointOutputs {
    const outputs: Record<string, unknown> = { ...inputs, endpointId };
    for (const property of KEPT_WHEN_LEFT_OUT) {
        const value = record?.[WIRE[property as keyof typeof WIRE] as keyof EndpointRecord];
        if (inputs[property] === undefined && typeof value === "number") outputs[property] = value;
    }
    // As the service reports it: a state it names otherwise shows as it is.
    if (typeof record?.endpoint_state === "string") outputs.state = record.endpoint_state;
    const accountId = record?.user_id ?? known.accountId;
    if (accountId !== undefined && accountId !== null) outputs.accountId = accountId;
    const createdAt = createdAtOf(record?.created_at) ?? known.createdAt;
    if (createdAt !== undefined) outputs.createdAt = createdAt;
    return outputs as unknown as EndpointOutputs;
}

/** `created_at` in unix seconds (the listing's reference), or a date-time text (an older page's), as ISO 8601. */
function createdAtOf(value: number | string | null | undefined): string | undefined {
    if (typeof value === "number" && Number.isFinite(value)) return new Date(value * 1000).toISOString();
    if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
    return undefined;
}

/**
 * The endpoint as the service shows it, or undefined when the service says it is gone, with the
 * key of the account that holds it (`accountId`, sameAccount.ts): another account's key sees
 * none of this one's endpoints.
 */
export async function shownUnlessGone(ctx: ProviderContext, endpointId: number, accountId: number | undefined): Promise<EndpointRecord | undefined> {
    const record = await ctx.client().serverless.showEndpoint(endpointId);
    if (!record) await assertSameAccount(ctx, `endpoint ${endpointId}`, accountId);
    return record;
}
