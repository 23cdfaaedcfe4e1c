import { randomUUID } from "crypto";

/**
 * Which resources of this provider process hold which template. Two resources of a stack can come
 * to hold one template: a file that adopts a template another file made (after a rename in the
 * console, an export writes one), a file renamed (the new name adopts, the old one is deleted), or
 * two resources of identical content, which the service keeps as one template. The delete of one
 * must then not delete the template the other still holds.
 *
 * A dynamic provider is never told a resource's URN, so each Template resource carries a token of
 * its own in its outputs (`holder`), made when it makes or takes over its template. A resource
 * holds its template from its create, or from a diff that keeps it (no replacement): by the time
 * the engine deletes a resource the program no longer has, it has diffed every one it still has.
 * Not in a run that skips some (`--target`, `--exclude`): a resource left out is not diffed, and
 * what it holds is not known here. Reads hold nothing: `pulumi destroy --refresh` reads every
 * resource before deleting them all.
 */
const holders = new Map<number, Set<string>>();

/** What a resource from before `holder` existed holds by; such resources are not told apart until a refresh or an update gives them one. */
const UNMARKED = "unmarked";

/** A new resource's token. */
export function newHolder(): string {
    return randomUUID();
}

/** `holder` holds `templateId` from now on; returns how many other resources of this process hold it too. */
export function hold(templateId: number, holder: string | undefined): number {
    const held = holders.get(templateId) ?? new Set<string>();
    holders.set(templateId, held.add(holder ?? UNMARKED));
    return held.size - 1;
}

/** True when some resource of this process holds `templateId`. */
export function isHeld(templateId: number): boolean {
    return (holders.get(templateId)?.size ?? 0) > 0;
}

/**
 * `holder` lets `templateId` go; true when another resource of this process still holds it. A
 * resource from before `holder` cannot be told from another such: one that is held counts as
 * another, so the template is kept (at worst an unbilled template left behind, never one deleted
 * under a resource that uses it).
 */
export function letGo(templateId: number, holder: string | undefined): boolean {
    const held = holders.get(templateId);
    if (holder !== undefined) held?.delete(holder);
    if (held?.size === 0) holders.delete(templateId);
    return held !== undefined && held.size > 0;
}
