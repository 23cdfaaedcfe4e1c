/** A WorkerGroup read by its id alone, as `pulumi import` reads it (docs/design/import.md): no create call. */
import { ProviderContext } from "../../dynamic/context";
import { Importer, importedId, notOnAccount } from "../importing";
import { WORKER_GROUP_DEFAULTS, WorkerGroupProperty } from "./workerGroupArgs";
import { inputsFromRecord, listedUnlessRemoved, outputsOf, workersNow } from "./workerGroupRecords";
import { keyOfRecord } from "./workerGroupWire";

const ID_IS = "the worker group's numeric id; `vastai show workergroups` lists them";

/** What the listing does not show as a program writes it: the search (listed parsed, in other units) and `maxWorkers` (not listed). */
const TAKEN: readonly WorkerGroupProperty[] = ["offer", "vendorDefaults", "maxWorkers"];

export const workerGroupImporter = (ctx: ProviderContext): Importer => ({
    async read(id, where) {
        const workerGroupId = importedId("WorkerGroup", id, ID_IS);
        const record = await listedUnlessRemoved(ctx, workerGroupId);
        if (!record) throw notOnAccount("WorkerGroup", workerGroupId, "worker group", ID_IS);
        const inputs = inputsFromRecord(record, { ...WORKER_GROUP_DEFAULTS, createSlot: where.createSlot });
        const outputs = outputsOf(inputs, workerGroupId, await workersNow(ctx.client(), workerGroupId, keyOfRecord(record)));
        return { id: String(workerGroupId), props: { ...outputs }, inputs: { ...inputs }, taken: TAKEN };
    },
});
