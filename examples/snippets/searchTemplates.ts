import * as vast from "pulumi-vastai";

export = async () => {
    const me = await vast.getCurrentUser();
    // The builder, or the object { creator_id: { eq: me.id }, recommended_disk_space: { gte: 16 } }.
    const mine = await vast.searchTemplates(vast.templateFilters().where("creator_id").eq(me.id).where("recommended_disk_space").gte(16));
    return { mine: mine.map((t) => ({ name: t.name, hashId: t.hash_id })) };
};
