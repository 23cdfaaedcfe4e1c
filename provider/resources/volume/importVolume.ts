/** A Volume or NetworkVolume read by its id alone, as `pulumi import` reads it (docs/design/import.md). */
import { VolumeKind } from "../../client/api/volumes";
import { ProviderContext } from "../../dynamic/context";
import { Importer, importedId, notOnAccount } from "../importing";
import { VolumeProperty } from "./volumeArgs";
import { inputsOf, listedUnlessRemoved, outputsOf } from "./volumeRecords";

const KINDS = {
    local: { type: "Volume", noun: "volume", other: "a network volume is imported as a NetworkVolume" },
    network: { type: "NetworkVolume", noun: "network volume", other: "a local volume is imported as a Volume" },
} as const;

/**
 * How it was created, which no listing shows: the program's. `adopt` reads as this volume (a
 * program may give it, or an offer it was made on); one naming another volume is refused.
 */
const TAKEN: readonly VolumeProperty[] = ["offerId", "offer", "adopt"];

export const volumeImporter = (ctx: ProviderContext, kind: VolumeKind): Importer => {
    const { type, noun, other } = KINDS[kind];
    const idIs = `the ${noun}'s numeric id; \`vastai show volumes\` lists them (${other})`;
    return {
        async read(id) {
            const volumeId = importedId(type, id, idIs);
            const record = await listedUnlessRemoved(ctx, volumeId, kind);
            if (!record) throw notOnAccount(type, volumeId, noun, idIs);
            const size = record.disk_space;
            const inputs = inputsOf({ adopt: volumeId, name: record.label ?? undefined, sizeGb: typeof size === "number" ? Math.round(size) : undefined });
            return { id: String(volumeId), props: { ...outputsOf(inputs, record, {}) }, inputs: { ...inputs }, taken: TAKEN };
        },
        async disagreements(id, news) {
            const adopt = news.adopt;
            return typeof adopt === "number" && adopt !== Number(id) ? [`adopt: the program adopts ${noun} ${adopt}, this import is of ${noun} ${id}`] : [];
        },
    };
};
