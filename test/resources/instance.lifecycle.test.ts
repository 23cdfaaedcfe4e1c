import { Instance, InstanceArgs, Template } from "../../provider";
import { UNKNOWN } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { TestStack, startStack } from "../../testkit/support/stack";

/** The create's key (slot, creation inputs, generation): the service's record of the create, by which the next `up` on any machine finds it. */
const CREATE_KEY = expect.stringMatching(/^[0-9a-f]{24}\.[0-9a-f]{24}\.0$/);

/** What a program run sends for the instance: type, name and inputs with the real `__provider`. */
async function programInputs(instanceArgs: InstanceArgs, name = "gpu") {
    const [reg] = await registerAsProgram(() => new Instance(name, instanceArgs));
    return reg;
}

describe("Instance lifecycle through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        // Long enough in `loading` that the wait sees it (the provider polls at 1/100 of live speed).
        stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 20, runningAfterMs: 300 } } });
    });
    afterAll(() => stack.stop());

    it("check → create (waits through loading) → label edit in place → refresh → image edit replaces → delete → read gone", async () => {
        const { host, emu } = stack;
        const offer = emu.addOffer();
        const args: InstanceArgs = {
            offerId: offer.id,
            image: "nvidia/cuda:12.4.1-base-ubuntu22.04",
            env: '-e HF_HOME=/data/hf -p 8080:8080',
            disk: 32,
            runtype: "ssh",
            onstart: "echo hello",
            label: "trainer-1",
            imageLogin: "-u bot -p ghp_secret_token ghcr.io",
        };
        const reg = await programInputs(args);
        const urn = host.urn(reg.type, reg.name);
        expect(reg.type).toBe("pulumi-nodejs:dynamic/vastai:Instance");
        const plain = { ...reg.inputs, imageLogin: "-u bot -p ghp_secret_token ghcr.io" };

        const checked = await host.check(urn, {}, plain);
        expect(checked.failures).toEqual([]);
        expect(checked.inputs).toMatchObject({
            env: { HF_HOME: "/data/hf", "-p 8080:8080": "1" },
            waitForRunning: true,
            readyTimeoutSeconds: 900,
            maxCreateAttempts: 3,
        });

        const created = await host.create(urn, checked.inputs);
        const instanceId = created.properties.instanceId as number;
        expect(created.id).toBe(String(instanceId));
        expect(created.properties).toMatchObject({
            actualStatus: "running",
            intendedStatus: "running",
            sshHost: "ssh5.vast.ai",
            sshPort: expect.any(Number),
            publicIpaddr: "203.0.113.10",
            ports: { "22/tcp": expect.any(Number), "8080/tcp": expect.any(Number) },
            machineId: offer.machineId,
            dphTotal: 0.42,
            label: "trainer-1",
            effectiveEnv: { HF_HOME: "/data/hf", "-p 8080:8080": "1" },
        });

        // One call: the program's fields and label, and the placement token (how a lost answer's instance is found) in the env.
        const [put] = emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`);
        expect(put.body).toEqual({
            client_id: "me",
            image: "nvidia/cuda:12.4.1-base-ubuntu22.04",
            env: { HF_HOME: "/data/hf", "-p 8080:8080": "1", PULUMI_VASTAI_PLACEMENT: expect.stringMatching(new RegExp(`^${offer.id}-[0-9a-f]{12}$`)), PULUMI_VASTAI_CREATE: CREATE_KEY },
            disk: 32,
            runtype: "ssh",
            onstart: "echo hello",
            image_login: "-u bot -p ghp_secret_token ghcr.io",
            label: "trainer-1",
        });
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`)).toEqual([]);

        // It was seen loading on the way, and the user was told.
        expect(emu.requestsTo("GET", "/api/v1/instances/").length).toBeGreaterThan(1);
        expect(host.output.some((l) => l.includes(`instance ${instanceId} on offer ${offer.id}: loading`) && /s elapsed/.test(l))).toBe(true);
        expect(host.output.some((l) => l.includes(`instance ${instanceId} on offer ${offer.id} is running`))).toBe(true);
        // The registry token never reaches a log line.
        expect(host.output.join("\n")).not.toContain("ghp_secret_token");

        expect(await host.diff(created.id, urn, created.properties, checked.inputs)).toEqual({
            changes: "none",
            replaces: [],
            deleteBeforeReplace: false,
        });

        // label: in place, same instance
        const relabelled = await host.check(urn, checked.inputs, { ...plain, label: "trainer-renamed" });
        expect(await host.diff(created.id, urn, created.properties, relabelled.inputs)).toEqual({
            changes: "some",
            replaces: [],
            deleteBeforeReplace: false,
        });
        const updated = await host.update(created.id, urn, created.properties, relabelled.inputs);
        expect(updated.properties).toMatchObject({ instanceId, label: "trainer-renamed", actualStatus: "running", sshPort: created.properties.sshPort });
        expect(emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`).at(-1)?.body).toEqual({ label: "trainer-renamed" });
        expect(emu.instanceView(instanceId)?.label).toBe("trainer-renamed");
        expect(await host.diff(created.id, urn, updated.properties, relabelled.inputs)).toMatchObject({ changes: "none" });

        // refresh: same instance, fresh status, and nothing to do afterwards
        const read = await host.read(created.id, urn, updated.properties, relabelled.inputs);
        expect(read.id).toBe(String(instanceId));
        expect(read.properties).toMatchObject({ actualStatus: "running", publicIpaddr: "203.0.113.10", label: "trainer-renamed" });
        expect(read.inputs).not.toHaveProperty("instanceId");
        expect(await host.diff(created.id, urn, read.properties, read.inputs!)).toMatchObject({ changes: "none" });
        expect(await host.diff(created.id, urn, read.properties, relabelled.inputs)).toMatchObject({ changes: "none" });

        // a label changed in the console reads back, so the program's label is put back
        emu.model.instances.get(instanceId)!.label = "console";
        const drifted = await host.read(created.id, urn, read.properties, read.inputs);
        expect(drifted.inputs).toMatchObject({ label: "console" });
        expect(await host.diff(created.id, urn, drifted.properties, relabelled.inputs)).toEqual({
            changes: "some",
            replaces: [],
            deleteBeforeReplace: false,
        });

        // image: replaced, deleting first since the new instance needs the same offer
        const reimaged = await host.check(urn, relabelled.inputs, { ...plain, label: "trainer-renamed", image: "nvidia/cuda:12.6.0-base-ubuntu24.04" });
        expect(await host.diff(created.id, urn, read.properties, reimaged.inputs)).toEqual({
            changes: "some",
            replaces: ["image"],
            deleteBeforeReplace: true,
        });
        // ...and on another offer, the new one starts before the old one goes
        const moved = await host.check(urn, relabelled.inputs, { ...plain, label: "trainer-renamed", offerId: offer.id + 1000 });
        expect(await host.diff(created.id, urn, read.properties, moved.inputs)).toEqual({
            changes: "some",
            replaces: ["offerId"],
            deleteBeforeReplace: false,
        });
        // during preview, a value not known yet (a template being edited) means replace
        const preview = await host.check(urn, relabelled.inputs, { ...plain, label: "trainer-renamed", templateHashId: UNKNOWN });
        expect(preview.failures).toEqual([]);
        expect(await host.diff(created.id, urn, read.properties, preview.inputs)).toMatchObject({ changes: "some", replaces: ["templateHashId"] });

        // delete: DELETE with {}; then gone on read; deleting again succeeds
        await host.delete(created.id, urn, read.properties);
        expect(emu.requestsTo("DELETE", `/api/v0/instances/${instanceId}/`)[0].body).toEqual({});
        expect(emu.liveInstances().some((i) => i.id === instanceId)).toBe(false);
        expect(await host.read(created.id, urn, read.properties)).toEqual({ id: "", properties: expect.anything(), inputs: undefined });
        await expect(host.delete(created.id, urn, read.properties)).resolves.toBeUndefined();
    });

    it("check: templateId is refused with a pointer to templateHashId; image or template required; typos named", async () => {
        const { host } = stack;
        const reg = await programInputs({ offerId: 1, image: "busybox" }, "checks");
        const urn = host.urn(reg.type, reg.name);
        const withTemplateId = await host.check(urn, {}, { ...reg.inputs, templateId: 30001 });
        expect(withTemplateId.failures).toEqual([
            { property: "", reason: expect.stringMatching(/not accepted.*use templateHashId, e\.g\. templateHashId: template\.hashId/) },
        ]);
        const { image: _image, ...withoutImage } = reg.inputs;
        expect((await host.check(urn, {}, withoutImage)).failures).toEqual([
            { property: "image", reason: "give an image, or a templateHashId whose template has one" },
        ]);
        const typo = await host.check(urn, {}, { ...reg.inputs, dsik: 20, disk: 4 });
        expect(typo.failures).toEqual(
            expect.arrayContaining([
                { property: "", reason: 'unknown property "dsik"; did you mean "disk"?' },
                { property: "disk", reason: "must be at least 8 GB" },
            ]),
        );
        const longValue = await host.check(urn, {}, { ...reg.inputs, env: `-e TOKEN=${"x".repeat(300)} -p 8080:8080` });
        expect(longValue.failures).toEqual([{ property: "env.TOKEN", reason: "is 300 characters; the service accepts at most 256" }]);
    });

    it("with a Template: merged env in the request, never the template's volume; a template edit replaces the instance", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const templateArgs = {
            name: "trainer-tpl",
            image: "pytorch/pytorch",
            tag: "2.3.0-cuda12.1-cudnn8-runtime",
            env: "-e MODE=train -e SHARED=from-template -p 8888:8888",
            runtype: "ssh" as const,
            recommendedDiskSpace: 40,
            volumeInfo: { create_new: true, volume_id: 77, size: 100, mount_path: "/data" },
        };
        const program = (tplArgs: typeof templateArgs) => () => {
            const template = new Template("tpl", tplArgs);
            const instance = new Instance("gpu", {
                offerId: offer.id,
                templateHashId: template.hashId,
                env: { SHARED: "from-instance", EXTRA: "1", "-p 8080:8080": "1" },
                label: "with-template",
            });
            return [template, instance];
        };

        const first = await engine.up(program(templateArgs));
        expect(first.create.sort()).toEqual(["gpu", "tpl"]);
        const tpl = engine.get("tpl").outputs;
        const gpu = engine.get("gpu").outputs;
        const mergedEnv = { EXTRA: "1", MODE: "train", SHARED: "from-instance", "-p 8080:8080": "1", "-p 8888:8888": "1" };
        const [put] = emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`);
        expect(put.body).toEqual({
            client_id: "me",
            template_hash_id: tpl.hashId,
            env: { ...mergedEnv, PULUMI_VASTAI_PLACEMENT: expect.any(String), PULUMI_VASTAI_CREATE: CREATE_KEY },
            label: "with-template",
        });
        expect(put.body).not.toHaveProperty("volume_info");
        expect(gpu).toMatchObject({ templateHashId: tpl.hashId, effectiveEnv: mergedEnv, actualStatus: "running", label: "with-template" });
        // What the service made of it agrees: template scalars applied, the merge as shown.
        const made = emu.model.instances.get(gpu.instanceId as number)!;
        expect(made.effective).toMatchObject({ image: "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime", env: mergedEnv, disk: 40 });
        expect(made.effective.volume_info).toBeUndefined();

        // the same program again: nothing to do
        expect(await engine.up(program(templateArgs))).toMatchObject({ same: ["tpl", "gpu"] });

        // edit the template: it updates in place with a new hashId, and that replaces the instance
        const edited = { ...templateArgs, tag: "2.4.0-cuda12.4-cudnn9-runtime" };
        const second = await engine.up(program(edited));
        expect(second.update).toEqual(["tpl"]);
        expect(second.replace).toEqual([{ name: "gpu", because: ["templateHashId"] }]);
        const newTpl = engine.get("tpl").outputs;
        const newGpu = engine.get("gpu").outputs;
        expect(newTpl.hashId).not.toBe(tpl.hashId);
        expect(newGpu.instanceId).not.toBe(gpu.instanceId);
        expect(newGpu).toMatchObject({ templateHashId: newTpl.hashId, actualStatus: "running" });
        // Same offer, so the old one went first; one instance is left, on the new template.
        const live = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(live.map((i) => i.id)).toEqual([newGpu.instanceId]);
        expect(live[0].effective.image).toBe("pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime");

        // refresh, then the program again: nothing to do
        await engine.refresh();
        expect(await engine.up(program(edited))).toMatchObject({ same: ["tpl", "gpu"] });

        expect((await engine.destroy()).sort()).toEqual(["gpu", "tpl"]);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });

    // The emulator took any volume_info until a review (contract §2.3 now checked there): this is
    // the provider's camelCase volumeInfo reaching the service in the contract's names and types.
    it("volumeInfo goes in the create as the contract's volume_info, which the service takes", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const wire = { create_new: false, volume_id: 5, mount_path: "/data" };
        await engine.up(() => new Instance("vol-link", { offerId: offer.id, image: "busybox", volumeInfo: { createNew: false, volumeId: 5, mountPath: "/data" } }));
        const [put] = emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`);
        expect(put).toMatchObject({ status: 200, body: { volume_info: wire } });
        expect(emu.model.instances.get(engine.get("vol-link").outputs.instanceId as number)!.effective.volume_info).toEqual(wire);
        await engine.destroy();
    });

    // Before: the service made a paid volume at the create, which no state held: destroying the
    // instance left it billed every month.
    it("a volume made by the create (volumeInfo.createNew) is refused at check, before anything is rented", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const volumeInfo = { createNew: true, volumeId: 77, size: 20, mountPath: "/scratch" };
        await expect(engine.up(() => new Instance("vol-new", { offerId: offer.id, image: "busybox", volumeInfo }))).rejects.toThrow(
            /volumeInfo\.createNew: true makes a paid volume when the instance is created that no Pulumi state holds.*attach it with \{ createNew: false, volumeId/s,
        );
        expect(emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`)).toEqual([]);
        expect(engine.state.size).toBe(0);
    });

    // The README ("Changes"): imageLogin and the readiness settings are only recorded.
    it("a new imageLogin or readiness setting is recorded in place: the same instance, no call to the service", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = (extra: Partial<InstanceArgs>) => () => new Instance("recorded", { offerId: offer.id, image: "busybox", imageLogin: "-u bot -p tok1 ghcr.io", ...extra });
        await engine.up(program({}));
        const { id } = engine.get("recorded");
        emu.clearLog();
        const changed = { imageLogin: "-u bot -p tok2 ghcr.io", readyTimeoutSeconds: 600, maxCreateAttempts: 5, waitForRunning: false };
        expect(await engine.up(program(changed))).toMatchObject({ update: ["recorded"], replace: [] });
        expect(engine.get("recorded")).toMatchObject({ id, inputs: changed });
        expect(emu.requests.filter((r) => r.method !== "GET")).toEqual([]);
        await engine.destroy();
    });

    it("instances from one template look it up once; an unknown hashId fails the create before anything is paid for", async () => {
        const { engine, emu } = stack;
        const [a, b] = [emu.addOffer(), emu.addOffer()];
        emu.clearLog();
        await engine.up(() => {
            const template = new Template("shared-tpl", { name: "shared-tpl", image: "busybox" });
            return [template, ...[a, b].map((offer, i) => new Instance(`from-tpl-${i}`, { offerId: offer.id, templateHashId: template.hashId }))];
        });
        const hashId = engine.get("shared-tpl").outputs.hashId as string;
        const lookups = emu.requestsTo("GET", "/api/v0/template/").filter((r) => r.query.select_filters?.includes(hashId));
        expect(lookups).toHaveLength(1);
        expect(emu.liveInstances().filter((i) => i.effective.template_hash_id === hashId)).toHaveLength(2);
        await engine.destroy();

        const c = emu.addOffer();
        await expect(engine.up(() => new Instance("no-such-tpl", { offerId: c.id, templateHashId: "0123456789abcdef0123456789abcdef" }))).rejects.toThrow(
            /no template with hashId 0123456789abcdef0123456789abcdef is visible to this account/,
        );
        expect(emu.requestsTo("PUT", `/api/v0/asks/${c.id}/`)).toEqual([]);
    });

    // Before: a template edited outside Pulumi keeps its old hash in state until a refresh, and a
    // replacing change of an instance pinned to its offer destroyed the instance first (one offer,
    // one instance), then failed its create on that hash: nothing left running, the up failed.
    // Each command in a fresh host, as Pulumi runs them (a host keeps the templates it found).
    it("a template edited outside Pulumi since the last refresh: a replacing change fails at check, before the pinned instance is destroyed, and says to refresh", async () => {
        const own = await startStack();
        const { emu, engine } = own;
        const offer = emu.addOffer();
        const program = (disk: number) => () => {
            const t = new Template("stale-tpl", { name: "stale-tpl", image: "busybox" });
            return [t, new Instance("on-stale-tpl", { offerId: offer.id, templateHashId: t.hashId, disk })];
        };
        const live = () => emu.liveInstances().filter((i) => i.offerId === offer.id);
        try {
            await engine.up(program(10));
            const id = Number(engine.get("on-stale-tpl").id);
            emu.consoleEditTemplate(Number(engine.get("stale-tpl").id), { desc: "edited in the console" });

            const refused = /on-stale-tpl: check failed: templateHashId: no template with hashId \w+ is visible to this account\. .*run `pulumi refresh`/;
            await own.freshHost();
            await expect(engine.preview(program(20))).rejects.toThrow(refused);
            await own.freshHost();
            await expect(engine.up(program(20))).rejects.toThrow(refused);
            expect(live().map((i) => i.id)).toEqual([id]);
            expect(engine.get("on-stale-tpl").id).toBe(String(id));

            // After the refresh the Template has its current hash, and the change replaces the instance on it.
            await own.freshHost();
            await engine.refresh();
            const [replaced] = await engine.run([{ up: program(20) }]);
            expect(replaced.replace).toEqual([{ name: "on-stale-tpl", because: ["templateHashId", "disk"] }]);
            const template = emu.model.templates.get(Number(engine.get("stale-tpl").id))!;
            expect(live().map((i) => [i.id, i.effective.template_hash_id])).toEqual([[Number(engine.get("on-stale-tpl").id), template.hash_id]]);
            await engine.destroy();
        } finally {
            await own.stop();
        }
    });
});
