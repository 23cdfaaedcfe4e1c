import * as pulumi from "@pulumi/pulumi";
import { plainStep } from "./plainClient";

/**
 * The bare dynamic provider the benchmark compares with: the one call each step needs (the plain
 * client's, `plainStep`, made with Node's `http`), and nothing else: no client, schemas, pacing or
 * retries. Driven through the same Pulumi host as the provider, it is what Pulumi itself costs per
 * step; the provider's time over it is what the provider adds. The connection settings travel as
 * inputs (a benchmark's shortcut; the provider never puts a key in state).
 */
export interface BareInputs {
    kind: "template" | "instance";
    baseUrl: string;
    apiKey: string;
    /** Template: name, image, tag. Instance: offerId, image, label. */
    fields: Record<string, string | number>;
}

type BareOutputs = BareInputs & { hashId?: string };

export const bareProvider: pulumi.dynamic.ResourceProvider = {
    async create(inputs: BareInputs) {
        const r = { kind: inputs.kind, fields: inputs.fields } as { kind: BareInputs["kind"]; fields: BareInputs["fields"]; id?: string; hashId?: string };
        await plainStep(inputs.baseUrl, inputs.apiKey, "create", r);
        return { id: r.id!, outs: { ...inputs, ...(r.hashId ? { hashId: r.hashId } : {}) } };
    },
    async diff(_id: string, olds: BareOutputs, news: BareInputs) {
        return { changes: JSON.stringify(olds.fields) !== JSON.stringify(news.fields) };
    },
    async update(id: string, olds: BareOutputs, news: BareInputs) {
        const r = { kind: news.kind, fields: news.fields, id, hashId: olds.hashId };
        await plainStep(news.baseUrl, news.apiKey, "update", r);
        return { outs: { ...news, ...(r.hashId ? { hashId: r.hashId } : {}) } };
    },
    async read(id: string, props: BareOutputs) {
        await plainStep(props.baseUrl, props.apiKey, "refresh", { kind: props.kind, fields: props.fields, id });
        return { id, props };
    },
    async delete(id: string, props: BareOutputs) {
        await plainStep(props.baseUrl, props.apiKey, "delete", { kind: props.kind, fields: props.fields, id });
    },
};

export class BareResource extends pulumi.dynamic.Resource {
    constructor(name: string, inputs: BareInputs) {
        super(bareProvider, name, { ...inputs, hashId: undefined }, undefined, "Bare");
    }
}
