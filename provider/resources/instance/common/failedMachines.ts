import { canonicalJson } from "../../canonicalInputs";

// Machines where a create's instance would not run (it ended exited, unknown or offline while
// starting), as state recorded them when the create was cut short (`unfinishedCreate`): the `up`
// that finishes it rents by the same search, in this process, and avoids them.

const failed = new Map<string, Set<number>>();

/** `machineIds` failed a create by `search` on `service` (its base URL). */
export function rememberFailedMachines(service: string, search: unknown, machineIds: Iterable<number>): void {
    const known = failedFor(service, search);
    for (const id of machineIds) known.add(id);
}

/** The machines that failed creates by `search` on `service` in this process, kept up to date. */
export function failedMachines(service: string, search: unknown): ReadonlySet<number> {
    return failedFor(service, search);
}

function failedFor(service: string, search: unknown): Set<number> {
    const key = `${service}\0${canonicalJson(search)}`;
    let known = failed.get(key);
    if (!known) failed.set(key, (known = new Set<number>()));
    return known;
}
