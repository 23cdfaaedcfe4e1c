import { CheckFailure } from "../dynamic/checkFailures";
import { PropertyDiffResult } from "../dynamic/diffInputs";
import { ResourceKind } from "../dynamic/shim";
import { PACKAGE_NAME, kindOfType, pluginTypeToken } from "../dynamic/typeTokens";
import { RESOURCE_DECLARATIONS } from "../resources/declarations";
import { slotOfUrn } from "../resources/resourceSlot";
import { KINDS, Implementation } from "../runtime";
import { Props } from "./wire";

// The plugin's resource methods: each finds the kind from the URN and calls that kind's one
// implementation (runtime/index.ts), the same object the dynamic resources load.

/** `urn:pulumi:<stack>::<project>::[<parent type>$]*<type>::<name>` → the kind of this package's type. */
export function kindOfUrn(urn: string): ResourceKind {
    const type = urn.split("::")[2]?.split("$").pop() ?? "";
    const kind = kindOfType(type);
    if (!kind || pluginTypeToken(kind) !== type) throw new Error(`vastai: ${type || urn} is not a resource of the ${PACKAGE_NAME} package`);
    return kind;
}

function implementation(urn: string): Implementation {
    return KINDS[kindOfUrn(urn)];
}

/**
 * Check: the kind's own check. A kind whose create is keyed by where the resource stands is given
 * that from the URN (the dynamic classes compute it in the program).
 */
export async function check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const kind = kindOfUrn(urn);
    const given = RESOURCE_DECLARATIONS[kind].slotted ? { ...news, createSlot: slotOfUrn(urn) } : news;
    const checked = await KINDS[kind].check(olds, given);
    return { inputs: checked.inputs as Props, failures: checked.failures ?? [] };
}

/** What the engine's Diff response says: the kind's diff, and per property whether it updates or replaces. */
export interface PluginDiff {
    changes: boolean;
    replaces: string[];
    deleteBeforeReplace: boolean;
    detailedDiff: Record<string, PropertyChange>;
}

export type PropertyChange = "ADD" | "ADD_REPLACE" | "DELETE" | "DELETE_REPLACE" | "UPDATE" | "UPDATE_REPLACE";

/**
 * Diff: the kind's diff, and a detailed diff of the properties it names (`diffs`), so a plan
 * lists what the program changed and nothing the provider keeps for itself (the create's slot and
 * generation). Each is a replace when the diff replaces for it, else an update: a property
 * declared to replace can change in place (an instance pinned to the offer it already runs on).
 * What replaces beside the properties (an unfinished create) is named as itself.
 */
export async function diff(id: string, urn: string, olds: Props, news: Props): Promise<PluginDiff> {
    const kind = kindOfUrn(urn);
    const result = (await KINDS[kind].diff(id, olds as never, news as never)) as PropertyDiffResult;
    const replaces = result.replaces ?? [];
    const detailedDiff: Record<string, PropertyChange> = {};
    const changes = result.changes === true;
    for (const name of changes ? (result.diffs ?? []) : []) {
        const replacing = replaces.includes(name);
        const change = olds[name] === undefined ? "ADD" : news[name] === undefined ? "DELETE" : "UPDATE";
        detailedDiff[name] = replacing ? `${change}_REPLACE` : change;
    }
    for (const name of replaces) detailedDiff[name] ??= "UPDATE_REPLACE";
    return { changes, replaces, deleteBeforeReplace: result.deleteBeforeReplace === true, detailedDiff };
}

export async function create(urn: string, inputs: Props): Promise<{ id: string; outs: Props }> {
    const created = await implementation(urn).create(inputs as never);
    return { id: String(created.id), outs: (created.outs ?? {}) as unknown as Props };
}

/**
 * Read: a refresh (the state's outputs and inputs), or an import (the id alone). A resource gone
 * answers an empty id; a read that returns no inputs keeps the request's, as the dynamic host does.
 */
export async function read(id: string, urn: string, props: Props, inputs: Props): Promise<{ id: string; props: Props; inputs: Props }> {
    const found = await implementation(urn).read(id, props as never);
    if (!found.id) return { id: "", props: {}, inputs: {} };
    return { id: String(found.id), props: (found.props ?? {}) as Props, inputs: ((found as { inputs?: Props }).inputs ?? inputs) as Props };
}

export async function update(id: string, urn: string, olds: Props, news: Props): Promise<Props> {
    const updated = await implementation(urn).update(id, olds as never, news as never);
    return (updated.outs ?? {}) as Props;
}

export async function remove(id: string, urn: string, props: Props): Promise<void> {
    await implementation(urn).delete(id, props as never);
}
