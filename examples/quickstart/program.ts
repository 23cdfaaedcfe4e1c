import * as vast from "pulumi-vastai";

export interface QuickstartSettings {
    imageTag: string;
}

/**
 * A training template. Every edit in place gives it a new `hashId`; instances started from it
 * reference that hash, so they follow the template.
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
    return { trainer };
}
