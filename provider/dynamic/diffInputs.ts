import type * as pulumi from "@pulumi/pulumi";
import { containsUnknown } from "./unknowns";

/**
 * A diff as each resource answers it: Pulumi's dynamic `DiffResult`, and `diffs`, the input
 * properties a plan lists as changed. The provider plugin sends those as its detailed diff; the
 * dynamic host reads only the first four fields, so internal inputs there show in plans anyway.
 */
export type PropertyDiffResult = pulumi.dynamic.DiffResult & { diffs: string[] };

/** Order-insensitive comparison of plain JSON values; an absent key equals `undefined`. */
export function sameValue(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (a === undefined || b === undefined || a === null || b === null) return false;
    if (Array.isArray(a) || Array.isArray(b)) {
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
    }
    if (typeof a === "object" && typeof b === "object") {
        const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
        const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
        return ka.length === kb.length && ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
    }
    return false;
}

/**
 * The input properties whose value differs between the old state and the new inputs, in the
 * order of `properties`. A value unknown during preview counts as changed.
 */
export function changedProperties(olds: object, news: object, properties: readonly string[]): string[] {
    const before = olds as Record<string, unknown>;
    const after = news as Record<string, unknown>;
    return properties.filter((p) => containsUnknown(after[p]) || !sameValue(before[p], after[p]));
}

/** What every shim's text names (dynamic/shim.ts): the installed code it loads. */
const SHIM_LOADS = "pulumi-vastai/runtime";

/**
 * A shim that defines every method up front, each failing until the installed code is loaded. The
 * first shims defined `configure` only: when loading failed, the host's cached object had no
 * `delete`, which it takes for success, so a later delete could drop a running instance.
 */
const DEFINES_DELETE = /\bdelete\s*:/;

/**
 * Whether state holds provider code of its own, frozen by a version before the shim, or one of the
 * first shims (no `delete` until loaded), where the program sends the current shim: the host
 * deletes with the text in state, so such a resource keeps that old code until an update writes
 * the shim. Such a diff asks for that update (which changes nothing on the service). A safe shim
 * in state, even an older text, loads the installed code already: no update, which a preview
 * would show as every output unknown (a template's `hashId`, and every Instance on it as replaced).
 */
export function shimChanged(olds: object, news: object): boolean {
    const old = (olds as { __provider?: unknown }).__provider;
    const now = (news as { __provider?: unknown }).__provider;
    const safeShim = typeof old === "string" && old.includes(SHIM_LOADS) && DEFINES_DELETE.test(old);
    return typeof old === "string" && typeof now === "string" && !containsUnknown(now) && old !== now && !safeShim;
}
