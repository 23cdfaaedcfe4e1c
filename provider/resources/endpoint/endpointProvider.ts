/** The Endpoint resource's provider: check, diff, create, read, update and delete, each short; create and delete in their own files. */
import type * as pulumi from "@pulumi/pulumi";
import { checkArgs, computedRefusals } from "../../dynamic/checkArgs";
import { CheckFailure } from "../../dynamic/checkFailures";
import { ProviderContext } from "../../dynamic/context";
import { changedProperties, shimChanged } from "../../dynamic/diffInputs";
import { goneResult, readResult } from "../../dynamic/readResult";
import { isUnknown } from "../../dynamic/unknowns";
import { ENDPOINT_COMPUTED, ENDPOINT_DEFAULTS, ENDPOINT_PROPERTIES, EndpointInputs, EndpointOutputs, EndpointProperty, KEPT_WHEN_LEFT_OUT, endpointArgsSchema } from "./endpointArgs";
import { inputsOf, inputsOfRecord, outputsOf, settingsOf, shownUnlessGone } from "./endpointRecords";
import { createEndpoint } from "./createEndpoint";
import { deleteEndpoint } from "./deleteEndpoint";

type Props = Record<string, any>;

/** What the service also refuses, told at check: a cap below its floor, a target above its limit. */
function limitsCrossed(args: Props): CheckFailure[] {
    const known = (v: unknown): v is number => typeof v === "number" && !isUnknown(v);
    const failures: CheckFailure[] = [];
    if (known(args.coldWorkers) && known(args.maxWorkers) && args.coldWorkers > args.maxWorkers) {
        failures.push({ property: "coldWorkers", reason: `coldWorkers (${args.coldWorkers}) must be at most maxWorkers (${args.maxWorkers})` });
    }
    if (known(args.targetQueueTime) && known(args.maxQueueTime) && args.targetQueueTime > args.maxQueueTime) {
        failures.push({ property: "targetQueueTime", reason: `targetQueueTime (${args.targetQueueTime} s) must be at most maxQueueTime (${args.maxQueueTime} s)` });
    }
    return failures;
}

/**
 * The Endpoint resource's implementation, run inside Pulumi's dynamic-provider host (or the
 * provider plugin), given the provider process's context.
 */
export const endpointProvider = (ctx: ProviderContext) => ({
    async check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult<EndpointInputs>> {
        const { args, failures } = checkArgs(news, endpointArgsSchema, ENDPOINT_PROPERTIES, computedRefusals(ENDPOINT_COMPUTED));
        if (failures.length === 0) failures.push(...limitsCrossed({ ...ENDPOINT_DEFAULTS, ...args }));
        if (failures.length > 0) return { inputs: news as EndpointInputs, failures };
        return { inputs: inputsOf({ ...ENDPOINT_DEFAULTS, ...args }) };
    },

    /** Every property changes in place; one the program leaves to the service (a queue time) is no change. */
    async diff(_id: string, olds: EndpointOutputs, news: EndpointInputs) {
        const changed = changedProperties(olds, news, ENDPOINT_PROPERTIES).filter((p) => !(KEPT_WHEN_LEFT_OUT.includes(p as EndpointProperty) && news[p as EndpointProperty] === undefined));
        return { changes: changed.length > 0 || shimChanged(olds, news), replaces: [], deleteBeforeReplace: false, diffs: changed };
    },

    /** The full settings sent (a PUT), then read back for the outputs. */
    async update(id: string, olds: EndpointOutputs, news: EndpointInputs) {
        const endpointId = Number(olds.endpointId ?? id);
        const vast = ctx.client();
        await vast.serverless.updateEndpoint(endpointId, settingsOf(news));
        const record = await vast.serverless.showEndpoint(endpointId).catch(() => undefined);
        ctx.log.progress(`endpoint ${endpointId} (${news.name}) updated`);
        return { outs: outputsOf(news, endpointId, record, olds) };
    },

    async create(inputs: EndpointInputs) {
        return createEndpoint(ctx, inputs);
    },

    /** The endpoint as the service shows it now; gone only in the service's own words, to the key of its account. */
    async read(id: string, props: Partial<EndpointOutputs> = {}) {
        const endpointId = Number(props.endpointId ?? id);
        const record = await shownUnlessGone(ctx, endpointId, props.accountId);
        if (!record) return goneResult<EndpointOutputs>();
        const inputs = inputsOfRecord(record, props);
        return readResult(String(endpointId), outputsOf(inputs, endpointId, record, props), inputs);
    },

    async delete(id: string, props: EndpointOutputs) {
        return deleteEndpoint(ctx, id, props);
    },
}) satisfies pulumi.dynamic.ResourceProvider<EndpointInputs, EndpointOutputs>;
