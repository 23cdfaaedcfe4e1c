/**
 * Must NOT type-check: compiled by `templateFilters.compile.test.ts` like every must-fail file,
 * which expects exactly the errors marked `// error TSnnnn` on the line above each. Each provider
 * is checked against Pulumi's `ResourceProvider` with its own inputs and outputs, so `diff`,
 * `update`, `read` and `delete` can read only what `create` writes.
 */
import type * as pulumi from "@pulumi/pulumi";
import { TemplateInputs, TemplateOutputs } from "../../provider/resources/template/templateArgs";

type TemplateProvider = pulumi.dynamic.ResourceProvider<TemplateInputs, TemplateOutputs>;

// A provider whose diff reads what create writes compiles.
export const reads = {
    async create(inputs: TemplateInputs) {
        return { id: "1", outs: { ...inputs, templateId: 1, hashId: "h" } };
    },
    async diff(_id: string, olds: TemplateOutputs, news: TemplateInputs) {
        return { changes: olds.hashId !== "" && olds.name !== news.name };
    },
} satisfies TemplateProvider;

export const readsMore = {
    ...reads,
    async diff(_id: string, olds: TemplateOutputs, _news: TemplateInputs) {
        // error TS2339: `revision` is an output no create writes
        return { changes: olds.revision !== undefined };
    },
} satisfies TemplateProvider;

export const writesLess = {
    // error TS2322: a create that leaves out `hashId`, which diff and update read
    create: async (inputs: TemplateInputs) => ({ id: "1", outs: { ...inputs, templateId: 1 } }),
} satisfies TemplateProvider;
