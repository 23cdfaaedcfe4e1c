/** An Endpoint read by its id alone, as `pulumi import` reads it (docs/design/import.md): the service shows every setting. */
import { ProviderContext } from "../../dynamic/context";
import { Importer, importedId, notOnAccount } from "../importing";
import { inputsOfRecord, outputsOf, shownUnlessGone } from "./endpointRecords";

const ID_IS = "the endpoint's numeric id; `vastai show endpoints` lists them";

export const endpointImporter = (ctx: ProviderContext): Importer => ({
    async read(id) {
        const endpointId = importedId("Endpoint", id, ID_IS);
        const record = await shownUnlessGone(ctx, endpointId, undefined);
        if (!record) throw notOnAccount("Endpoint", endpointId, "endpoint", ID_IS);
        const inputs = inputsOfRecord(record, {});
        return { id: String(endpointId), props: { ...outputsOf(inputs, endpointId, record) }, inputs: { ...inputs }, taken: [] };
    },
});
