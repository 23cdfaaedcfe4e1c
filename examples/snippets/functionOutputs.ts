import * as pulumi from "@pulumi/pulumi";
import * as vast from "pulumi-vastai";

// The Output forms take Inputs, at any depth, and give Outputs: no await, and a secret key keeps the results secret.
const config = new pulumi.Config();
const readerKey = config.requireSecret("readerKey");           // pulumi config set --secret readerKey <key>
const me = vast.getCurrentUserOutput({ apiKey: readerKey });

export const machineIds = vast.getMachinesOutput({ userId: me.id }, { apiKey: readerKey }).apply((ms) => ms.map((m) => m.id));
export const myTemplates = vast.searchTemplatesOutput({ creator_id: { eq: me.id } }, { apiKey: readerKey }).apply((ts) => ts.map((t) => t.hash_id));
export const cheapestOffer = vast
    .searchOffersOutput({ filters: { gpu_name: { eq: config.require("gpu") } }, order: [["dph_total", "asc"]], limit: 1 })
    .apply((offers) => offers[0]?.id);
