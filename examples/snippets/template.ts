import * as vast from "pulumi-vastai";

const trainer = new vast.Template("trainer", {
    name: "trainer",
    image: "pytorch/pytorch",
    tag: "2.3.0-cuda12.1-cudnn8-runtime",
    env: { HF_HOME: "/workspace/hf", "-p 8888:8888": "1" }, // or "-e HF_HOME=/workspace/hf -p 8888:8888"
    runtype: "ssh",
    recommendedDiskSpace: 40,
});
export const hashId = trainer.hashId; // new after every edit; instances reference it
