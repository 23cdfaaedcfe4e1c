import { canonicalJson } from "../../canonicalInputs";

// Machines where a create's instance would not run (it ended exited, unknown or offline while
// starting), remembered in this process for creates of the same inputs (the same search, image
// and the rest: another image may well run there): the attempts of one create, and the `up` that
// finishes a create cut short (`unfinishedCreate`, or one a stopped `up` left, by its key).

const failed = new Map<string, Set<number>>();

/** `machineIds` failed a create of `inputs` (checked, normalized) on `service` (its base URL). */
export function rememberFailedMachines(service: string, inputs: object, machineIds: Iterable<number>): void {
    const known = failedFor(service, inputs);
    for (const id of machineIds) known.add(id);
}

/** The machines that failed creates of `inputs` on `service` in this process, kept up to date. */
export function failedMachines(service: string, inputs: object): ReadonlySet<number> {
    return failedFor(service, inputs);
}

function failedFor(service: string, inputs: object): Set<number> {
    const key = `${service}\0${canonicalJson(inputs)}`;
    let known = failed.get(key);
    if (!known) failed.set(key, (known = new Set<number>()));
    return known;
}
