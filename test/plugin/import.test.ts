import { ResourceKind } from "../../provider/dynamic/shim";
import { pluginTypeToken } from "../../provider/dynamic/typeTokens";
import { Props } from "../../testkit/host/providerHost";
import { PluginResource } from "../../testkit/host/pluginResource";
import { clientFor } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

/**
 * `pulumi import` through the provider plugin, against the emulator: a resource made outside
 * Pulumi is read by its id alone (the engine's import step sends nothing else), the program that
 * declares it as it is then checks and diffs to no change; after the import, a change of the
 * program shows in the next plan, what the service never shows back included; an id the account
 * has none of fails the import, saying so. Why each read takes what it takes: docs/design/import.md.
 */
const LAPTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyImportLaptop000000000000 me@laptop";
const DESKTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyImportDesktop00000000000 me@desktop";

describe("pulumi import through the provider plugin", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: true } });
    });
    afterAll(() => stack.stop());

    const urn = (kind: ResourceKind, name: string) => stack.host.urn(pluginTypeToken(kind), name);
    const declare = (kind: ResourceKind, name: string, args: object) => () => new PluginResource(kind, name, args);

    /** The engine's calls of an import, by hand: Read with the id alone, Check against what it returned, Diff against what it read. */
    async function importCalls(kind: ResourceKind, name: string, id: string, args: Props) {
        const read = await stack.host.read(id, urn(kind, name), {});
        const checked = await stack.host.check(urn(kind, name), read.inputs!, args);
        const diff = await stack.host.diff(read.id, urn(kind, name), read.properties, checked.inputs, read.inputs);
        return { read, checked, diff };
    }

    /** What the service made of requests that change something: an import sends none. */
    const writes = () => stack.emu.requests.filter((r) => r.method !== "GET" && !r.path.includes("/search/") && !r.path.startsWith("/api/v0/bundles"));

    describe("Template", () => {
        /** Made as the vendor CLI makes one (`vastai create template --ssh --direct --login ...`), blanks and all. */
        const made = () =>
            stack.emu.model.addTemplate(stack.emu.demoUser.id, {
                name: "trainer",
                image: "registry.example.com/team/trainer",
                tag: "2.4",
                desc: "",
                env: "-e MODEL=llama -p 8080:8080",
                runtype: "ssh",
                ssh_direct: true,
                use_ssh: true,
                jup_direct: false,
                jupyter_dir: null,
                recommended_disk_space: 20,
                private: true,
                docker_login_repo: "registry.example.com",
                docker_login_user: "",
                docker_login_pass: "registry-token-1",
                extra_filters: {},
            });
        const program = {
            name: "trainer",
            image: "registry.example.com/team/trainer",
            tag: "2.4",
            env: { MODEL: "llama", "-p 8080:8080": "1" },
            runtype: "ssh",
            sshDirect: true,
            useSsh: true,
            recommendedDiskSpace: 20,
            dockerLoginRepo: "registry.example.com",
            dockerLoginPass: "registry-token-1",
        };

        it("reads every field but the registry password; the program that says them plans no change, its password taken", async () => {
            const template = made();
            const { read, checked, diff } = await importCalls("template", "imported-template", String(template.id), program);
            expect(read.id).toBe(String(template.id));
            expect(read.properties).toMatchObject({ templateId: template.id, hashId: template.hash_id, creatorId: stack.emu.demoUser.id, takenAtImport: ["dockerLoginPass"] });
            expect(read.properties).not.toHaveProperty("dockerLoginPass");
            expect(read.inputs).toMatchObject({ name: "trainer", tag: "2.4", env: { MODEL: "llama", "-p 8080:8080": "1" }, sshDirect: true, recommendedDiskSpace: 20, private: true });
            expect(checked.failures).toEqual([]);
            expect(diff).toMatchObject({ changes: "none", replaces: [], detailedDiff: {} });
        });

        it("after the import: an edit of the program shows and is made, the password's too; a refresh finds nothing to change", async () => {
            const { engine, emu } = stack;
            const template = made();
            emu.clearLog();
            const [imported] = await engine.run([{ up: declare("template", "trainer", program), import: { trainer: String(template.id) } }]);
            expect(imported.import).toEqual(["trainer"]);
            expect(writes()).toEqual([]);
            expect(engine.get("trainer").id).toBe(String(template.id));

            const steps: string[][] = [];
            engine.onStep = (e) => e.op === "update" && steps.push(e.because);
            const [edited, rotated, refreshed] = await engine.run([
                { up: declare("template", "trainer", { ...program, desc: "fine-tuning" }) },
                { up: declare("template", "trainer", { ...program, desc: "fine-tuning", dockerLoginPass: "registry-token-2" }) },
                { refresh: true },
            ]);
            engine.onStep = undefined;
            expect([edited.update, rotated.update]).toEqual([["trainer"], ["trainer"]]);
            expect(steps).toEqual([["desc"], ["dockerLoginPass"]]);
            expect(emu.model.templates.get(template.id)?.fields).toMatchObject({ desc: "fine-tuning", docker_login_pass: "registry-token-2" });
            expect(refreshed.same).toEqual(["trainer"]);
            expect(engine.get("trainer").outputs).not.toHaveProperty("takenAtImport");
            await engine.destroy();
            expect(emu.model.templates.get(template.id)?.deleted).toBe(true);
        });

        it("a field the program says otherwise fails the import, naming it; another account's public template is refused", async () => {
            const template = made();
            await expect(stack.engine.up(declare("template", "other-tag", { ...program, tag: "2.5" }), { import: { "other-tag": String(template.id) } })).rejects.toThrow(
                "inputs to import do not match the existing resource: [tag]",
            );
            const theirs = stack.emu.model.addTemplate(stack.emu.otherUser.id, { name: "public", image: "busybox", private: false });
            await expect(stack.host.read(String(theirs.id), urn("template", "theirs"), {})).rejects.toThrow(
                `vastai: import Template ${theirs.id} failed: it is another account's public template`,
            );
            expect(stack.engine.state.size).toBe(0);
        });
    });

    describe("Instance", () => {
        /** Rented outside Pulumi, as the console or the vendor CLI would. */
        async function rentedElsewhere(request: Record<string, unknown>) {
            const offer = stack.emu.addOffer();
            const { instanceId } = await clientFor(stack.emu).instances.create(offer.id, request);
            return { offerId: offer.id, instanceId };
        }
        const request = { image: "busybox", label: "from-the-console", disk: 16, env: { MODEL: "llama" }, onstart: "echo started" };
        const programFor = (offerId: number) => ({ offerId, image: "busybox", label: "from-the-console", disk: 16, env: { MODEL: "llama" }, onstart: "echo started" });

        it("reads what the instance shows; the program's offer, onstart and env are taken, once its image, disk and env agree", async () => {
            const { offerId, instanceId } = await rentedElsewhere(request);
            const { read, checked, diff } = await importCalls("instance", "imported-instance", String(instanceId), programFor(offerId));
            expect(read.properties).toMatchObject({ instanceId, adopt: instanceId, label: "from-the-console", image: "busybox", disk: 16, machineId: expect.any(Number), accountId: stack.emu.demoUser.id });
            expect(read.properties.takenAtImport).toEqual(expect.arrayContaining(["offerId", "onstart", "env", "imageLogin", "image", "disk", "price"]));
            // Neither the env (which part is the program's the record does not say; a value may be a secret) nor what the service never shows.
            for (const unread of ["onstart", "env", "effectiveEnv", "offerId", "rentedOfferId"]) expect(read.properties).not.toHaveProperty(unread);
            expect(checked.failures).toEqual([]);
            expect(diff).toMatchObject({ changes: "none", replaces: [], detailedDiff: {} });
            stack.emu.model.instances.get(instanceId)!.destroyed = true;
        });

        it("after the import: a label edit is made in place; a new onstart, never read back, plans a replacement; a refresh keeps it in state", async () => {
            const { engine, emu } = stack;
            const { offerId, instanceId } = await rentedElsewhere(request);
            emu.clearLog();
            const [imported] = await engine.run([{ up: declare("instance", "worker", programFor(offerId)), import: { worker: String(instanceId) } }]);
            expect(imported.import).toEqual(["worker"]);
            expect(writes()).toEqual([]);

            const [relabelled, refreshed] = await engine.run([{ up: declare("instance", "worker", { ...programFor(offerId), label: "managed" }) }, { refresh: true }]);
            expect(relabelled.update).toEqual(["worker"]);
            expect(emu.instanceView(instanceId)).toMatchObject({ label: "managed" });
            expect(refreshed.same).toEqual(["worker"]);
            // The update wrote the program's values into the outputs, as a create would have.
            expect(engine.get("worker").outputs).toMatchObject({ onstart: "echo started", offerId, label: "managed" });
            expect(engine.get("worker").outputs).not.toHaveProperty("takenAtImport");

            const plan = await engine.preview(declare("instance", "worker", { ...programFor(offerId), label: "managed", onstart: "echo changed" }));
            expect(plan).toEqual([{ op: "replace", name: "worker", type: pluginTypeToken("instance"), because: ["onstart"] }]);
            expect(emu.requests.filter((r) => r.method === "PUT" && r.path.startsWith("/api/v0/asks/"))).toEqual([]);
            await engine.destroy();
            expect(emu.model.instances.get(instanceId)?.destroyed).toBe(true);
        });

        it("a change of what was taken shows, before a refresh and after it: state's inputs keep the first plan's values, the outputs none of them", async () => {
            const { engine, emu } = stack;
            const { offerId, instanceId } = await rentedElsewhere(request);
            const changed = declare("instance", "kept", { ...programFor(offerId), onstart: "echo changed", imageLogin: "-u me -p token ghcr.io" });
            await engine.run([{ up: declare("instance", "kept", programFor(offerId)), import: { kept: String(instanceId) } }]);
            const replacesForOnstart = [{ op: "replace", name: "kept", type: pluginTypeToken("instance"), because: ["onstart"] }];
            expect(await engine.preview(changed)).toEqual(replacesForOnstart);

            const [, same] = await engine.run([{ refresh: true }, { up: declare("instance", "kept", programFor(offerId)) }]);
            expect(engine.get("kept").inputs).toMatchObject({ onstart: "echo started", offerId, env: { MODEL: "llama" }, image: "busybox" });
            // A refreshed output is secret only where it was before: the program's env (a secret, maybe) never goes there.
            for (const taken of ["onstart", "env", "offerId"]) expect(engine.get("kept").outputs).not.toHaveProperty(taken);
            expect(engine.get("kept").outputs.takenAtImport).toEqual(expect.arrayContaining(["onstart", "env"]));
            expect(same.same).toEqual(["kept"]);
            expect(await engine.preview(changed)).toEqual(replacesForOnstart);
            expect(emu.model.instances.get(instanceId)?.destroyed).toBe(false);
            await engine.destroy();
        });

        it("`pulumi import` with no program: the read's inputs check as a program's; the first up takes the program's values", async () => {
            const { engine } = stack;
            const { offerId, instanceId } = await rentedElsewhere(request);
            const { inputs, failures } = await engine.importById(pluginTypeToken("instance"), "generated", String(instanceId));
            expect(failures).toEqual([]);
            expect(inputs).toMatchObject({ adopt: instanceId, image: "busybox", disk: 16, label: "from-the-console", desiredState: "running" });
            // A refresh before any up keeps the mark: state's inputs are still the read's, not the program's.
            await engine.refresh();
            expect(engine.get("generated").outputs.takenAtImport).toEqual(expect.arrayContaining(["onstart", "offerId"]));
            expect(engine.get("generated").inputs.takenAtImport).toEqual(expect.arrayContaining(["onstart", "offerId"]));
            const [first] = await engine.run([{ up: declare("instance", "generated", programFor(offerId)) }]);
            expect(first.same).toEqual(["generated"]);
            expect(engine.get("generated").inputs).toMatchObject({ onstart: "echo started", offerId });
            const plan = await engine.preview(declare("instance", "generated", { ...programFor(offerId), onstart: "echo changed" }));
            expect(plan.map((p) => [p.op, p.because])).toEqual([["replace", ["onstart"]]]);
            await engine.destroy();
        });

        it("a program that says otherwise of what the instance was created with fails the import, naming each; an env value is never printed", async () => {
            const { engine, emu } = stack;
            const { offerId, instanceId } = await rentedElsewhere({ ...request, env: { MODEL: "llama", TOKEN: "secret-value-1" } });
            const wrong = { ...programFor(offerId), image: "alpine", disk: 20, env: { MODEL: "mistral", TOKEN: "secret-value-2" } };
            const failed = engine.up(declare("instance", "mismatch", wrong), { import: { mismatch: String(instanceId) } });
            await expect(failed).rejects.toThrow(
                `vastai:index:Instance ${instanceId}, just imported: the program disagrees with what it has, which only a replacement would change:\n` +
                    `  image: the program says alpine, instance ${instanceId} runs busybox\n  disk: the program says 20 GB, instance ${instanceId} has 16 GB\n` +
                    `  env.MODEL: the program's value is not the one instance ${instanceId} has\n  env.TOKEN: the program's value is not the one instance ${instanceId} has`,
            );
            await expect(failed).rejects.not.toThrow(/secret-value/);
            expect(engine.state.size).toBe(0);
            expect(emu.model.instances.get(instanceId)?.destroyed).toBe(false);
            emu.model.instances.get(instanceId)!.destroyed = true;
        });
    });

    describe("SshKey", () => {
        it("reads the key and its account; no change for the program that says it; a new key text plans a replacement", async () => {
            const { engine, emu } = stack;
            const key = emu.model.addSshKey(emu.demoUser.id, LAPTOP);
            const { read, diff } = await importCalls("sshKey", "laptop", String(key.id), { publicKey: `${LAPTOP}\n` });
            expect(read.properties).toEqual({ publicKey: LAPTOP, sshKeyId: key.id, accountId: emu.demoUser.id });
            expect(diff).toMatchObject({ changes: "none", detailedDiff: {} });

            await engine.run([{ up: declare("sshKey", "laptop", { publicKey: LAPTOP }), import: { laptop: String(key.id) } }, { refresh: true }]);
            const plan = await engine.preview(declare("sshKey", "laptop", { publicKey: DESKTOP }));
            expect(plan).toEqual([{ op: "replace", name: "laptop", type: pluginTypeToken("sshKey"), because: ["publicKey"] }]);
            await engine.destroy();
            expect(emu.model.sshKeys.has(key.id)).toBe(false);
        });
    });

    describe.each([
        ["volume", false],
        ["networkVolume", true],
    ] as const)("%s", (kind, network) => {
        it("reads its name and size; the program's offer is taken; a new query is recorded in place, a new size plans a replacement", async () => {
            const { engine, emu } = stack;
            const geolocation = network ? "Tromsø, NO" : "Trondheim, NO";
            const offer = emu.addVolumeOffer({ network, diskSpace: 500, storageCost: 0.1, geolocation });
            await clientFor(emu).volumes.create(offer.id, 20, `data_${kind}`, network ? "network" : "local");
            const volume = emu.liveVolumes().find((v) => v.name === `data_${kind}`)!;
            const program = { offerId: offer.id, sizeGb: 20, name: `data_${kind}` };

            const { read, diff } = await importCalls(kind, `data-${kind}`, String(volume.id), program);
            expect(read.properties).toMatchObject({ volumeId: volume.id, name: `data_${kind}`, sizeGb: 20, adopt: volume.id, takenAtImport: ["offerId", "offer", "adopt"] });
            expect(diff).toMatchObject({ changes: "none", detailedDiff: {} });

            const name = `data-${kind}`;
            const query = (max: number) => ({ sizeGb: 20, name: `data_${kind}`, offer: { filters: { geolocation: { eq: geolocation } }, maxPricePerGbMonth: max } });
            const [imported, requeried] = await engine.run([
                { up: declare(kind, name, query(0.2)), import: { [name]: String(volume.id) } },
                { up: declare(kind, name, query(0.3)) },
            ]);
            expect(imported.import).toEqual([name]);
            expect(requeried.update).toEqual([name]);
            const plan = await engine.preview(declare(kind, name, { ...query(0.3), sizeGb: 30 }));
            expect(plan).toEqual([{ op: "replace", name, type: pluginTypeToken(kind), because: ["sizeGb"] }]);
            await expect(engine.up(declare(kind, "other", { sizeGb: 20, name: `data_${kind}`, adopt: volume.id + 1000 }), { import: { other: String(volume.id) } })).rejects.toThrow(
                `adopt: the program adopts ${network ? "network volume" : "volume"} ${volume.id + 1000}, this import is of ${network ? "network volume" : "volume"} ${volume.id}`,
            );
            await engine.destroy();
            expect(emu.liveVolumes()).toEqual([]);
        });
    });

    describe("ApiKey", () => {
        it("cannot be imported: the service shows its secret only once; the error says so and what to do instead", async () => {
            const key = stack.emu.createKey({ api: { user_read: {} } });
            await expect(stack.host.read(String(key.id), urn("apiKey", "ci"), {})).rejects.toThrow(
                new RegExp(`vastai: import ApiKey ${key.id} failed: the service shows an API key's secret only once.*Declare a new ApiKey`),
            );
            expect(stack.emu.model.findKeyById(key.id)?.revokedStatus).toBeUndefined();
        });
    });

    it.each<[ResourceKind, string]>([
        ["template", "template"],
        ["instance", "instance"],
        ["sshKey", "SSH key"],
        ["volume", "volume"],
        ["networkVolume", "network volume"],
        ["apiKey", "API key"],
    ])("%s: an id the account has none of fails the import, naming the type, the id and what to check", async (kind, noun) => {
        const type = pluginTypeToken(kind).split(":").pop();
        const missing = await stack.host.read("424242", urn(kind, "missing"), {}).catch((e) => e);
        expect(codeIn(missing)).toBe("not_on_account");
        expect(missing.message).toMatch(
            new RegExp(`vastai: import ${type} 424242 failed: no such ${noun} on this account \\(the account of the API key in use\\)\\. Check the id \\(.+\\), and that vastai:apiKey`),
        );
        await expect(stack.host.read("not-a-number", urn(kind, "missing"), {})).rejects.toThrow(`vastai: import ${type} "not-a-number" failed: the id must be`);
    });
});
