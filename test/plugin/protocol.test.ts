import * as fs from "fs";
import * as pulumi from "@pulumi/pulumi";
import * as path from "path";
import { FUNCTION_NAMES, functionToken } from "../../provider/dynamic/typeTokens";
import { PluginProvider, PluginResource } from "../../testkit/host/pluginResource";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * The provider plugin as the engine meets it, started as a resource plugin (it prints its port)
 * and driven over gRPC against the emulator: the schema and version, the provider's own config,
 * detailed diffs, and every function as an invoke. Each resource's lifecycle is in lifecycle.test.ts.
 */
describe("pulumi-resource-vastai over gRPC", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: true } });
    });
    afterAll(() => stack.stop());

    it("answers GetSchema with the committed schema.json, and GetPluginInfo with the package's version", async () => {
        const committed = fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8");
        expect(await stack.host.getSchema()).toBe(committed);
        const version = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;
        expect(await stack.host.getPluginInfo()).toBe(version);
        expect(JSON.parse(committed).version).toBe(version);
    });

    it("CheckConfig names a misspelt setting and a URL the key would be refused to, and never quotes the key", async () => {
        const { host, emu } = stack;
        const checked = await host.checkConfig({ apikey: emu.demoKey, baseUrl: "http://vast.example.com", version: "0.1.0" });
        expect(checked.failures).toEqual([
            { property: "apikey", reason: expect.stringContaining('did you mean "apiKey"?') },
            { property: "baseUrl", reason: expect.stringMatching(/refusing to send the API key to http:\/\/vast\.example\.com/) },
        ]);
        expect(JSON.stringify(checked.failures)).not.toContain(emu.demoKey);
        expect((await host.checkConfig({ apiKey: 42 })).failures).toEqual([{ property: "apiKey", reason: "expected a string" }]);
        const good = await host.checkConfig({ apiKey: emu.demoKey, baseUrl: emu.url });
        expect(good.failures).toEqual([]);
        // The inputs the engine keeps for the provider hold the key as a secret.
        expect(good.inputs).toEqual({ apiKey: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: emu.demoKey }, baseUrl: emu.url });
    });

    it("Configure takes the key as a secret: calls go out with it, and it reaches no output line", async () => {
        const { host, emu, engine } = stack;
        const before = emu.requests.length;
        await engine.up(() => new PluginResource("sshKey", "configured", { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConfiguredKey000000000000000000000000000000 me@ci" }));
        const sent = emu.requests.slice(before).filter((r) => r.path === "/api/v0/ssh/" && r.method === "POST");
        expect(sent.map((r) => r.keyId)).toEqual([emu.model.keys.get(emu.demoKey)!.id]);
        await engine.destroy();
        expect(host.output.join("\n")).not.toContain(emu.demoKey);
    });

    it("keeps secrets secret: a secret input and the outputs the schema marks are encrypted in state, none in plain text", async () => {
        const { emu, engine } = stack;
        const offer = emu.addOffer();
        await engine.up(() => new PluginResource("instance", "private", { offerId: offer.id, image: "ghcr.io/acme/trainer:1", imageLogin: "-u bot -p ghp_plugin_secret ghcr.io", env: { TOKEN: pulumi.secret("tok_plugin_secret") } }));
        expect(engine.get("private").secretOutputs).toEqual(expect.arrayContaining(["imageLogin", "env", "effectiveEnv"]));
        expect(engine.secretLeaks()).toEqual([]);
        await engine.destroy();
    });

    it("a create sent as a preview rents nothing, whatever the engine: the inputs come back, no call is made", async () => {
        const { host, emu } = stack;
        const offer = emu.addOffer();
        const urn = host.urn("vastai:index:Instance", "previewed");
        const inputs = (await host.check(urn, {}, { offerId: offer.id, image: "busybox" })).inputs;
        const before = emu.requests.length;
        const previewed = await host.create(urn, inputs, true);
        expect(previewed).toEqual({ id: "", properties: inputs });
        expect(emu.requests.slice(before)).toEqual([]);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });

    it("an explicit provider manages another account's resources in the same program, through refresh and destroy", async () => {
        const { emu, engine } = stack;
        const other = emu.model.addUser({ email: "other-team@example.com" });
        const key = (who: string) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyOf${who}00000000000000000000000000000000000 ${who}@ci`;
        const program = () => {
            const otherAccount = new PluginProvider("other-account", { apiKey: other.apiKey, baseUrl: emu.url });
            return [
                new PluginResource("sshKey", "ours", { publicKey: key("ours") }),
                new PluginResource("sshKey", "theirs", { publicKey: key("theirs") }, { provider: otherAccount }),
            ];
        };
        expect((await engine.up(program)).create).toEqual(["ours", "theirs"]);
        const owner = (name: string) => emu.model.sshKeys.get(Number(engine.get(name).id))?.userId;
        expect([owner("ours"), owner("theirs")]).toEqual([emu.demoUser.id, other.id]);
        // A new command starts the providers again from what state holds of them, as the engine does.
        await stack.freshHost();
        expect((await engine.refresh()).same).toEqual(["ours", "theirs"]);
        const ids = ["ours", "theirs"].map((name) => Number(engine.get(name).id));
        expect(await engine.destroy()).toEqual(["theirs", "ours"]);
        expect(ids.filter((id) => emu.model.sshKeys.has(id))).toEqual([]);
        expect(stack.host.output.join("\n")).not.toContain(other.apiKey);
    });

    describe("detailed diffs: a plan lists what the program changed, never what the provider keeps for itself", () => {
        const INTERNAL = ["createSlot", "createGeneration", "nameGenerated", "__provider"];
        let created: { id: string; properties: Record<string, unknown> };
        let inputs: Record<string, unknown>;
        const urn = () => stack.host.urn("vastai:index:Instance", "diffed");
        const base = () => ({ offerId: offerId!, image: "nvidia/cuda:12.4.1-base-ubuntu22.04", disk: 16, label: "one" });
        let offerId: number | undefined;

        beforeAll(async () => {
            const { host, emu } = stack;
            offerId = emu.addOffer().id;
            inputs = (await host.check(urn(), {}, base())).inputs;
            expect(inputs).toMatchObject({ createSlot: expect.any(String), createGeneration: 0 });
            created = await host.create(urn(), inputs);
        });
        afterAll(() => stack.host.delete(created.id, urn(), created.properties));

        const planned = async (news: Record<string, unknown>) => {
            const checked = await stack.host.check(urn(), inputs, news);
            expect(checked.failures).toEqual([]);
            // The generation moves on at every check of a resource in state; it never shows.
            expect(checked.inputs.createGeneration).toBe(1);
            return stack.host.diff(created.id, urn(), created.properties, checked.inputs);
        };

        it("unchanged: no change and an empty detailed diff", async () => {
            expect(await planned(base())).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false, detailedDiff: {} });
        });

        it("a new label: {label: UPDATE} alone", async () => {
            expect(await planned({ ...base(), label: "two" })).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false, detailedDiff: { label: "UPDATE" } });
        });

        it("a new image: {image: UPDATE_REPLACE}, made before the old is destroyed unless on the same offer", async () => {
            expect(await planned({ ...base(), image: "nvidia/cuda:12.6.0-base-ubuntu24.04" })).toEqual({
                changes: "some",
                replaces: ["image"],
                deleteBeforeReplace: true, // pinned to the one offer the old instance holds
                detailedDiff: { image: "UPDATE_REPLACE" },
            });
        });

        it("a property declared to replace that changes in place plans an update: pinning the offer a search rented", async () => {
            const searched = { offer: { filters: { gpu_name: { eq: "RTX 4090" } }, maxPricePerHour: 5 }, image: "busybox", disk: 16 };
            const searchUrn = stack.host.urn("vastai:index:Instance", "searched");
            const checked = (await stack.host.check(searchUrn, {}, searched)).inputs;
            const rented = await stack.host.create(searchUrn, checked);
            try {
                const { offer: _, ...rest } = searched;
                const pinned = (await stack.host.check(searchUrn, checked, { ...rest, offerId: rented.properties.rentedOfferId })).inputs;
                const diff = await stack.host.diff(rented.id, searchUrn, rented.properties, pinned);
                expect(diff).toMatchObject({ changes: "some", replaces: [] });
                expect(diff.detailedDiff).toEqual({ offerId: "ADD", offer: "DELETE" });
            } finally {
                await stack.host.delete(rented.id, searchUrn, rented.properties);
            }
        });

        it("no internal input appears in any detailed diff", async () => {
            for (const news of [base(), { ...base(), label: "x" }, { ...base(), disk: 32 }, { ...base(), env: { A: "1" } }]) {
                const diff = await planned(news);
                expect(Object.keys(diff.detailedDiff!).filter((k) => INTERNAL.includes(k))).toEqual([]);
            }
        });
    });

    it("serves every function as an invoke, with the function's own results", async () => {
        const { host, emu } = stack;
        const offers = await host.invoke(functionToken("searchOffers"), { filters: { gpu_name: { eq: "RTX 4090" } }, order: [["dph_total", "asc"]], limit: 2 });
        expect((offers.offers as unknown[]).length).toBeGreaterThan(0);
        expect(offers.offers).toEqual(expect.arrayContaining([expect.objectContaining({ gpu_name: "RTX 4090", dph_total: expect.any(Number) })]));

        emu.addVolumeOffer({ diskSpace: 100, storageCost: 0.07, geolocation: "Lisbon, PT" });
        const volumeOffers = await host.invoke(functionToken("searchVolumeOffers"), { filters: { geolocation: { eq: "Lisbon, PT" } } });
        expect(volumeOffers.offers).toEqual([expect.objectContaining({ storage_cost: 0.07, geolocation: "Lisbon, PT" })]);

        const templates = await host.invoke(functionToken("searchTemplates"), { filters: { image: { eq: "pytorch/pytorch" } } });
        expect(templates.templates).toEqual(expect.arrayContaining([expect.objectContaining({ name: "PyTorch (public)" })]));

        const machines = await host.invoke(functionToken("getMachines"), {});
        expect(machines.machines).toEqual(expect.arrayContaining([expect.objectContaining({ gpuName: "RTX 4090", online: true })]));

        const user = await host.invoke(functionToken("getCurrentUser"));
        expect(user).toMatchObject({ id: emu.demoUser.id, email: "demo@example.com" });
        expect(JSON.stringify(user)).not.toContain(emu.demoKey);

        // One test per function above: the table of functions and this test agree.
        expect([...FUNCTION_NAMES].sort()).toEqual(["getCurrentUser", "getMachines", "searchOffers", "searchTemplates", "searchVolumeOffers"]);
    });

    it("an invoke's bad argument and an unknown token fail with what to do", async () => {
        const { host } = stack;
        await expect(host.invoke(functionToken("getMachines"), { userID: 5 })).rejects.toThrow(/userID/);
        await expect(host.invoke("vastai:index:searchOfers")).rejects.toThrow(/is not a function of the vastai package .*vastai:index:searchOffers/);
    });

    it("a resource of a type it does not have is refused by name", async () => {
        await expect(stack.host.check(stack.host.urn("vastai:index:Machine", "m"), {}, {})).rejects.toThrow(/vastai:index:Machine is not a resource of the vastai package/);
    });
});
