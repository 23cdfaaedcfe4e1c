import * as pulumi from "@pulumi/pulumi";
import * as vast from "pulumi-vastai";

export interface QuickstartSettings {
    imageTag: string;
    /**
     * Your public key (the text of `~/.ssh/id_ed25519.pub`): registered before the instance starts.
     * Leave it out when the account holds it already: the service puts the account's keys on every
     * instance, and an SshKey of a text the account holds fails (it would remove the key on destroy).
     */
    sshPublicKey?: string;
    /** The most the GPU may cost, USD/hour. */
    maxPricePerHour?: number;
}

/**
 * A training template, an SSH key, a dataset volume and a GPU instance rented by need that mounts
 * it: the volume on the cheapest verified storage under a ceiling, the instance the cheapest
 * verified RTX 4090 or 3090 with at least 20 GB and a reliable host on the volume's machine, under
 * a price ceiling. Offer ids are short-lived, so the program names what it needs, not an offer.
 * Every edit of the template gives it a new `hashId`; the instance references that hash, so it is
 * replaced to follow the template, and the volume, with the datasets, stays.
 */
export function quickstart(settings: QuickstartSettings) {
    const trainer = new vast.Template("trainer", {
        name: "quickstart-trainer",
        image: "pytorch/pytorch",
        tag: settings.imageTag,
        env: { HF_HOME: "/workspace/hf", "-p 8888:8888": "1" },
        runtype: "ssh",
        sshDirect: true,
        recommendedDiskSpace: 40,
        onstart: "pip install -q transformers datasets",
    });
    // The key goes on the account before the instance starts, so the instance has it from the first boot.
    const laptop = settings.sshPublicKey ? new vast.SshKey("laptop", { publicKey: settings.sshPublicKey }) : undefined;
    // Datasets that outlive the instance: 50 GB at most $0.10 per GB-month.
    const datasets = new vast.Volume("datasets", { offer: { maxPricePerGbMonth: 0.1 }, sizeGb: 50 });
    const gpu = new vast.Instance(
        "gpu",
        {
            offer: {
                filters: { gpu_name: { in: ["RTX 4090", "RTX 3090"] }, gpu_ram: { gte: 20_000 }, reliability: { gte: 0.98 } },
                order: [["dph_total", "asc"]],
                maxPricePerHour: settings.maxPricePerHour ?? 0.5,
            },
            templateHashId: trainer.hashId,
            env: { WANDB_MODE: "offline" },
            disk: 64,
            label: "quickstart",
            volumes: [{ volume: datasets.id, mountPath: "/data" }],
            readyTimeoutSeconds: 1200,
        },
        { dependsOn: laptop ? [laptop] : [] },
    );
    const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
    return { resources: { trainer, ...(laptop ? { laptop } : {}), datasets, gpu }, ssh };
}
