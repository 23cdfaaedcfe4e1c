import { VastConfigError } from "../../provider/client/errors";
import { resolveConfig } from "../../provider/config/providerConfig";

const stack = (values: Record<string, string>) => ({ get: (key: string) => values[key] });

describe("resolveConfig", () => {
    it("prefers stack config over the environment", () => {
        const config = resolveConfig(stack({ "vastai:apiKey": "from-stack", "vastai:baseUrl": "http://127.0.0.1:9" }), {
            VAST_API_KEY: "from-env",
            VAST_URL: "https://elsewhere.example",
        });
        expect(config).toEqual({ apiKey: "from-stack", baseUrl: "http://127.0.0.1:9" });
    });

    it("falls back to VAST_API_KEY and VAST_URL, then to the live service", () => {
        expect(resolveConfig(stack({}), { VAST_API_KEY: "k", VAST_URL: "http://localhost:8787/" })).toEqual({
            apiKey: "k",
            baseUrl: "http://localhost:8787",
        });
        expect(resolveConfig(undefined, { VAST_API_KEY: "k" }).baseUrl).toBe("https://console.vast.ai");
    });

    it("accepts a base URL that already ends in the API prefix", () => {
        expect(resolveConfig(undefined, { VAST_API_KEY: "k", VAST_URL: "https://console.vast.ai/api/v0/" }).baseUrl).toBe(
            "https://console.vast.ai",
        );
    });

    it("says how to set a missing key", () => {
        expect(() => resolveConfig(stack({}), {})).toThrow(VastConfigError);
        expect(() => resolveConfig(stack({}), {})).toThrow(/pulumi config set --secret vastai:apiKey <key>.*VAST_API_KEY/);
    });

    it("refuses plain http to a non-loopback host, without echoing the key", () => {
        const attempt = () => resolveConfig(undefined, { VAST_API_KEY: "sekrit-123", VAST_URL: "http://console.vast.ai" });
        expect(attempt).toThrow(/refusing to send the API key to http:\/\/console\.vast\.ai/);
        try {
            attempt();
        } catch (e) {
            expect(String(e)).not.toContain("sekrit-123");
        }
    });
});

describe("VASTAI_TIME_SCALE", () => {
    const { timeScale } = require("../../provider/runtime/providerContext");
    const saved = process.env.VASTAI_TIME_SCALE;
    afterEach(() => {
        if (saved === undefined) delete process.env.VASTAI_TIME_SCALE;
        else process.env.VASTAI_TIME_SCALE = saved;
    });

    it("speeds the provider up only against a loopback address (the emulator)", () => {
        process.env.VASTAI_TIME_SCALE = "0.01";
        expect(timeScale("http://127.0.0.1:8787")).toBe(0.01);
        expect(timeScale("https://console.vast.ai")).toBe(1);
    });

    it("scales the provider's retries, its 429 budget included: 2 minutes at live speed", () => {
        const { scaledRetry } = require("../../provider/config/newClient");
        expect(scaledRetry(1)).toEqual({ baseDelayMs: 300, maxDelayMs: 10_000, rateLimitBudgetMs: 120_000 });
        expect(scaledRetry(0.01)).toMatchObject({ rateLimitBudgetMs: 1200 });
    });

    it("slows it down anywhere, and ignores nonsense", () => {
        process.env.VASTAI_TIME_SCALE = "2";
        expect(timeScale("https://console.vast.ai")).toBe(2);
        process.env.VASTAI_TIME_SCALE = "fast";
        expect(timeScale("http://127.0.0.1:1")).toBe(1);
        delete process.env.VASTAI_TIME_SCALE;
        expect(timeScale("http://127.0.0.1:1")).toBe(1);
    });
});
