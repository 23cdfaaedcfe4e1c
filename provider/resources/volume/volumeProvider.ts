/** The Volume resource's provider: check, diff, create, read, update and delete, each short; create and delete in their own files. */
import { randomBytes } from "crypto";
import type * as pulumi from "@pulumi/pulumi";
import { checkArgs, computedRefusals } from "../../dynamic/checkArgs";
import { CheckFailure } from "../../dynamic/checkFailures";
import { ProviderContext } from "../../dynamic/context";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import { goneResult, readResult } from "../../dynamic/readResult";
import { VOLUME_COMPUTED, VOLUME_PROPERTIES, VolumeInputs, VolumeOutputs, generatedName, volumeArgsSchema } from "./volumeArgs";
import { nextGeneration } from "../resourceSlot";
import { inputsOf, listedUnlessRemoved, outputsOf, rentalIn } from "./volumeRecords";
import { createVolume } from "./createVolume";
import { VolumeKind } from "../../client/api/volumes";
import { deleteVolume } from "./deleteVolume";

type Props = Record<string, any>;

/** One of an offer id, an offer query or a volume to adopt; not two and not none. */
function offerGiven(args: Props): CheckFailure[] {
    const given = (["offerId", "offer", "adopt"] as const).filter((p) => args[p] !== undefined);
    if (given.length > 1) return [{ property: given[1], reason: `give one of offerId, offer and adopt, not ${given.join(" and ")}` }];
    if (given.length === 0) {
        return [{ property: "offerId", reason: "give offerId (a volume offer id, searchVolumeOffers lists them), offer (a query with maxPricePerGbMonth), or adopt (a volume on the account)" }];
    }
    return [];
}

/** The provider of a local volume (`Volume`) or a network volume (`NetworkVolume`): the same shape, other routes. */
export const volumeProvider = (ctx: ProviderContext, kind: VolumeKind = "local") => ({
    async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<VolumeInputs>> {
        const { createSlot, createGeneration: _g, nameGenerated: _n, ...given } = news;
        const { args, failures } = checkArgs(given, volumeArgsSchema, VOLUME_PROPERTIES, computedRefusals(VOLUME_COMPUTED));
        if (failures.length === 0) failures.push(...offerGiven(args));
        if (failures.length > 0) return { inputs: news as VolumeInputs, failures };
        // An adopted volume keeps the name it has (read at create); one given here is checked against it.
        if (args.name !== undefined || args.adopt !== undefined) return { inputs: inputsOf(args) };
        // No name given: one made from where the resource stands, by which the next `up` on any machine finds what a stopped one made.
        if (typeof createSlot === "string") {
            const createGeneration = nextGeneration(olds, Object.keys(olds).length > 0);
            return { inputs: inputsOf({ ...args, name: generatedName(createSlot, createGeneration), createSlot, createGeneration, nameGenerated: true }) };
        }
        return { inputs: inputsOf({ ...args, name: olds.name ?? `pulumi_${randomBytes(6).toString("hex")}` }) };
    },

    /** No call changes a volume: every change of what it was created with replaces it; the query changes nothing once created. */
    async diff(_id: string, olds: VolumeOutputs, news: VolumeInputs) {
        // A made name moves on with the generation: only a create uses it.
        const changed = changedProperties(olds, news, VOLUME_PROPERTIES).filter((p) => !(p === "name" && (news.nameGenerated || (news.adopt !== undefined && news.name === undefined))));
        const replaces = changed.filter((p) => p !== "offer" && !(p === "offerId" && news.offerId === olds.rentedOfferId));
        return { changes: changed.length > 0 || shimChanged(olds, news), replaces, deleteBeforeReplace: false, diffs: changed };
    },

    /** Reached for the query or a new shim: recorded, nothing sent. */
    async update(_id: string, olds: VolumeOutputs, news: VolumeInputs) {
        return { outs: { ...olds, ...inputsOf(news), ...(news.nameGenerated ? { name: olds.name } : {}) } as VolumeOutputs };
    },

    async create(inputs: VolumeInputs) {
        return createVolume(ctx, inputs, kind);
    },

    /** The volume as the account lists it now; gone only when three listings leave it out. */
    async read(id: string, props: Partial<VolumeOutputs> = {}) {
        const volumeId = Number(props.volumeId ?? id);
        const record = await listedUnlessRemoved(ctx, volumeId, kind);
        if (!record) return goneResult<VolumeOutputs>();
        const inputs = inputsOf({ ...props, name: record.label ?? props.name, sizeGb: record.disk_space != null ? Math.round(record.disk_space) : props.sizeGb });
        return readResult(String(volumeId), outputsOf(inputs, record, rentalIn(props)), inputs);
    },

    async delete(id: string, props: VolumeOutputs) {
        return deleteVolume(ctx, id, props, kind);
    },
}) satisfies pulumi.dynamic.ResourceProvider<VolumeInputs, VolumeOutputs>;
