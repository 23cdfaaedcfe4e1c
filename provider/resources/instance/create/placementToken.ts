import { randomBytes } from "crypto";
import { VastClient } from "../../../client/vastClient";
import { InstanceCreateRequest, InstanceRecord } from "../../../schemas/instance";

// The placement token: a value unique to one create, carried in the instance's env, by which a
// create whose response was lost is found (docs/design/instance-create.md, "Lost responses").

/** The env variable that carries a create's token; every instance this provider made has it. */
export const PLACEMENT_ENV = "PULUMI_VASTAI_PLACEMENT";

/** A token no other create carries: `<offer>-<random>`. */
export function placementToken(offerId: number): string {
    return `${offerId}-${randomBytes(6).toString("hex")}`;
}

/**
 * `request` carrying a placement token in its env: a new one, or `kept` (the token an interrupted
 * create gave the instance taken over).
 */
export function withPlacementToken(request: InstanceCreateRequest, offerId: number, kept: string | undefined): InstanceCreateRequest {
    return { ...request, env: { ...request.env, [PLACEMENT_ENV]: kept ?? placementToken(offerId) } };
}

/** The token an instance record carries, when the record shows its env. */
function tokenOf(record: InstanceRecord): string | undefined {
    return record.extra_env?.find(([key]) => key === PLACEMENT_ENV)?.[1];
}

/**
 * The instances a create with this label and token made, oldest first. Matched here, not only by
 * the list's filter: a list that ignored its filter must not make others' instances ours. A record
 * that does not show its env is read on its own.
 */
export async function instancesPlacedBy(vast: VastClient, label: string | undefined, token: string): Promise<number[]> {
    const wanted = label || undefined; // no label and an empty one read back alike
    const listed = await vast.instances.listAll(wanted !== undefined ? { label: { eq: wanted } } : {});
    const sameLabel = listed.filter((i) => (i.label || undefined) === wanted);
    const placed: number[] = [];
    for (const listed of sameLabel) {
        const record = listed.extra_env ? listed : await vast.instances.show(listed.id);
        if (record && tokenOf(record) === token) placed.push(listed.id);
    }
    return placed.sort((a, b) => a - b);
}

