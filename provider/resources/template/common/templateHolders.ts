/**
 * Which resources of this provider process hold which template, so that deleting one of two that
 * hold one template keeps it for the other (docs/design/template-holders.md).
 */
import { randomUUID } from "crypto";


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
 * `holder` releases `templateId`; true when another resource of this process still holds it. A
 * resource from before `holder` counts as another when one such is held, so the template is kept.
 */
export function release(templateId: number, holder: string | undefined): boolean {
    const held = holders.get(templateId);
    if (holder !== undefined) held?.delete(holder);
    if (held?.size === 0) holders.delete(templateId);
    return held !== undefined && held.size > 0;
}
