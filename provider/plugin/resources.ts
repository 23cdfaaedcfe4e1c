import { CheckFailure } from "../dynamic/checkFailures";
import { PropertyDiffResult } from "../dynamic/diffInputs";
import { ResourceKind } from "../dynamic/shim";
import { PACKAGE_NAME, kindOfType, pluginTypeToken } from "../dynamic/typeTokens";
import { RESOURCE_DECLARATIONS } from "../resources/declarations";
import { slotOfUrn } from "../resources/resourceSlot";
import { IMPORTERS, KINDS, Implementation } from "../runtime";
import { checkedAfterImport, firstPlanAfterImport, markTaken, outputsAfterImport, refreshedAfterImport, withoutTakenMark } from "./imported";
import { Props } from "./wire";
import { ProviderError } from "../errors/providerError";

// The plugin's resource methods: each finds the kind from the URN and calls that kind's one
// implementation (runtime/index.ts), the same object the dynamic resources load.

/** `urn:pulumi:<stack>::<project>::[<parent type>$]*<type>::<name>` → the kind of this package's type. */
export function kindOfUrn(urn: string): ResourceKind {
    const type = urn.split("::")[2]?.split("$").pop() ?? "";
    const kind = kindOfType(type);
    if (!kind || pluginTypeToken(kind) !== type) throw new ProviderError("not_in_package", `vastai: ${type || urn} is not a resource of the ${PACKAGE_NAME} package`);
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
    const afterImport = checkedAfterImport(olds, news);
    const given = RESOURCE_DECLARATIONS[kind].slotted ? { ...afterImport.news, createSlot: slotOfUrn(urn) } : afterImport.news;
    const checked = await KINDS[kind].check(afterImport.olds, given);
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
 * After an import, what the import took from the program is the program's (imported.ts); at the
 * first plan, once the program agrees with what the service shows of it.
 */
export async function diff(id: string, urn: string, state: Props, news: Props, oldInputs: Props): Promise<PluginDiff> {
    const kind = kindOfUrn(urn);
    if (firstPlanAfterImport(state, oldInputs)) await refuseDisagreements(kind, id, news);
    const olds = outputsAfterImport(state, oldInputs, news);
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
 * Read: an import, which sends the id alone (no state, no inputs: `pulumi import`, or the `import`
 * resource option), or a refresh, which sends the state's outputs and inputs. An import reads by
 * id, and an id the account has none of fails it, saying so. A refresh of a resource gone answers
 * an empty id; a read that returns no inputs keeps the request's, as the dynamic host does.
 */
export async function read(id: string, urn: string, props: Props, inputs: Props): Promise<{ id: string; props: Props; inputs: Props }> {
    const importing = Object.keys(props).length === 0 && Object.keys(inputs).length === 0;
    return importing ? importRead(id, urn) : refresh(id, urn, props, inputs);
}

async function importRead(id: string, urn: string): Promise<{ id: string; props: Props; inputs: Props }> {
    const kind = kindOfUrn(urn);
    const imported = await IMPORTERS[kind].read(id, { createSlot: RESOURCE_DECLARATIONS[kind].slotted ? slotOfUrn(urn) : undefined });
    return { id: imported.id, ...markTaken({ props: imported.props, inputs: imported.inputs }, imported.taken) };
}

/** A refresh: the kind's read, and what an import took from the program kept as it is (imported.ts). */
async function refresh(id: string, urn: string, state: Props, inputs: Props): Promise<{ id: string; props: Props; inputs: Props }> {
    const found = await implementation(urn).read(id, withoutTakenMark(state) as never);
    if (!found.id) return { id: "", props: {}, inputs: {} };
    const read = { props: (found.props ?? {}) as Props, inputs: ((found as { inputs?: Props }).inputs ?? inputs) as Props };
    return { id: String(found.id), ...refreshedAfterImport(read, state, inputs) };
}

/** A program that says of a taken property what the service shows otherwise (another image): the import fails, naming each. */
async function refuseDisagreements(kind: ResourceKind, id: string, news: Props): Promise<void> {
    const found = (await IMPORTERS[kind].disagreements?.(id, news)) ?? [];
    if (found.length === 0) return;
    throw new ProviderError(
        "adopt_mismatch",
        `vastai: ${pluginTypeToken(kind)} ${id}, just imported: the program disagrees with what it has, which only a replacement would change:\n  ` +
            `${found.join("\n  ")}\nMake the program say what it has (or leave the property out), then run the command again`,
    );
}

export async function update(id: string, urn: string, state: Props, news: Props, oldInputs: Props): Promise<Props> {
    const updated = await implementation(urn).update(id, outputsAfterImport(state, oldInputs, news) as never, news as never);
    return (updated.outs ?? {}) as Props;
}

export async function remove(id: string, urn: string, props: Props): Promise<void> {
    await implementation(urn).delete(id, props as never);
}
