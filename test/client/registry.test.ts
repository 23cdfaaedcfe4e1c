import { askManifest, registryLocation } from "../../provider/client/registry";
import { parseImageReference } from "../../provider/schemas/imageReference";
import { RegistryEmulator, digestOf } from "../../testkit/registry/registryEmulator";

/** The registry check's questions against a registry emulator on this machine: each answer a create tells apart. */
describe("asking a registry for a manifest, as docker manifest inspect does", () => {
    let registry: RegistryEmulator;
    const login = { user: "bot", password: "registry-secret" };
    beforeAll(async () => {
        registry = await RegistryEmulator.start({ "acme/trainer": { tags: ["1"] }, "acme/private": { tags: ["1"], login } });
    });
    afterAll(() => registry.stop());
    beforeEach(() => {
        registry.requests.length = 0;
        registry.silent = false;
    });
    const ask = (image: string, extra: Partial<Parameters<typeof askManifest>[1]> = {}) =>
        askManifest(registryLocation(parseImageReference(`${registry.host}/${image}`).reference!), { timeoutMs: 1000, ...extra });

    it("found, by tag and by digest, with the token its challenge names", async () => {
        expect(await ask("acme/trainer:1")).toEqual({ kind: "found" });
        const token = registry.requests.find((r) => r.path === "/token")!;
        expect(token.query).toEqual({ service: "registry.test", scope: "repository:acme/trainer:pull" });
        const digest = digestOf("acme/trainer", "1");
        expect(await ask(`acme/trainer@${digest}`)).toEqual({ kind: "found" });
    });

    it("missing: a tag the repository does not have", async () => {
        expect(await ask("acme/trainer:9")).toEqual({ kind: "missing", status: 404 });
    });

    it("denied: a private or unknown repository to an anonymous pull, and a login the token realm refuses", async () => {
        expect(await ask("acme/private:1")).toEqual({ kind: "denied", status: 401, withLogin: false, at: "manifest" });
        expect(await ask("acme/nothing:1")).toEqual({ kind: "denied", status: 401, withLogin: false, at: "manifest" });
        expect(await ask("acme/private:1", { login: { user: "bot", password: "wrong" } })).toEqual({ kind: "denied", status: 401, withLogin: true, at: "token" });
    });

    it("a private repository with its login: the token asked with Basic, the manifest with the token", async () => {
        expect(await ask("acme/private:1", { login })).toEqual({ kind: "found" });
        expect(registry.requests.map((r) => r.authorization ?? "")).toEqual(["", "basic", "bearer"]);
    });

    it("unanswered: a registry that answers nothing, and one that is not there", async () => {
        registry.silent = true;
        const started = Date.now();
        expect(await ask("acme/trainer:1", { timeoutMs: 200 })).toEqual({ kind: "unanswered", why: `${registry.host} did not answer within 200 ms` });
        expect(Date.now() - started).toBeGreaterThanOrEqual(190);
        const gone = await RegistryEmulator.start({});
        const host = gone.host;
        await gone.stop();
        const answer = await askManifest(registryLocation(parseImageReference(`${host}/acme/trainer:1`).reference!), { timeoutMs: 1000 });
        expect(answer).toEqual({ kind: "unanswered", why: expect.stringContaining("ECONNREFUSED") });
    });
});
