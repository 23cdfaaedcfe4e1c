/**
 * An ApiKey cannot be imported: the service shows a key's secret once, in the create's answer, and
 * an ApiKey's `key` output is what a program uses it for (docs/design/import.md). An import fails,
 * saying so for a key the account has, and as for any kind for an id it has none of.
 */
import { ProviderContext } from "../../dynamic/context";
import { Importer, importedId, notImportable, notOnAccount } from "../importing";
import { listedUnlessRevoked } from "./apiKeyRecords";

const ID_IS = "the key's numeric id; `vastai show api-keys` lists them";

export const apiKeyImporter = (ctx: ProviderContext): Importer => ({
    async read(id) {
        const keyId = importedId("ApiKey", id, ID_IS);
        const record = await listedUnlessRevoked(ctx, keyId, undefined);
        if (!record) throw notOnAccount("ApiKey", keyId, "API key", ID_IS);
        throw notImportable(
            "ApiKey",
            keyId,
            `the service shows an API key's secret only once, when it is created, so an imported ApiKey would have no \`key\` output ` +
                `(and the next \`pulumi up\` would replace it, as it does a key whose secret state lacks). ` +
                `Declare a new ApiKey and move its users to that key, then revoke key ${keyId} (\`vastai delete api-key ${keyId}\`); or leave this key out of the stack`,
        );
    },
});
