/**
 * Must NOT type-check. `templateFilters.compile.test.ts` compiles this file with the project's
 * own compiler options and expects exactly the errors marked `// error TSnnnn` on the line
 * above each one, and no others: the well-typed lines around them prove that what fails, fails
 * for the marked reason. Excluded from `tsc -p .` (tsconfig: `test/**\/*.must-fail.ts`).
 */
import { TemplateFilters, searchTemplates, templateFilters } from "../../provider";

// The same shapes with values of the right type compile.
export const literalOk: TemplateFilters = { id: { eq: 7 }, recommended_disk_space: { gte: 16.5 }, name: { in: ["a"] }, use_ssh: { eq: true } };
export const builtOk = templateFilters().where("id").eq(7).where("recommended_disk_space").gte(16.5).where("name").in(["a"]).build();

// error TS2322: a string on the int field `id`, in a filter object
export const stringOnInt: TemplateFilters = { id: { eq: "7" } };
// error TS2322: a string on the float field `recommended_disk_space`, in a filter object
export const stringOnFloat: TemplateFilters = { recommended_disk_space: { gte: "16" } };
// error TS2345: a string on a numeric field, through the builder
export const builtStringOnInt = templateFilters().where("creator_id").eq("12345");
// error TS2322: a string in the array of `in` on a numeric field
export const stringInIntList: TemplateFilters = { count_created: { in: [1, "2"] } };
// error TS2345: a number on a string field, through the builder
export const builtNumberOnString = templateFilters().where("name").eq(7);
// error TS2345: a string on a bool field, through the builder
export const builtStringOnBool = templateFilters().where("recommended").eq("true");
// error TS2322: `in` takes an array, not one value
export const scalarIn: TemplateFilters = { tag: { in: "latest" } };
// error TS2353: an operator the contract does not have
export const unknownOperator: TemplateFilters = { id: { like: 7 } };
// error TS2345: a field that cannot be filtered on
export const unknownField = templateFilters().where("price");
// error TS2322: a wrongly typed filter object handed straight to the search
export const searched = searchTemplates({ created_at: { lt: "yesterday" } });
