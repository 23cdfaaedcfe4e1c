/** An SshKey read by its id alone, as `pulumi import` reads it (docs/design/import.md): everything a create records is listed. */
import { ProviderContext } from "../../dynamic/context";
import { Importer, importedId, notOnAccount } from "../importing";
import { accountOnceMade, keyAccount } from "../sameAccount";
import { listedUnlessRemoved, outputsOf } from "./sshKeyRecords";

const ID_IS = "the key's numeric id on the account; `vastai show ssh-keys` lists them";

export const sshKeyImporter = (ctx: ProviderContext): Importer => ({
    async read(id) {
        const sshKeyId = importedId("SshKey", id, ID_IS);
        const account = keyAccount(ctx);
        const record = await listedUnlessRemoved(ctx, sshKeyId, undefined);
        if (!record) throw notOnAccount("SshKey", sshKeyId, "SSH key", ID_IS);
        const inputs = { publicKey: record.public_key.trim() };
        const props = outputsOf(inputs.publicKey, sshKeyId, record.user_id ?? (await accountOnceMade(ctx, account)));
        return { id: String(sshKeyId), props: { ...props }, inputs, taken: [] };
    },
});
