/**
 * Must NOT type-check. `templateFilters.compile.test.ts` compiles this file with the project's
 * own compiler options and expects exactly the errors marked `// error TSnnnn` on the line
 * above each one, and no others. Excluded from `tsc -p .` (tsconfig: `test/**\/*.must-fail.ts`).
 */
import { Volume, VolumeOfferFilters, searchVolumeOffers } from "../../provider";

// Well-typed searches and volumes compile.
export const ok = searchVolumeOffers({ filters: { disk_space: { gte: 100 }, storage_cost: { lt: 0.2 }, geolocation: { eq: "US" } }, limit: 5 });
export const okVolume = new Volume("ok", { offer: { filters: { reliability: { gte: 0.98 } }, maxPricePerGbMonth: 0.1 }, sizeGb: 50 });

// error TS2353: a field volume offers do not have (an instance offer's)
export const unknownField = searchVolumeOffers({ filters: { gpu_name: { eq: "RTX 4090" } } });
// error TS2322: a string on the float field `disk_space`
export const stringOnFloat: VolumeOfferFilters = { disk_space: { gte: "100" } };
// error TS2322: a number on the string field `geolocation`
export const numberOnString: VolumeOfferFilters = { geolocation: { eq: 1 } };
// error TS2353: an unknown field in a Volume's offer query
export const unknownInVolume = new Volume("bad", { offer: { filters: { dph_total: { lt: 1 } } }, sizeGb: 50 });
