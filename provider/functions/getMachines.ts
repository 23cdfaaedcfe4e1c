import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { VastAuthError } from "../client/errors";
import { VastClient } from "../client/vastClient";
import { checkFunctionArgs, expected } from "./functionArgs";
import { Machine, machineFromRecord } from "./machine";
import { DeepInput, FunctionOutputOptions, outputForm } from "./outputForm";
import { FunctionOptions, programClient } from "./programClient";
import { codeShownOnFailure } from "../errors/providerError";

export interface GetMachinesArgs {
    /**
     * The account whose machines to list, sent as the listing's `user_id` (docs/service-contract.md §4.1).
     * Default: the account the key belongs to, read with `getCurrentUser` first. The service lists
     * the machines of the key's own account only (its API reference: "all machines owned by the
     * authenticated host"), so another account's id lists none of that account's machines.
     */
    userId?: number;
}

const positiveId = expected("a positive integer (an account id)");

/** Strict: a typo (`userID`) or a bare number listed the key's own machines without a word. */
export const getMachinesArgsSchema = z.strictObject(
    { userId: z.number({ error: positiveId }).int({ error: positiveId }).positive({ error: positiveId }).optional() },
    { error: (issue) => (issue.code === "invalid_type" ? expected("an object like { userId }")(issue) : undefined) },
);

/**
 * A host's machines (docs/service-contract.md §4.1), typed, with units in the field names and derived values
 * (`gpuRamGib`, `online`, `gpuOccupancy` per GPU). Needs the `machine_read` permission, and
 * `user_read` too when `userId` is left out. The arguments are checked before any call.
 *
 *     const online = (await vast.getMachines()).filter((m) => m.online && (m.gpuRamGib ?? 0) >= 24);
 */
export async function getMachines(args: GetMachinesArgs = {}, options?: FunctionOptions): Promise<Machine[]> {
    return codeShownOnFailure(() => machinesOf(programClient("getMachines", options), args));
}

/** The listing itself, on a client: what the function above and the plugin's invoke both run. The arguments are checked first. */
export async function machinesOf(vast: VastClient, args: GetMachinesArgs = {}): Promise<Machine[]> {
    const checked = checkFunctionArgs("getMachines", "arguments", getMachinesArgsSchema, args);
    const userId = checked.userId ?? (await keyAccountId(vast));
    const records = await vast.account.machines(userId);
    return records.map(machineFromRecord);
}

/**
 * The key's account, when `userId` is left out. A key refused it (one with `machine_read` but not
 * `user_read`) hears what the service's refusal cannot tell: that `userId` does without it.
 */
async function keyAccountId(vast: VastClient): Promise<number> {
    try {
        return (await vast.account.currentUser()).id;
    } catch (e) {
        if (!(e instanceof VastAuthError)) throw e;
        const refusal = e.message.replace(/^vastai: .*? failed: /, "");
        throw new VastAuthError(
            e,
            `${refusal}. getMachines asks for the key's account only when userId is left out: with a key without "user_read", pass userId (the account's id)`,
            e.missingPermission,
        );
    }
}

/**
 * `getMachines` as an Output, its arguments and options Inputs.
 *
 *     const machines = vast.getMachinesOutput({ userId: vast.getCurrentUserOutput().id });
 */
export function getMachinesOutput(args?: DeepInput<GetMachinesArgs>, options?: FunctionOutputOptions): pulumi.Output<Machine[]> {
    return outputForm(getMachines, args, options);
}
