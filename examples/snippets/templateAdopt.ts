import * as vast from "pulumi-vastai";

// Takes over template 30005, made in the console: no create, one edit only where the program differs.
const trainer = new vast.Template("trainer", {
    adopt: 30005,
    name: "trainer",
    image: "pytorch/pytorch",
    tag: "2.3.0-cuda12.1-cudnn8-runtime",
    runtype: "ssh",
    recommendedDiskSpace: 64,
});
export const hashId = trainer.hashId;
