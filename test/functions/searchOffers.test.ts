import * as pulumi from "@pulumi/pulumi";
import { OfferFilters, OfferQuery, OfferRecord, OfferSearch, VastAuthError, VastInvalidArgsError, searchOffers } from "../../provider";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor, eventually, startEmulator } from "../../testkit/support/fixtures";
import { programEmulator } from "../../testkit/support/programEmulator";

/** An offer in a few words, so expectations read as the market does: "RTX 4090 x4 $1.5". */
const label = (o: OfferRecord) => `${o.gpu_name} x${o.num_gpus} $${o.dph_total}`;
const labels = (offers: OfferRecord[]) => offers.map(label).sort();

/** The seeded market (testkit/emulator/marketplace.ts and the demo machine's three offers) within the CLI's defaults. */
const WITHIN_DEFAULTS = [
    "A100 SXM4 x1 $1.1",
    "A100 SXM4 x8 $8.4",
    "H100 SXM x1 $2.35",
    "RTX 3090 x1 $0.21",
    "RTX 3090 x4 $0.8",
    "RTX 4090 x1 $0.39",
    "RTX 4090 x1 $0.42",
    "RTX 4090 x1 $0.42",
    "RTX 4090 x1 $0.42",
    "RTX 4090 x4 $1.5",
];
/** ...and the three the defaults leave out: unverified, external, not rentable. */
const OUTSIDE_DEFAULTS = ["RTX 3090 x1 $0.19", "RTX 3090 x2 $0.4", "RTX 4090 x1 $0.28"];

/** Operators on fields of each type, over the market within the defaults. */
const CASES: Array<[string, OfferFilters, string[]]> = [
    ["string eq", { gpu_name: { eq: "H100 SXM" } }, ["H100 SXM x1 $2.35"]],
    ["string neq", { gpu_name: { neq: "RTX 4090" } }, ["A100 SXM4 x1 $1.1", "A100 SXM4 x8 $8.4", "H100 SXM x1 $2.35", "RTX 3090 x1 $0.21", "RTX 3090 x4 $0.8"]],
    ["string in", { gpu_name: { in: ["A100 SXM4", "H100 SXM"] } }, ["A100 SXM4 x1 $1.1", "A100 SXM4 x8 $8.4", "H100 SXM x1 $2.35"]],
    ["string notin", { gpu_name: { notin: ["RTX 4090", "RTX 3090", "A100 SXM4"] } }, ["H100 SXM x1 $2.35"]],
    ["location eq", { geolocation: { eq: "Sweden, SE" } }, ["A100 SXM4 x1 $1.1", "A100 SXM4 x8 $8.4"]],
    ["int gte (GPU count)", { num_gpus: { gte: 4 } }, ["A100 SXM4 x8 $8.4", "RTX 3090 x4 $0.8", "RTX 4090 x4 $1.5"]],
    ["int eq (GPU count)", { num_gpus: { eq: 8 } }, ["A100 SXM4 x8 $8.4"]],
    ["float gt (GPU RAM, MB per card)", { gpu_ram: { gt: 40 * 1024 } }, ["A100 SXM4 x1 $1.1", "A100 SXM4 x8 $8.4", "H100 SXM x1 $2.35"]],
    ["float lt (USD/hour)", { dph_total: { lt: 0.4 } }, ["RTX 3090 x1 $0.21", "RTX 4090 x1 $0.39"]],
    ["float lte (USD/hour)", { dph_total: { lte: 0.21 } }, ["RTX 3090 x1 $0.21"]],
    ["float range (USD/hour)", { dph_total: { gte: 0.8, lte: 1.5 } }, ["A100 SXM4 x1 $1.1", "RTX 3090 x4 $0.8", "RTX 4090 x4 $1.5"]],
    ["float gte (reliability)", { reliability: { gte: 0.998 } }, ["A100 SXM4 x1 $1.1", "A100 SXM4 x8 $8.4", "H100 SXM x1 $2.35"]],
    ["float gt (DL performance)", { dlperf: { gt: 500 } }, ["A100 SXM4 x8 $8.4"]],
    ["float gte (CUDA)", { cuda_max_good: { gte: 12.5 } }, ["H100 SXM x1 $2.35"]],
    ["float gt (download Mb/s)", { inet_down: { gt: 4000 } }, ["A100 SXM4 x1 $1.1", "A100 SXM4 x8 $8.4", "H100 SXM x1 $2.35"]],
    ["float gte (disk GB)", { disk_space: { gte: 4000 } }, ["A100 SXM4 x8 $8.4"]],
    ["float neq", { dph_total: { neq: 0.42 }, gpu_name: { eq: "RTX 4090" } }, ["RTX 4090 x1 $0.39", "RTX 4090 x4 $1.5"]],
    ["float in", { dph_total: { in: [0.21, 8.4] } }, ["A100 SXM4 x8 $8.4", "RTX 3090 x1 $0.21"]],
    ["float notin", { dph_total: { notin: [0.42, 0.39, 0.21, 0.8, 1.1, 1.5, 2.35] } }, ["A100 SXM4 x8 $8.4"]],
];

