import * as vast from "pulumi-vastai";

export = async () => {
    const machines = await vast.getMachines(); // userId defaults to the key's own account
    const bigGpus = machines.filter((m) => m.online && (m.gpuRamGib ?? 0) >= 48);
    return { bigGpus: bigGpus.map((m) => ({ id: m.machineId, gpus: `${m.numGpus} × ${m.gpuName}` })) };
};
