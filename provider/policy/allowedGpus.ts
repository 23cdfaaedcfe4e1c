import { StackValidationPolicy } from "@pulumi/policy";
import { allowedValues, upperBound } from "./conditions";
import { UNKNOWN, isGiven, machineNotKnownYet, named, reportUnchecked, resourcesOf, valueAt } from "./props";

export interface AllowedGpusConfig {
    gpuNames?: string[];
    maxGpusPerInstance?: number;
    maxDiskGbPerInstance?: number;
}

/** `RTX_4090`, `rtx 4090` and `RTX 4090` alike, as the marketplace's own spellings vary. */
const sameModel = (a: string, b: string) => a.replace(/[_\s]+/g, " ").trim().toLowerCase() === b.replace(/[_\s]+/g, " ").trim().toLowerCase();

/**
 * Instances rent only the GPU models allowed, at most so many GPUs and so much disk each. A rented
 * instance is judged by what its machine has (`gpuName`, `numGpus`); one not rented yet by its
 * search's `gpu_name` and `num_gpus` conditions, which must bound what can be rented; one on a
 * given `offerId` once it is rented (until then it is reported unchecked).
 */
export const allowedGpus: StackValidationPolicy = {
    name: "vastai-allowed-gpus",
    description: "Instances rent only the allowed GPU models, at most the configured number of GPUs and GB of disk each.",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            gpuNames: { type: "array", items: { type: "string" }, description: 'The GPU models instances may rent, as the marketplace names them ("RTX 4090", "H100 SXM"). Unset: any model.' },
            maxGpusPerInstance: { type: "integer", minimum: 1, description: "The most GPUs one instance may rent. Unset: any number." },
            maxDiskGbPerInstance: {
                type: "number",
                exclusiveMinimum: 0,
                description: "The most disk one instance may have, in GB; each instance must then give disk, as its template's recommended disk is not seen. Unset: any size.",
            },
        },
    },
    validateStack: (args, reportViolation) => {
        const { gpuNames, maxGpusPerInstance, maxDiskGbPerInstance } = args.getConfig<AllowedGpusConfig>();
        const unchecked = (urn: string, message: string) => reportUnchecked(reportViolation, allowedGpus.name, message, urn);
        for (const r of resourcesOf(args.resources, "instance")) {
            const who = named("instance", r.name);
            const rentedModel = valueAt(r.props, "gpuName");
            const rentedCount = valueAt(r.props, "numGpus");
            const search = isGiven(r.props, "offer");
            if (gpuNames !== undefined) {
                if (typeof rentedModel === "string") {
                    if (!gpuNames.some((m) => sameModel(m, rentedModel))) {
                        reportViolation(`${who} runs on ${rentedModel} (gpuName), which is not among the allowed models: ${gpuNames.join(", ")}`, r.urn);
                    }
                } else if (search === true) {
                    const models = allowedValues<string>(valueAt(r.props, "offer", "filters", "gpu_name"));
                    if (models === UNKNOWN) unchecked(r.urn, `${who}'s offer.filters.gpu_name is not known yet`);
                    else if (models === "any") reportViolation(`${who}'s offer search allows any GPU model (offer.filters.gpu_name has no eq or in); allowed: ${gpuNames.join(", ")}`, r.urn);
                    else {
                        const others = models.values.filter((m) => !gpuNames.some((allowed) => sameModel(allowed, m)));
                        if (others.length > 0) reportViolation(`${who}'s offer.filters.gpu_name allows ${others.join(", ")}, not among the allowed models: ${gpuNames.join(", ")}`, r.urn);
                    }
                } else {
                    unchecked(r.urn, `${who}'s GPU model: ${machineNotKnownYet("instance", r.props)}`);
                }
            }
            if (maxGpusPerInstance !== undefined) {
                if (typeof rentedCount === "number") {
                    if (rentedCount > maxGpusPerInstance) reportViolation(`${who} rents ${rentedCount} GPUs (numGpus), above the limit ${maxGpusPerInstance} (maxGpusPerInstance)`, r.urn);
                } else if (search === true) {
                    const most = upperBound(valueAt(r.props, "offer", "filters", "num_gpus"));
                    if (most === UNKNOWN) unchecked(r.urn, `${who}'s offer.filters.num_gpus is not known yet`);
                    else if (most === "any") reportViolation(`${who}'s offer search allows any number of GPUs (offer.filters.num_gpus has no eq, in, lte or lt); the limit is ${maxGpusPerInstance} (maxGpusPerInstance)`, r.urn);
                    else if (most > maxGpusPerInstance) reportViolation(`${who}'s offer.filters.num_gpus allows ${most} GPUs, above the limit ${maxGpusPerInstance} (maxGpusPerInstance)`, r.urn);
                } else {
                    unchecked(r.urn, `${who}'s GPU count: ${machineNotKnownYet("instance", r.props)}`);
                }
            }
            if (maxDiskGbPerInstance !== undefined) {
                const disk = valueAt(r.props, "disk");
                if (disk === UNKNOWN) unchecked(r.urn, `${who}'s disk is not known yet`);
                else if (typeof disk !== "number") reportViolation(`${who} gives no disk, so its template's recommended disk applies, which this policy cannot see; set disk (GB), at most ${maxDiskGbPerInstance} (maxDiskGbPerInstance)`, r.urn);
                else if (disk > maxDiskGbPerInstance) reportViolation(`${who}: disk is ${disk} GB, above the limit ${maxDiskGbPerInstance} GB (maxDiskGbPerInstance)`, r.urn);
            }
        }
    },
};
