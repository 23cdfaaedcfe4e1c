/** A Volume delete: deleted, and confirmed gone by the listing whatever the answer; one an instance still uses is refused, naming it. */
import { VastError } from "../../client/errors";
import { ProviderContext } from "../../dynamic/context";
import { confirmedDelete } from "../confirmedDelete";
import { VolumeKind } from "../../client/api/volumes";
import { VolumeOutputs } from "./volumeArgs";
import { listedUnlessRemoved, usedBy } from "./volumeRecords";
import { ProviderError } from "../../errors/providerError";

/**
 * How long a delete answered done waits for the listing to leave the volume out, at live speed: a
 * volume still listed is still billed, so the answer alone does not take it out of state.
 */
const DELETE_LISTED_WAIT_MS = 30_000;

export async function deleteVolume(ctx: ProviderContext, id: string, props: VolumeOutputs, kind: VolumeKind): Promise<void> {
    const volumeId = Number(props.volumeId ?? id);
    const vast = ctx.client();
    const what = kind === "network" ? "network volume" : "volume";
    const target = props.name ? `${volumeId} (${props.name})` : String(volumeId);
    try {
        // Gone only when three listings leave it out, whatever the delete answered (a success too).
        const { alreadyGone } = await confirmedDelete(
            ctx,
            { operation: `delete ${what}`, target },
            () => vast.volumes.delete(volumeId),
            async () => (await listedUnlessRemoved(ctx, volumeId, kind)) !== undefined,
            { successConfirmedWithinMs: DELETE_LISTED_WAIT_MS },
        );
        ctx.log.progress(alreadyGone ? `${what} ${target} was already gone` : `${what} ${target} deleted`);
    } catch (e) {
        throw await inUseExplained(ctx, volumeId, e, kind);
    }
}

/** A refusal because instances still use the volume, naming them and what to do; any other error as it is. */
async function inUseExplained(ctx: ProviderContext, volumeId: number, e: unknown, kind: VolumeKind): Promise<unknown> {
    if (!(e instanceof VastError)) return e;
    // Not the target's words: it carries the volume's name, which may hold any of these.
    const said = `${e.serviceCode ?? ""} ${e.serviceMessage ?? ""} ${e.message.replace(e.target ?? "", "")}`;
    if (!/in_use|instances using the volume/i.test(said)) return e;
    const record = await listedUnlessRemoved(ctx, volumeId, kind).catch(() => undefined);
    const users = record ? usedBy(record) : [];
    const which = users.length > 0 ? `instance${users.length > 1 ? "s" : ""} ${users.join(", ")} still use${users.length > 1 ? "" : "s"} it` : "an instance still uses it";
    return new ProviderError("in_use", `vastai: delete volume ${volumeId} refused: ${which}. Destroy ${users.length > 1 ? "them" : "it"} first (in the program: remove the instance, or make the instance depend on the volume so Pulumi destroys it first)`, { cause: e });
}
