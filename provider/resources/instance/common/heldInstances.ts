// Instances this process has seen a state hold (a diff, a read, a delete names them): a create that
// looks for what an interrupted create rented never takes one. A second guard beside the key's
// generation (createKey.ts), for what it cannot tell: an instance held under an alias, say.

const held = new Map<string, Set<number>>();

/** State holds instance `instanceId` of `service` (its base URL). */
export function holdsInState(service: string, instanceId: number): void {
    let ids = held.get(service);
    if (!ids) held.set(service, (ids = new Set<number>()));
    ids.add(instanceId);
}

/** Whether this process has seen state hold instance `instanceId` of `service`. */
export function heldInState(service: string, instanceId: number): boolean {
    return held.get(service)?.has(instanceId) ?? false;
}
