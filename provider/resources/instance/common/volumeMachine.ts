import { VastClient } from "../../../client/vastClient";
import { InstanceInputs } from "../instanceArgs";
import { ProviderError } from "../../../errors/providerError";

// Where an instance that mounts a local volume must run: on the volume's machine.

/**
 * The machine of the volume `desired` mounts (`volumes`), which the instance must run on;
 * undefined without one, or for a volume on no one machine. Throws, before anything is rented,
 * when the volume is not on the account or a pinned `offerId` is on another machine.
 */
export async function volumeMachine(vast: VastClient, desired: InstanceInputs): Promise<number | undefined> {
    const [mounted] = desired.volumes ?? [];
    if (mounted === undefined) return undefined;
    const volumeId = Number(mounted.volume);
    const record = (await vast.volumes.list("all")).find((v) => v.id === volumeId);
    if (!record) {
        throw new ProviderError("volume_unavailable", `vastai: create instance failed: volume ${volumeId} (volumes[0].volume) is not on the account: deleted, another account's, or a mistyped id. Nothing was rented`);
    }
    const machineId = record.machine_id ?? undefined;
    if (machineId === undefined || desired.offerId === undefined) return machineId;
    const [offer] = await vast.offers.search({ id: { eq: desired.offerId } });
    if (offer && offer.machine_id !== machineId) {
        throw new ProviderError(
            "volume_unavailable",
            `vastai: create instance failed: offer ${desired.offerId} is on machine ${offer.machine_id}, and volume ${volumeId} on machine ${machineId}: ` +
                "a local volume is mounted only on its own machine. Give an offer on that machine, or rent by `offer` (the search then keeps to it). Nothing was rented",
        );
    }
    return machineId;
}