/** The vendor CLI's defaults, as a search with none of its own sends them. */
const DEFAULT_QUERY = {
    verified: { eq: true },
    rentable: { eq: true },
    external: { eq: false },
    rented: { eq: false },
    order: [["score", "desc"]],
    type: "on-demand",
};

describe("searchOffers against the emulator's marketplace", () => {
    // Long enough to see a destroyed instance's offer still off the market, short enough to wait for.
    const returnAfterMs = 400;
    const program = programEmulator({ offerReturnAfterMs: returnAfterMs });
    let emu: Emulator;
    beforeAll(() => {
        emu = program.emu;
    });

    /** The query the last search sent, parsed. */
    const sentQuery = () => {
        const requests = emu.requestsTo("GET", "/api/v0/bundles/");
        return JSON.parse(requests[requests.length - 1].query.q);
    };

    it("applies the CLI's defaults: verified, rentable, not rented, not external, best score first, on demand", async () => {
        const found = await searchOffers();
        expect(sentQuery()).toEqual(DEFAULT_QUERY);
        expect(labels(found)).toEqual(WITHIN_DEFAULTS);
        const scores = found.map((o) => o.score!);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
    });

    it("drops the defaults on request, and lets a filter of the caller's win over one default", async () => {
        const all = await searchOffers({ defaults: false });
        expect(sentQuery()).toEqual({ type: "on-demand" });
        expect(labels(all)).toEqual([...WITHIN_DEFAULTS, ...OUTSIDE_DEFAULTS].sort());

        const unverified = await searchOffers({ filters: { verified: { eq: false } } });
        expect(sentQuery()).toMatchObject({ verified: { eq: false }, rentable: { eq: true } });
        expect(labels(unverified)).toEqual(["RTX 4090 x1 $0.28"]);
    });

    it("a filter set to undefined is not given: the default on that field stays", async () => {
        const found = await searchOffers({ filters: { verified: undefined, rentable: undefined, gpu_name: undefined } });
        expect(sentQuery()).toEqual(DEFAULT_QUERY);
        expect(labels(found)).toEqual(WITHIN_DEFAULTS);
    });

    it.each(CASES)("%s", async (_label, filters, expected) => {
        const found = await searchOffers({ filters });
        expect(sentQuery()).toMatchObject(filters);
        expect(labels(found)).toEqual(expected);
    });

    it("orders by the given keys and keeps to the limit", async () => {
        const cheapest = await searchOffers({ order: [["dph_total", "asc"]], limit: 3 });
        expect(cheapest.map(label)).toEqual(["RTX 3090 x1 $0.21", "RTX 4090 x1 $0.39", "RTX 4090 x1 $0.42"]);

        const byGpuThenDearest = await searchOffers({ order: [["gpu_name", "asc"], ["dph_total", "desc"]], limit: 4 });
        expect(byGpuThenDearest.map(label)).toEqual(["A100 SXM4 x8 $8.4", "A100 SXM4 x1 $1.1", "H100 SXM x1 $2.35", "RTX 3090 x4 $0.8"]);
        expect(sentQuery()).toMatchObject({ order: [["gpu_name", "asc"], ["dph_total", "desc"]], limit: 4 });
    });

    it("an interruptible search sends type bid and prices offers at their lowest bid", async () => {
        const onDemand = await searchOffers({ filters: { gpu_name: { eq: "H100 SXM" } } });
        const bid = await searchOffers({ filters: { gpu_name: { eq: "H100 SXM" } }, type: "bid" });
        expect(sentQuery()).toMatchObject({ type: "bid" });
        expect(bid[0].id).toBe(onDemand[0].id);
        expect(bid[0].dph_total).toBe(onDemand[0].min_bid);
        expect(bid[0].dph_total).toBeLessThan(onDemand[0].dph_total);
        await searchOffers({ filters: { gpu_name: { eq: "H100 SXM" } }, type: "reserved" });
        expect(sentQuery()).toMatchObject({ type: "reserved" });
    });

    it("results carry the offer's fields in the service's names and units", async () => {
        const [a100] = await searchOffers({ filters: { gpu_name: { eq: "A100 SXM4" }, num_gpus: { eq: 1 } } });
        expect(a100).toMatchObject({
            gpu_name: "A100 SXM4",
            num_gpus: 1,
            gpu_ram: 81920, // MB per card
            dph_total: 1.1, // USD/hour
            disk_space: 1000, // GB
            cuda_max_good: 12.4,
            geolocation: "Sweden, SE",
            verified: true,
            rentable: true,
            rented: false,
            external: false,
        });
        expect(a100.machine_id).toEqual(expect.any(Number));
        expect(a100.dlperf_per_dphtotal).toBeCloseTo(a100.dlperf! / a100.dph_total, 1);
    });

    it("an offer leaves the market while rented and returns a while after its instance is destroyed", async () => {
        const vast = clientFor(emu);
        const [h100] = await searchOffers({ filters: { gpu_name: { eq: "H100 SXM" } } });
        const byId: OfferSearch = { filters: { id: { eq: h100.id } } };
        const { instanceId } = await vast.instances.create(h100.id, { image: "busybox" });

        expect(await searchOffers(byId)).toEqual([]);
        expect(await searchOffers({ ...byId, defaults: false })).toEqual([]);

        await vast.instances.destroy(instanceId);
        const destroyedAt = Date.now();
        expect(await searchOffers(byId)).toEqual([]);
        const back = await eventually(async () => (await searchOffers(byId))[0], 5000, 50);
        expect(Date.now() - destroyedAt).toBeGreaterThanOrEqual(returnAfterMs - 50);
        expect(back).toMatchObject({ id: h100.id, rented: false, rentable: true });
    });

    it("checks filters at run time too, naming the field; nothing is sent", async () => {
        const fromJavaScript = { filters: { gpu_ram: { gte: "24000" }, gpu_name: { in: "RTX 4090" } } } as unknown as OfferSearch;
        const error = await searchOffers(fromJavaScript).catch((e) => e);
        expect(error).toBeInstanceOf(VastInvalidArgsError);
        expect(error.message).toMatch(/filters\.gpu_ram\.gte: .*expected number/);
        expect(error.message).toMatch(/filters\.gpu_name\.in: .*expected array/);
        await expect(searchOffers({ filters: { gpu_nam: { eq: "RTX 4090" } } } as unknown as OfferSearch)).rejects.toThrow(
            /filters\.gpu_nam: unknown property "gpu_nam"; did you mean "gpu_name"\?/,
        );
        await expect(searchOffers({ filters: { gpu_ram: { ge: 24000 } } } as unknown as OfferSearch)).rejects.toThrow(
            /filters\.gpu_ram\.ge: "ge" is not a search operator: expected one of eq, neq, lt, lte, gt, gte, in, notin/,
        );
        await expect(searchOffers({ filters: { num_gpus: { eq: 1.5 } } })).rejects.toThrow(/num_gpus\.eq: .*int/);
        await expect(searchOffers({ filter: { gpu_name: { eq: "RTX 4090" } } } as unknown as OfferSearch)).rejects.toThrow(/filter: unknown property; did you mean "filters"\?/);
        await expect(searchOffers({ type: "spot" } as unknown as OfferSearch)).rejects.toThrow(/type/);
        await expect(searchOffers({ order: [["price", "asc"]] } as unknown as OfferSearch)).rejects.toThrow(/order/);
        expect(emu.requestsTo("GET", "/api/v0/bundles/")).toHaveLength(0);
    });

    it("refuses a condition with no defined operator, and an empty in or notin, naming the field; nothing is sent", async () => {
        const error = await searchOffers({ filters: { gpu_name: { eq: undefined } } }).catch((e) => e);
        expect(error).toBeInstanceOf(VastInvalidArgsError);
        expect(error.message).toMatch(/filters\.gpu_name\.eq: expected a string, got undefined/);
        await expect(searchOffers({ filters: { num_gpus: { gte: undefined, lte: undefined } } })).rejects.toThrow(/filters\.num_gpus\.gte: expected a number/);
        await expect(searchOffers({ filters: { gpu_name: { in: [] } } })).rejects.toThrow(/filters\.gpu_name\.in: expected at least one value/);
        await expect(searchOffers({ filters: { geolocation: { notin: [] } } })).rejects.toThrow(/filters\.geolocation\.notin: expected at least one value/);
        // An Output, from config or another resource: the plain function cannot wait for it.
        await expect(searchOffers({ filters: { gpu_name: { in: ["RTX 4090", pulumi.output("H100 SXM")] } } } as unknown as OfferSearch)).rejects.toThrow(
            /filters\.gpu_name\.in\.1: expected a plain value, got an Output \(.*or use searchOffersOutput/,
        );
        expect(emu.requestsTo("GET", "/api/v0/bundles/")).toHaveLength(0);
    });

    it("needs the misc permission, and says so", async () => {
        const reader = emu.createKey({ api: { user_read: {} } });
        const error = await searchOffers({}, { apiKey: reader.key }).catch((e) => e);
        expect(error).toBeInstanceOf(VastAuthError);
        expect(error.missingPermission).toBe("misc");
    });
});

/** Requests sent by hand, as other clients of the service would send them; no pacing, so no rate limits here. */
describe("the bundles route on the wire", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    it("the service's POST form takes the same query and answers the same", async () => {
        const query = { gpu_name: { eq: "RTX 3090" }, verified: { eq: true }, order: [["dph_total", "asc"]], limit: 1 };
        const viaGet = await clientFor(emu).offers.search(query as OfferQuery);
        const viaPost = await post(emu, query);
        expect(viaPost.status).toBe(200);
        expect(viaPost.body.offers).toEqual(viaGet);
        // The client sends the query as it is, without the CLI's defaults: the external offer is in.
        expect(viaGet.map(label)).toEqual(["RTX 3090 x1 $0.19"]);
    });

    it("a query that is not a JSON object is a 400 in the service's words", async () => {
        for (const q of ["[1,2]", "not json", '"gpu_name"']) {
            const answer = await fetch(`${emu.url}/api/v0/bundles/?q=${encodeURIComponent(q)}`, { headers: auth(emu) });
            expect(answer.status).toBe(400);
            expect(await answer.json()).toMatchObject({ success: false, msg: "Invalid query: must be dict of conditions" });
        }
        const viaPost = await post(emu, [["gpu_name", "eq", "RTX 4090"]]);
        expect(viaPost.status).toBe(400);
        expect(viaPost.body.msg).toBe("Invalid query: must be dict of conditions");
    });
});

function auth(emu: Emulator): Record<string, string> {
    return { Authorization: `Bearer ${emu.demoKey}`, "Content-Type": "application/json" };
}

async function post(emu: Emulator, body: unknown): Promise<{ status: number; body: { offers: OfferRecord[]; msg?: string } }> {
    const answer = await fetch(`${emu.url}/api/v0/bundles/`, { method: "POST", headers: auth(emu), body: JSON.stringify(body) });
    return { status: answer.status, body: (await answer.json()) as { offers: OfferRecord[]; msg?: string } };
}
