/** The WorkerGroup resource's provider: check, diff, create, read, update and delete, each short; create and delete in their own files. */
import type * as pulumi from "@pulumi/pulumi";
import { checkArgs, computedRefusals } from "../../dynamic/checkArgs";
import { CheckFailure } from "../../dynamic/checkFailures";
import { ProviderContext } from "../../dynamic/context";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import { goneResult, readResult } from "../../dynamic/readResult";
import { containsUnknown, isUnknown } from "../../dynamic/unknowns";
import { toEnvMap } from "../../schemas/envFlags";
import { canonicalInputs } from "../canonicalInputs";
import { nextGeneration } from "../resourceSlot";
import {
    WORKER_GROUP_COMPUTED,
    WORKER_GROUP_DEFAULTS,
    WORKER_GROUP_PROPERTIES,
    WORKER_GROUP_REPLACE_PROPERTIES,
    WorkerGroupInputs,
    WorkerGroupOutputs,
    workerGroupArgsSchema,
} from "./workerGroupArgs";
import { inputsFromRecord, inputsOf, listedUnlessRemoved, outputsOf, workersNow } from "./workerGroupRecords";
import { WORKER_GROUP_KEY_ENV, createKeyOf, keyOfRecord, onstartProblem, queryValueProblem, settingsOf } from "./workerGroupWire";
import { createWorkerGroup } from "./createWorkerGroup";
import { deleteWorkerGroup } from "./deleteWorkerGroup";

type Props = Record<string, any>;

/** What the schema cannot see: values the service's two strings cannot carry, and the provider's own env name. */
function unwritable(args: Props): CheckFailure[] {
    const failures: CheckFailure[] = [];
    const filters = isUnknown(args.offer) ? undefined : (args.offer?.filters as Record<string, Record<string, unknown>> | undefined);
    for (const [field, condition] of Object.entries(filters && !isUnknown(filters) ? filters : {})) {
        for (const [op, value] of Object.entries(condition ?? {})) {
            for (const v of Array.isArray(value) ? value : [value]) {
                const problem = isUnknown(v) ? undefined : queryValueProblem(v);
                if (problem) failures.push({ property: `offer.filters.${field}.${op}`, reason: problem });
            }
        }
    }
    const launch = isUnknown(args.launch) ? undefined : args.launch;
    const onstart = launch?.onstart;
    if (!isUnknown(onstart) && onstartProblem(onstart)) failures.push({ property: "launch", reason: `launch.onstart ${onstartProblem(onstart)}` });
    const env = launch?.env;
    if (env !== undefined && !containsUnknown(env) && WORKER_GROUP_KEY_ENV in toEnvMap(env)) {
        failures.push({ property: "launch", reason: `launch.env: ${WORKER_GROUP_KEY_ENV} is the provider's own (it carries the create key)` });
    }
    return failures;
}

/** Inputs as create and update work from them: defaults in, `launch.env` the canonical map, an empty launch left out. */
function canonical(args: Props): WorkerGroupInputs {
    const inputs = canonicalInputs(args, WORKER_GROUP_PROPERTIES, WORKER_GROUP_DEFAULTS) as Props;
    const launch = inputs.launch;
    if (launch !== undefined && !isUnknown(launch)) {
        const { env, ...rest } = launch;
        const envMap = env === undefined || containsUnknown(env) ? env : toEnvMap(env);
        const given = { ...rest, ...(envMap !== undefined && (containsUnknown(envMap) || Object.keys(envMap).length > 0) ? { env: envMap } : {}) };
        inputs.launch = Object.keys(given).length > 0 ? given : undefined;
        if (inputs.launch === undefined) delete inputs.launch;
    }
    return inputs as WorkerGroupInputs;
}

export const workerGroupProvider = (ctx: ProviderContext) => ({
    async check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<WorkerGroupInputs>> {
        const { createSlot, createGeneration: _g, ...given } = news;
        const { args, failures } = checkArgs(given, workerGroupArgsSchema, WORKER_GROUP_PROPERTIES, computedRefusals(WORKER_GROUP_COMPUTED));
        if (failures.length === 0) failures.push(...unwritable(args));
        if (failures.length > 0) return { inputs: news as WorkerGroupInputs, failures };
        const key = typeof createSlot === "string" ? { createSlot, createGeneration: nextGeneration(olds, Object.keys(olds).length > 0) } : {};
        return { inputs: { ...canonical(args), ...key } };
    },

    /** Everything changes in place but the endpoint. */
    async diff(_id: string, olds: WorkerGroupOutputs, news: WorkerGroupInputs) {
        const changed = changedProperties(olds, news, WORKER_GROUP_PROPERTIES);
        const replaces = changed.filter((p) => (WORKER_GROUP_REPLACE_PROPERTIES as readonly string[]).includes(p));
        return { changes: changed.length > 0 || shimChanged(olds, news), replaces, deleteBeforeReplace: false, diffs: changed };
    },

    /** One PUT with every setting; the group keeps the create key it was made with. */
    async update(id: string, olds: WorkerGroupOutputs, news: WorkerGroupInputs) {
        const workerGroupId = Number(olds.workerGroupId ?? id);
        const held = { ...news, createSlot: olds.createSlot, createGeneration: olds.createGeneration };
        if (held.createSlot === undefined) delete held.createSlot;
        if (held.createGeneration === undefined) delete held.createGeneration;
        const vast = ctx.client();
        await vast.serverless.updateWorkerGroup(workerGroupId, settingsOf(held));
        ctx.log.progress(`worker group ${workerGroupId} updated`);
        return { outs: outputsOf(held, workerGroupId, await workersNow(vast, workerGroupId, createKeyOf(held))) };
    },

    async create(inputs: WorkerGroupInputs) {
        return createWorkerGroup(ctx, inputs);
    },

    /** The group as the account lists it now, and its workers; gone only when three listings leave it out. */
    async read(id: string, props: Partial<WorkerGroupOutputs> = {}) {
        const workerGroupId = Number(props.workerGroupId ?? id);
        const record = await listedUnlessRemoved(ctx, workerGroupId);
        if (!record) return goneResult<WorkerGroupOutputs>();
        const inputs = inputsFromRecord(record, inputsOf(props));
        return readResult(String(workerGroupId), outputsOf(inputs, workerGroupId, await workersNow(ctx.client(), workerGroupId, keyOfRecord(record))), inputs);
    },

    async delete(id: string, props: WorkerGroupOutputs) {
        return deleteWorkerGroup(ctx, id, props);
    },
}) satisfies pulumi.dynamic.ResourceProvider<WorkerGroupInputs, WorkerGroupOutputs>;
