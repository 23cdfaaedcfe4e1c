/** A volume as the account lists it, and as a resource's outputs record it. */
import { pickInputs } from "../../dynamic/checkArgs";
import { ProviderContext } from "../../dynamic/context";
import { VolumeRecord } from "../../schemas/volume";
import { VolumeKind } from "../../client/api/volumes";
import { sharedListing } from "../batchedReads";
import { retryIfMissing } from "../retryIfMissing";
import { VOLUME_PROPERTIES, VolumeInputs, VolumeOutputs, generatedNameOf } from "./volumeArgs";

/** The inputs among a resource's state or arguments. */
export const inputsOf = (props: object) =>
    ({ ...pickInputs(props as Record<string, any>, VOLUME_PROPERTIES), ...generatedNameOf(props as Record<string, unknown>) }) as unknown as VolumeInputs;

/** Plain JSON for the host: keys whose value is undefined or null go. */
function definedOnly<T extends object>(value: T): T {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null)) as T;
}

/** Outputs: the inputs, and what the listing says of the volume. */
export function outputsOf(inputs: VolumeInputs, record: VolumeRecord, rental: Partial<VolumeOutputs>): VolumeOutputs {
    return definedOnly({
        ...inputs,
        ...rental,
        volumeId: record.id,
        machineId: record.machine_id ?? rental.machineId,
        clusterId: record.cluster_id ?? rental.clusterId,
        status: record.status ?? undefined,
        geolocation: record.geolocation ?? rental.geolocation,
    }) as VolumeOutputs;
}

/** What a state holds of the rental that no listing reports again. */
export function rentalIn(props: Partial<VolumeOutputs>): Partial<VolumeOutputs> {
    return definedOnly({ rentedOfferId: props.rentedOfferId, storageCostPerGbMonth: props.storageCostPerGbMonth, machineId: props.machineId, clusterId: props.clusterId, geolocation: props.geolocation });
}

/** Volume reads in this process share the account's volume listing, one per kind. */
const sharedVolumeReaders = { local: sharedListing((vast) => vast.volumes.list("local")), network: sharedListing((vast) => vast.volumes.list("network")) };

/** The volume as the account lists it, or undefined only when left out of three listings a moment apart (retryIfMissing.ts). */
export async function listedUnlessRemoved(ctx: ProviderContext, volumeId: number, kind: VolumeKind): Promise<VolumeRecord | undefined> {
    const look = () => sharedVolumeReaders[kind](ctx.client()).get(volumeId);
    return retryIfMissing(ctx.clock, await look(), look);
}

/** The ids of the instances a listing says use the volume. */
export function usedBy(record: VolumeRecord): number[] {
    return (record.instances ?? []).map((i) => (typeof i === "number" ? i : i.id));
}
