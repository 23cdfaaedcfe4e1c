import { createHash } from "crypto";
import { canonicalJson } from "../../canonicalInputs";
import { InstanceRecord } from "../../../schemas/instance";
import { INSTANCE_REPLACE_PROPERTIES } from "../instanceArgs";

// A create's key: which resource of which stack (the slot), made from which creation inputs, in
// which generation of that resource. Carried in the env of the instance it rents, it lets the next
// `up` on any machine find what an interrupted create rented (docs/design/service-record.md).

/** The env variable that carries a create's key: `<slot>.<inputs>.<generation>`. */
export const CREATE_KEY_ENV = "PULUMI_VASTAI_CREATE";

export interface CreateKey {
    slot: string;
    inputs: string;
    /** 0 for a resource no state holds; one more than the state's at every check after that. */
    generation: number;
}

function sha256(text: string, chars: number): string {
    return createHash("sha256").update(text).digest("hex").slice(0, chars);
}

/** The key of a create of `inputs` (checked, normalized), or none for inputs without a slot (not from the Instance class). */
export function createKeyOf(inputs: { createSlot?: string; createGeneration?: number }): CreateKey | undefined {
    if (inputs.createSlot === undefined) return undefined;
    const made = Object.fromEntries(INSTANCE_REPLACE_PROPERTIES.map((name) => [name, (inputs as Record<string, unknown>)[name]]));
    return { slot: inputs.createSlot, inputs: sha256(canonicalJson(made), 24), generation: inputs.createGeneration ?? 0 };
}

export function formatKey(key: CreateKey): string {
    return `${key.slot}.${key.inputs}.${key.generation}`;
}

/** The key an instance record carries in its env, when it has one. */
export function keyOf(record: InstanceRecord): CreateKey | undefined {
    const value = record.extra_env?.find(([name]) => name === CREATE_KEY_ENV)?.[1];
    const match = /^([0-9a-f]+)\.([0-9a-f]+)\.(\d+)$/.exec(value ?? "");
    return match ? { slot: match[1], inputs: match[2], generation: Number(match[3]) } : undefined;
}

/**
 * Whether an instance carrying `found` was rented by an interrupted create that `ours` finishes:
 * the same slot and creation inputs, and for a resource state holds, the same generation (an
 * older one is the instance state holds, which a replacement with unchanged inputs carries). A
 * resource no state holds takes any generation: a delete-before-replace took the old one out of state.
 */
export function sameCreate(found: CreateKey | undefined, ours: CreateKey): boolean {
    if (found === undefined) return false;
    return found.slot === ours.slot && found.inputs === ours.inputs && (ours.generation === 0 || found.generation === ours.generation);
}
