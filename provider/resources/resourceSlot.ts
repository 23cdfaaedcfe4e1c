import { createHash } from "crypto";
import * as pulumi from "@pulumi/pulumi";

// Where a resource stands, as its URN says (project, stack, parent and name), hashed: what any
// machine's next `up` computes the same, so the service can carry it (docs/design/service-record.md).

/** The slot of a resource of `type`: the same on every machine, another for another stack, program or name. */
export function resourceSlot(type: string, project: string, stack: string, parentUrn: string, name: string): string {
    return createHash("sha256").update([type, project, stack, parentUrn, name].join("\0")).digest("hex").slice(0, 24);
}

/** The generation a check gives: 0 when no state holds the resource, else one more than the state's. */
export function nextGeneration(olds: { createGeneration?: unknown }, inState: boolean): number {
    return inState ? (Number(olds.createGeneration) || 0) + 1 : 0;
}

/** The slot of the resource `name` a program declares, as an input: computed in the program, where the URN's parts are known. */
export function slotInput(type: string, name: string, opts: pulumi.ResourceOptions | undefined): pulumi.Output<string> {
    return pulumi.output(opts?.parent?.urn ?? "").apply((parent) => resourceSlot(type, pulumi.getProject(), pulumi.getStack(), parent, name));
}

/**
 * The slot of a resource the engine names by its URN, as the provider plugin's check is told it:
 * the URN holds the stack, the project, the parent types and the name, so it stands where
 * `resourceSlot`'s parts do.
 */
export function slotOfUrn(urn: string): string {
    return createHash("sha256").update(["urn", urn].join("\0")).digest("hex").slice(0, 24);
}
