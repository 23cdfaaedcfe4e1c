import type * as pulumi from "@pulumi/pulumi";
import { ProviderContext } from "../../dynamic/context";
import { checkInstance } from "./check/checkInstance";
import { diffInstance } from "./check/diffInstance";
import { createInstance } from "./create/createInstance";
import { deleteInstance } from "./delete/deleteInstance";
import { InstanceInputs, InstanceOutputs } from "./instanceArgs";
import { readInstance } from "./read/readInstance";
import { updateInstance } from "./update/updateInstance";

/**
 * The Instance resource's implementation, run inside Pulumi's dynamic-provider host, given the
 * provider process's context: each method is one stage's story, in a folder of its own. A plain
 * object of functions, not a class: the runtime (runtime/index.ts) spreads it into the object
 * the serialized shim loads, which copies own properties only.
 */
export const instanceProvider = (ctx: ProviderContext) =>
    ({
        check: (olds: Record<string, any>, news: Record<string, any>) => checkInstance(ctx, olds, news),
        diff: (id: string, olds: InstanceOutputs, news: InstanceInputs) => diffInstance(ctx, id, olds, news),
        // An adoption ends as an update does.
        create: (inputs: InstanceInputs) => createInstance(ctx, inputs, (id, olds, news) => updateInstance(ctx, id, olds, news)),
        read: (id: string, props: Partial<InstanceOutputs> = {}) => readInstance(ctx, id, props),
        update: (id: string, olds: InstanceOutputs, news: InstanceInputs) => updateInstance(ctx, id, olds, news),
        delete: (id: string, props: InstanceOutputs) => deleteInstance(ctx, id, props),
    }) satisfies pulumi.dynamic.ResourceProvider<InstanceInputs, InstanceOutputs>;
