import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Endpoint, Instance, NetworkVolume, Template, Volume, WorkerGroup } from "../../provider";
import { PolicyDiagnostic, PolicyPackHost } from "../../testkit/policy/policyPackHost";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * The policy pack in `policy/`, started as the Pulumi CLI starts one (`--policy-pack policy`) and
 * configured from a `--policy-pack-config` file; the engine sends it `Analyze` with each
 * resource's checked inputs and `AnalyzeStack` with the stack's outputs, from programs of this
 * package run through Pulumi's dynamic-provider host against the emulator.
 */
describe("the guardrails policy pack, through its analyzer server", () => {
    let stack: TestStack;
    let pack: PolicyPackHost;
    let dir: string;
    beforeAll(async () => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-policy-"));
        [stack, pack] = await Promise.all([startStack(), PolicyPackHost.start({ packDir: path.join(REPO_ROOT, "policy") })]);
        stack.engine.policyPack = pack;
    });
    afterAll(async () => {
        await Promise.all([stack.stop(), pack.stop()]);
        fs.rmSync(dir, { recursive: true, force: true });
    });
    afterEach(async () => {
        await pack.configure(writeConfig({ all: "advisory" }));
        await stack.engine.destroy();
    });

    /** A `--policy-pack-config` file holding `config`. */
    function writeConfig(config: object): string {
        const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
        fs.writeFileSync(file, JSON.stringify(config));
        return file;
    }
    const configure = (config: object) => pack.configure(writeConfig(config));
    const of = (policy: string, level?: PolicyDiagnostic["enforcementLevel"]) =>
        stack.engine.policyDiagnostics.filter((d) => d.policyName === policy && (level === undefined || d.enforcementLevel === level));
    const messages = (policy: string, level?: PolicyDiagnostic["enforcementLevel"]) => of(policy, level).map((d) => d.message);

    /** An offer of GPU `gpu` at `price` on a machine of its own in `geolocation`. */
    function offer(gpu: string, price: number, geolocation = "Texas, US") {
        const machine = stack.emu.model.addMachine(stack.emu.otherUser.id, { gpu_name: gpu, geolocation });
        return stack.emu.addOffer({ status: "running" }, price, machine.id, { gpu_name: gpu, geolocation, verified: true, rentable: true, external: false });
    }
    const search = (gpu: string, extra: Record<string, unknown> = {}) => ({ filters: { gpu_name: { eq: gpu } }, ...extra });

    describe("vastai-stack-budget", () => {
        it("fails a stack whose instances' ceilings sum above the budget, naming the sum, the budget and the instances", async () => {
            await configure({ "vastai-stack-budget": { maxPricePerHour: 2.4 } });
            await stack.engine.preview(() => [
                new Instance("trainer", { offer: search("RTX 4090", { maxPricePerHour: 1.5 }), image: "busybox" }),
                new Instance("worker", { offer: search("RTX 4090", { type: "bid" }), price: 1, image: "busybox" }),
            ]);
            const [violation, ...more] = messages("vastai-stack-budget", "mandatory");
            expect(more).toEqual([]);
            expect(violation).toContain("the stack's worst case is $2.5/hour");
            expect(violation).toContain("above the budget $2.4/hour");
            expect(violation).toContain('Instance "trainer" $1.5/hour (offer.maxPricePerHour)');
            expect(violation).toContain('Instance "worker" $1/hour (price (its bid))');
        });

        it("passes a stack just below the budget, volumes' ceilings counted", async () => {
            await configure({ "vastai-stack-budget": { maxPricePerHour: 2.5 } });
            await stack.engine.preview(() => [
                new Instance("trainer", { offer: search("RTX 4090", { maxPricePerHour: 1.5 }), image: "busybox" }),
                new Instance("worker", { offer: search("RTX 4090", { maxPricePerHour: 0.98 }), image: "busybox" }),
                // 73 GB at $0.1/GB-month: $0.01/hour.
                new Volume("data", { offer: { maxPricePerGbMonth: 0.1 }, sizeGb: 73 }),
            ]);
            expect(of("vastai-stack-budget")).toEqual([]);
            await configure({ "vastai-stack-budget": { maxPricePerHour: 2.48 } });
            await stack.engine.preview(() => [
                new Instance("trainer", { offer: search("RTX 4090", { maxPricePerHour: 1.5 }), image: "busybox" }),
                new Instance("worker", { offer: search("RTX 4090", { maxPricePerHour: 0.98 }), image: "busybox" }),
                new Volume("data", { offer: { maxPricePerGbMonth: 0.1 }, sizeGb: 73 }),
            ]);
            expect(messages("vastai-stack-budget", "mandatory")).toEqual([expect.stringContaining('Volume "data" $0.01/hour')]);
        });

        it("reports a price not known in preview as unchecked, and an instance with no ceiling as unbounded", async () => {
            await configure({ "vastai-stack-budget": { maxPricePerHour: 10 } });
            const pinned = offer("PP-PINNED", 0.39);
            await stack.engine.preview(() => {
                const template = new Template("base", { name: "base", image: "busybox" });
                return [
                    template,
                    new Instance("later", { offer: search("RTX 4090", { maxPricePerHour: template.templateId.apply(() => 1) }), image: "busybox" }),
                    new Instance("pinned", { offerId: pinned.id, image: "busybox" }),
                ];
            });
            expect(messages("vastai-stack-budget", "mandatory")).toEqual([]);
            const [unchecked] = messages("vastai-stack-budget", "advisory");
            expect(unchecked).toContain("could not check");
            expect(unchecked).toContain('Instance "later": offer.maxPricePerHour is not known yet');
            expect(unchecked).toContain(`Instance "pinned": the price of offer ${pinned.id} is known once it is rented`);

            await stack.engine.preview(() => [
                new Instance("open", { offer: search("RTX 4090"), image: "busybox" }),
                new Volume("scratch", { offerId: 4242, sizeGb: 100 }),
            ]);
            expect(messages("vastai-stack-budget", "mandatory")).toEqual([expect.stringContaining("the stack's worst case is unbounded")]);
            expect(messages("vastai-stack-budget", "mandatory")[0]).toContain('Instance "open": its offer search has no maxPricePerHour');
            // A volume without a ceiling is not counted, and says so.
            expect(messages("vastai-stack-budget", "mandatory")[0]).toContain('not counted, having no ceiling: Volume "scratch" (made on a given offer or adopted');
        });

        it("counts a worker group's maxWorkers at its per-worker ceiling, naming the group; one without a ceiling is unbounded", async () => {
            await configure({ "vastai-stack-budget": { maxPricePerHour: 2 } });
            const serving = (offer: { maxPricePerHour?: number }) => () => {
                const template = new Template("server", { name: "server", image: "vllm/vllm-openai", tag: "latest" });
                const endpoint = new Endpoint("llm", { name: "llm", maxWorkers: 8 });
                return [template, endpoint, new WorkerGroup("llm-4090", { endpointId: endpoint.endpointId, templateHashId: template.hashId, offer: { filters: { gpu_name: { eq: "RTX 4090" } }, ...offer }, maxWorkers: 4 })];
            };
            await stack.engine.preview(serving({ maxPricePerHour: 0.6 }));
            const [violation, ...more] = messages("vastai-stack-budget", "mandatory");
            expect(more).toEqual([]);
            expect(violation).toContain('WorkerGroup "llm-4090" $2.4/hour (maxWorkers × offer.maxPricePerHour (4 workers at $0.6/hour))');
            expect(violation).toContain("above the budget $2/hour");

            await stack.engine.preview(serving({ maxPricePerHour: 0.5 }));
            expect(of("vastai-stack-budget")).toEqual([]);

            await stack.engine.preview(serving({}));
            expect(messages("vastai-stack-budget", "mandatory")).toEqual([
                expect.stringContaining('WorkerGroup "llm-4090": it has no offer.maxPricePerHour, so each of its up to 4 workers may cost any price'),
            ]);
        });

        it("after an up, counts a pinned instance at the price the service shows, and fails the up above the budget", async () => {
            const pinned = offer("PP-SHOWN", 0.39);
            await configure({ "vastai-stack-budget": { maxPricePerHour: 0.3 }, "vastai-instance-ceiling": "disabled" });
            await expect(stack.engine.up(() => new Instance("pinned", { offerId: pinned.id, image: "busybox" }))).rejects.toThrow(
                /the stack: mandatory policy violations: \[vastai-stack-budget\][\s\S]*worst case is \$0\.39\/hour \(Instance "pinned" \$0\.39\/hour \(dphTotal \(its price\)\)\), above the budget \$0\.3\/hour/,
            );
        });
    });

    describe("vastai-instance-ceiling", () => {
        it("stops an up before renting an instance with no ceiling", async () => {
            await configure({ "vastai-instance-ceiling": "mandatory" });
            offer("PP-NOCEIL", 0.2);
            const before = stack.emu.requests.length;
            await expect(stack.engine.up(() => new Instance("open", { offer: search("PP-NOCEIL"), image: "busybox" }))).rejects.toThrow(
                /open: mandatory policy violations: \[vastai-instance-ceiling\][\s\S]*Instance "open" has no ceiling: its offer search has no maxPricePerHour/,
            );
            expect(stack.emu.requests.slice(before).filter((r) => r.method === "PUT")).toEqual([]);
            expect(stack.engine.state.size).toBe(0);
        });

        it("fails an instance pinned to an offer on demand, and a ceiling above the limit; passes a ceiling within it and a bid", async () => {
            await configure({ "vastai-instance-ceiling": { maxPricePerHour: 2 } });
            await stack.engine.preview(() => [
                new Instance("pinned", { offerId: 4242, image: "busybox" }),
                new Instance("dear", { offer: search("H100 SXM", { maxPricePerHour: 3 }), image: "busybox" }),
                new Instance("fine", { offer: search("RTX 4090", { maxPricePerHour: 1.5 }), image: "busybox" }),
                new Instance("bid", { offerId: 4343, price: 0.5, image: "busybox" }),
            ]);
            expect(of("vastai-instance-ceiling").map((d) => [d.urn.split("::").pop(), d.enforcementLevel, d.message])).toEqual([
                ["pinned", "mandatory", expect.stringContaining('Instance "pinned" has no ceiling: it is rented on offerId 4242 on demand')],
                ["dear", "mandatory", expect.stringContaining('Instance "dear": offer.maxPricePerHour is $3/hour, above the limit $2/hour (maxPricePerHour)')],
            ]);
        });
    });

    it("every resource policy says what it could not check in preview, and still checks the rest", async () => {
        await configure({ all: "mandatory", "vastai-allowed-gpus": { gpuNames: ["RTX 4090"] }, "vastai-private-templates": { allowPublic: ["demo-template"] } });
        await stack.engine.preview(() => {
            const base = new Template("base", { name: "base", image: "busybox" });
            const later = base.templateId.apply(() => "later");
            return [
                base,
                new Template("named-later", { name: later, image: "busybox", private: false }),
                new Template("leaky", { name: "leaky", image: "busybox", env: { DOCKER_PASSWORD: "hunter2hunter2", OTHER: later } }),
                new Instance("priced-later", { offer: search("RTX 4090", { maxPricePerHour: base.templateId.apply(() => 1) }), image: "busybox", onstart: later }),
                new Instance("model-later", { offer: { filters: { gpu_name: { eq: later } }, maxPricePerHour: 1 }, image: "busybox" }),
            ];
        });
        const found = stack.engine.policyDiagnostics.filter((d) => d.urn.split("::").pop() !== "base").map((d) => [d.policyName, d.urn.split("::").pop(), d.enforcementLevel, d.message.replace(/^[^\n]*\n/, "")]);
        expect(found).toEqual(
            expect.arrayContaining([
                ["vastai-private-templates", "named-later", "advisory", 'could not check: whether Template "named-later" may be public: private is false, and its name is not known yet'],
                ["vastai-registry-logins-secret", "leaky", "mandatory", expect.stringContaining('Template "leaky": env DOCKER_PASSWORD holds a registry login in plain text')],
                ["vastai-registry-logins-secret", "leaky", "advisory", 'could not check: Template "leaky": env OTHER is not known yet'],
                ["vastai-registry-logins-secret", "priced-later", "advisory", 'could not check: Instance "priced-later": onstart is not known yet'],
                ["vastai-instance-ceiling", "priced-later", "advisory", 'could not check: Instance "priced-later"\'s ceiling: offer.maxPricePerHour is not known yet'],
                ["vastai-allowed-gpus", "model-later", "advisory", 'could not check: Instance "model-later"\'s offer.filters.gpu_name is not known yet'],
            ]),
        );
    });

    describe("vastai-allowed-gpus", () => {
        it("fails a search that allows another model, any count or too much disk; passes one within the limits", async () => {
            await configure({ "vastai-allowed-gpus": { gpuNames: ["RTX 4090", "RTX 3090"], maxGpusPerInstance: 2, maxDiskGbPerInstance: 200 } });
            await stack.engine.preview(() => [
                new Instance("big", { offer: { filters: { gpu_name: { in: ["RTX 4090", "H100 SXM"] }, num_gpus: { gte: 4 } }, maxPricePerHour: 9 }, image: "busybox", disk: 500 }),
                new Instance("any", { offer: { maxPricePerHour: 1 }, image: "busybox", disk: 50 }),
                new Instance("fits", { offer: { filters: { gpu_name: { eq: "RTX_3090" }, num_gpus: { lte: 2 } }, maxPricePerHour: 1 }, image: "busybox", disk: 100 }),
            ]);
            const found = of("vastai-allowed-gpus", "mandatory").map((d) => [d.urn.split("::").pop(), d.message]);
            expect(found).toEqual(
                expect.arrayContaining([
                    ["big", expect.stringContaining('Instance "big"\'s offer.filters.gpu_name allows H100 SXM, not among the allowed models: RTX 4090, RTX 3090')],
                    ["big", expect.stringContaining('Instance "big"\'s offer search allows any number of GPUs')],
                    ["big", expect.stringContaining('Instance "big": disk is 500 GB, above the limit 200 GB (maxDiskGbPerInstance)')],
                    ["any", expect.stringContaining('Instance "any"\'s offer search allows any GPU model')],
                    ["any", expect.stringContaining('Instance "any"\'s offer search allows any number of GPUs')],
                ]),
            );
            expect(found).toHaveLength(5);
        });

        it("judges a rented instance by the GPU its machine has", async () => {
            offer("PP-RENTED", 0.2);
            await stack.engine.up(() => new Instance("rented", { offer: search("PP-RENTED", { maxPricePerHour: 1 }), image: "busybox" }));
            await configure({ "vastai-allowed-gpus": { gpuNames: ["RTX 4090"] } });
            await stack.engine.preview(() => new Instance("rented", { offer: search("PP-RENTED", { maxPricePerHour: 1 }), image: "busybox" }));
            expect(messages("vastai-allowed-gpus", "mandatory")).toEqual([expect.stringContaining('Instance "rented" runs on PP-RENTED (gpuName), which is not among the allowed models: RTX 4090')]);
            await configure({ "vastai-allowed-gpus": { gpuNames: ["PP-RENTED"], maxGpusPerInstance: 1 } });
            await stack.engine.preview(() => new Instance("rented", { offer: search("PP-RENTED", { maxPricePerHour: 1 }), image: "busybox" }));
            expect(of("vastai-allowed-gpus")).toEqual([]);
        });
    });

    it("judges an instance rented on a given offer by its record once it is rented", async () => {
        const pinned = offer("PP-PINNED-GPU", 0.2, "Sweden, SE");
        await configure({ "vastai-instance-ceiling": "disabled", "vastai-allowed-gpus": { gpuNames: ["RTX 4090"] }, "vastai-allowed-locations": { locations: ["US"] } });
        await stack.engine.preview(() => new Instance("pinned", { offerId: pinned.id, image: "busybox" }));
        expect(of("vastai-allowed-gpus").map((d) => [d.enforcementLevel, d.message])).toEqual([
            ["advisory", `could not check: Instance "pinned"'s GPU model: it is rented on offer ${pinned.id} without a search, so its machine is known once it is rented`],
        ]);
        expect(of("vastai-allowed-locations").map((d) => d.enforcementLevel)).toEqual(["advisory"]);
        await expect(stack.engine.up(() => new Instance("pinned", { offerId: pinned.id, image: "busybox" }))).rejects.toThrow(/mandatory policy violations/);
        expect(stack.engine.get("pinned").outputs).toMatchObject({ gpuName: "PP-PINNED-GPU", numGpus: 1, geolocation: "Sweden, SE" });
        expect(messages("vastai-allowed-gpus", "mandatory")).toEqual([expect.stringContaining('Instance "pinned" runs on PP-PINNED-GPU (gpuName), which is not among the allowed models: RTX 4090')]);
        expect(messages("vastai-allowed-locations", "mandatory")).toEqual([expect.stringContaining('Instance "pinned" is in Sweden, SE (geolocation), outside the allowed locations: US')]);
    });

    describe("vastai-allowed-locations", () => {
        it("fails instances and volumes whose search allows a place outside the allowed locations, passes those inside", async () => {
            await configure({ "vastai-allowed-locations": { locations: ["US", "CA"] } });
            await stack.engine.preview(() => [
                new Instance("abroad", { offer: { filters: { geolocation: { in: ["Texas, US", "Sweden, SE"] } }, maxPricePerHour: 1 }, image: "busybox" }),
                new Instance("home", { offer: { filters: { geolocation: { eq: "Quebec, CA" } }, maxPricePerHour: 1 }, image: "busybox" }),
                new Volume("anywhere", { offer: { maxPricePerGbMonth: 0.2 }, sizeGb: 10 }),
                new Volume("near", { offer: { filters: { geolocation: { eq: "US" } }, maxPricePerGbMonth: 0.2 }, sizeGb: 10 }),
                new Instance("pinned", { offerId: 4242, price: 0.2, image: "busybox" }),
                new NetworkVolume("shared", { offer: { filters: { geolocation: { eq: "Oslo, NO" } }, maxPricePerGbMonth: 0.2 }, sizeGb: 10 }),
            ]);
            const byName = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
            expect(of("vastai-allowed-locations").map((d) => [d.urn.split("::").pop(), d.enforcementLevel, d.message]).sort(byName)).toEqual([
                ["abroad", "mandatory", expect.stringContaining('Instance "abroad"\'s offer.filters.geolocation allows Sweden, SE, outside the allowed locations: US, CA')],
                ["anywhere", "mandatory", expect.stringContaining('Volume "anywhere"\'s offer search allows any location')],
                ["pinned", "advisory", expect.stringContaining('could not check: where Instance "pinned" is: it is rented on offer 4242 without a search')],
                ["shared", "mandatory", expect.stringContaining('NetworkVolume "shared"\'s offer.filters.geolocation allows Oslo, NO, outside the allowed locations: US, CA')],
            ]);
        });

        it("judges a rented instance by where its machine is", async () => {
            offer("PP-WHERE", 0.2, "Sweden, SE");
            await stack.engine.up(() => new Instance("north", { offer: search("PP-WHERE", { maxPricePerHour: 1 }), image: "busybox" }));
            expect(stack.engine.get("north").outputs.geolocation).toBe("Sweden, SE");
            await configure({ "vastai-allowed-locations": { locations: ["US"] } });
            await stack.engine.preview(() => new Instance("north", { offer: search("PP-WHERE", { maxPricePerHour: 1 }), image: "busybox" }));
            expect(messages("vastai-allowed-locations", "mandatory")).toEqual([expect.stringContaining('Instance "north" is in Sweden, SE (geolocation), outside the allowed locations: US')]);
        });
    });

    describe("vastai-private-templates", () => {
        it("fails a public template not allowed; passes one allowed by name, and one left private", async () => {
            await configure({ "vastai-private-templates": { allowPublic: ["demo"] } });
            await stack.engine.preview(() => [
                new Template("shared", { name: "shared", image: "busybox", private: false }),
                new Template("demo", { name: "demo-template", image: "busybox", private: false }),
                new Template("internal", { name: "internal", image: "busybox" }),
            ]);
            expect(of("vastai-private-templates").map((d) => [d.urn.split("::").pop(), d.message])).toEqual([
                ["shared", expect.stringContaining('Template "shared": private is false, and the template is not among those allowed to be public (allowPublic: demo)')],
            ]);
        });
    });

    describe("vastai-registry-logins-secret", () => {
        it("fails a registry login in plain text in env or a start script; passes one given as dockerLoginPass or imageLogin", async () => {
            await configure({ "vastai-registry-logins-secret": "mandatory" });
            await stack.engine.preview(() => [
                new Template("leaky", { name: "leaky", image: "ghcr.io/acme/trainer", env: { DOCKER_PASSWORD: "hunter2hunter2", HF_HOME: "/workspace" } }),
                new Instance("scripted", { offer: { maxPricePerHour: 1 }, image: "busybox", onstart: "docker login -u acme -p hunter2hunter2 ghcr.io && ./run.sh" }),
                new Template("kept", { name: "kept", image: "ghcr.io/acme/trainer", dockerLoginRepo: "ghcr.io", dockerLoginUser: "acme", dockerLoginPass: pulumi.secret("hunter2hunter2") }),
                new Instance("login", { offer: { maxPricePerHour: 1 }, image: "ghcr.io/acme/trainer", imageLogin: "-u acme -p hunter2hunter2 ghcr.io", onstart: 'echo "$REGISTRY_TOKEN" | docker login -u acme --password-stdin ghcr.io' }),
            ]);
            expect(of("vastai-registry-logins-secret").map((d) => [d.urn.split("::").pop(), d.enforcementLevel, d.message])).toEqual([
                ["leaky", "mandatory", expect.stringContaining('Template "leaky": env DOCKER_PASSWORD holds a registry login in plain text. Give it as dockerLoginUser and dockerLoginPass')],
                ["scripted", "mandatory", expect.stringContaining('Instance "scripted": onstart (a registry login with its password on the command line) holds a registry login in plain text. Give it as imageLogin')],
            ]);
        });
    });

    describe("configuration", () => {
        it("takes levels from the file, and refuses a value its schema does not allow, as the CLI does", async () => {
            await configure({ all: "disabled", "vastai-private-templates": "advisory" });
            await stack.engine.preview(() => new Template("shared", { name: "shared", image: "busybox", private: false }));
            expect(stack.engine.policyDiagnostics.map((d) => [d.policyName, d.enforcementLevel])).toEqual([["vastai-private-templates", "advisory"]]);
            await expect(configure({ "vastai-stack-budget": { maxPricePerHour: "ten" } })).rejects.toThrow(
                "validating policy config: vastai-stack-budget: maxPricePerHour: Invalid type. Expected: number, given: string",
            );
        });

        it("describes every policy, each with a config schema the CLI can check", () => {
            expect(pack.policies.map((p) => [p.name, p.enforcementLevel])).toEqual([
                ["vastai-stack-budget", "mandatory"],
                ["vastai-instance-ceiling", "mandatory"],
                ["vastai-allowed-gpus", "mandatory"],
                ["vastai-allowed-locations", "mandatory"],
                ["vastai-private-templates", "mandatory"],
                ["vastai-registry-logins-secret", "mandatory"],
            ]);
        });
    });
});
