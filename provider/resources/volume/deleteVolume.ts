/** A Volume delete: deleted, and confirmed gone by the listing; one an instance still uses is refused, naming it. */
import { VastError } from "../../client/errors";
import { ProviderContext } from "../../dynamic/context";
import { confirmedDelete } from "../confirmedDelete";
import { VolumeKind } from "../../client/api/volumes";
import { VolumeOutputs } from "./volumeArgs";
import { listedUnlessRemoved, usedBy } from "./volumeRecords";

export async function deleteVolume(ctx: ProviderContext, id: string, props: VolumeOutputs, kind: VolumeKind): Promise<void> {
    const volumeId = Number(props.volumeId ?? id);
    const vast = ctx.client();
    try {
        const { alreadyGone } = await confirmedDelete(
            ctx,
            { operation: "delete volume", target: String(volumeId) },
            () => vast.volumes.delete(volumeId),
            async () => (await listedUnlessRemoved(ctx, volumeId, kind)) !== undefined,
        );
        ctx.log.progress(alreadyGone ? `volume ${volumeId} was already gone` : `volume ${volumeId} deleted`);
    } catch (e) {
        throw await inUseExplained(ctx, volumeId, e, kind);
    }
}

/** A refusal because instances still use the volume, naming them and what to do; any other error as it is. */
async function inUseExplained(ctx: ProviderContext, volumeId: number, e: unknown, kind: VolumeKind): Promise<unknown> {
    if (!(e instanceof VastError) || !/in_use|instances using the volume/i.test(`${e.code ?? ""} ${e.serviceMessage ?? ""} ${e.message}`)) return e;
    const record = await listedUnlessRemoved(ctx, volumeId, kind).catch(() => undefined);
    const users = record ? usedBy(record) : [];
    const which = users.length > 0 ? `instance${users.length > 1 ? "s" : ""} ${users.join(", ")} still use${users.length > 1 ? "" : "s"} it` : "an instance still uses it";
    return new Error(`vastai: delete volume ${volumeId} refused: ${which}. Destroy ${users.length > 1 ? "them" : "it"} first (in the program: remove the instance, or make the instance depend on the volume so Pulumi destroys it first)`, { cause: e });
}
