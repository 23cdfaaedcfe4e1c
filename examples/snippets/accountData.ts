import * as vast from "pulumi-vastai";

// A CommonJS program awaits inside the function it exports; Pulumi runs it and exports what it returns.
export = async () => {
    const me = await vast.getCurrentUser();                  // { id, email, credit, ssh_key }
    const machines = await vast.getMachines();               // default userId: the key's own account
    const bigGpus = machines.filter((m) => m.online && (m.gpuRamGib ?? 0) >= 48);
    const mine = await vast.searchTemplates(
        vast.templateFilters().where("creator_id").eq(me.id).where("recommended_disk_space").gte(16),
    );
    return { bigGpus: bigGpus.map((m) => m.machineId), mine: mine.map((t) => t.hash_id) };
};
