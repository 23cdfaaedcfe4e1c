import * as pulumi from "@pulumi/pulumi";
import * as vast from "pulumi-vastai";

export interface QuickstartSettings {
    imageTag: string;
    /** The offer (ask) to accept; find one with `vastai search offers` or the console. */
    offerId: number;
}

/**
 * A training template and a GPU instance started from it. Every edit of the template gives it a
 * new `hashId`; the instance references that hash, so it is replaced to follow the template.
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
    const gpu = new vast.Instance("gpu", {
        offerId: settings.offerId,
        templateHashId: trainer.hashId,
        env: { WANDB_MODE: "offline" },
        disk: 64,
        label: "quickstart",
        readyTimeoutSeconds: 1200,
    });
    const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
    return { resources: { trainer, gpu }, ssh };
}
