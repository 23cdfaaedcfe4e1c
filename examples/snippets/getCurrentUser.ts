import * as vast from "pulumi-vastai";

export = async () => {
    const me = await vast.getCurrentUser(); // { id, email, credit, ssh_key }
    return { accountId: me.id, credit: me.credit };
};
