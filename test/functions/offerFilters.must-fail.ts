/**
 * Must NOT type-check. `templateFilters.compile.test.ts` compiles this file with the project's
 * own compiler options and expects exactly the errors marked `// error TSnnnn` on the line
 * above each one, and no others: the well-typed lines around them prove that what fails, fails
 * for the marked reason. Excluded from `tsc -p .` (tsconfig: `test/**\/*.must-fail.ts`).
 */
import { InstanceArgs, OfferFilters, OfferSearch, TemplateArgs, searchOffers } from "../../provider";

// The same shapes with values of the right type compile.
export const literalOk: OfferFilters = { gpu_name: { in: ["RTX 4090"] }, num_gpus: { gte: 2 }, gpu_ram: { gte: 24000 }, verified: { eq: true } };
export const searchOk: OfferSearch = { filters: { dph_total: { lte: 0.5 } }, order: [["dph_total", "asc"]], limit: 5, type: "bid", defaults: false };

// error TS2561: a field offers cannot be filtered on, close to one they can (GPU RAM is `gpu_ram`, in MB)
export const unknownField: OfferFilters = { gpu_ram_gb: { gte: 24 } };
// error TS2353: a field offers cannot be filtered on (the price is `dph_total`)
export const unknownFieldFarOff: OfferFilters = { price: { lt: 1 } };
// error TS2322: a string on the numeric field `gpu_ram`
export const stringOnNumber: OfferFilters = { gpu_ram: { gte: "24GB" } };
// error TS2322: a number on the string field `gpu_name`
export const numberOnString: OfferFilters = { gpu_name: { eq: 4090 } };
// error TS2322: a string on the bool field `verified`
export const stringOnBool: OfferFilters = { verified: { eq: "yes" } };
// error TS2322: `in` takes an array, not one value
export const scalarIn: OfferFilters = { gpu_name: { in: "RTX 4090" } };
// error TS2353: an operator the service does not have
export const unknownOperator: OfferFilters = { dph_total: { below: 1 } };
// error TS2322: an order on a field offers do not have
export const unknownOrder: OfferSearch = { order: [["price", "asc"]] };
// error TS2322: a rental type the service does not have
export const unknownType: OfferSearch = { type: "spot" };
// error TS2322: a wrongly typed filter handed straight to the search
export const searched = searchOffers({ filters: { num_gpus: { gte: "2" } } });

// An Instance's `offer` is the same search, with its price ceiling.
export const instanceOk: InstanceArgs = { offer: { filters: { gpu_name: { eq: "RTX 4090" } }, order: [["dph_total", "asc"]], maxPricePerHour: 1 }, image: "busybox" };
// error TS2353: an Instance's search on a field offers do not have
export const instanceUnknownField: InstanceArgs = { offer: { filters: { gpu_nam: { eq: "RTX 4090" } } }, image: "busybox" };
// error TS2322: an Instance's search with a string on the numeric field `gpu_ram`
export const instanceStringOnNumber: InstanceArgs = { offer: { filters: { gpu_ram: { gte: "24GB" } } }, image: "busybox" };

// A Template's `extraFilters` are the same conditions on offer fields (one schema, one type).
export const templateOk: TemplateArgs = { name: "t", image: "busybox", extraFilters: { gpu_ram: { gte: 24000 }, gpu_name: { in: ["RTX 4090"] }, verified: { eq: true } } };
// error TS2353: a Template's machine search filters on a field offers do not have
export const templateUnknownField: TemplateArgs = { name: "t", image: "busybox", extraFilters: { gpu_rma: { gte: 24000 } } };
// error TS2322: a Template's filter with a string on the numeric field `gpu_ram`
export const templateStringOnNumber: TemplateArgs = { name: "t", image: "busybox", extraFilters: { gpu_ram: { gte: "24GB" } } };
// error TS2353: a Template's filter with an operator the service does not have
export const templateUnknownOperator: TemplateArgs = { name: "t", image: "busybox", extraFilters: { gpu_ram: { gtee: 24000 } } };
