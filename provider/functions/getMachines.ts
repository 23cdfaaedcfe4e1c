import * as pulumi from "@pulumi/pulumi";
import { Machine, machineFromRecord } from "./machine";
import { DeepInput, FunctionOutputOptions, outputForm } from "./outputForm";
import { FunctionOptions, programClient } from "./programClient";

export interface GetMachinesArgs {
    /** Whose machines (docs/service-contract.md §4.1 `user_id`). Default: the account the key belongs to. */
    userId?: number;
}

/**
 * A host's machines (docs/service-contract.md §4.1), typed, with units in the field names and derived values
 * (`gpuRamGib`, `online`, `gpuOccupancy` per GPU). Needs the `machine_read` permission, and
 * `user_read` too when `userId` is left out.
 *
 *     const online = (await vast.getMachines()).filter((m) => m.online && (m.gpuRamGib ?? 0) >= 24);
 */
export async function getMachines(args: GetMachinesArgs = {}, options?: FunctionOptions): Promise<Machine[]> {
    const vast = programClient(options);
    const userId = args.userId ?? (await vast.account.currentUser()).id;
    const records = await vast.account.machines(userId);
    return records.map(machineFromRecord);
}

/**
 * `getMachines` as an Output, its arguments and options Inputs.
 *
 *     const machines = vast.getMachinesOutput({ userId: vast.getCurrentUserOutput().id });
 */
export function getMachinesOutput(args?: DeepInput<GetMachinesArgs>, options?: FunctionOutputOptions): pulumi.Output<Machine[]> {
    return outputForm(getMachines, args, options);
}
