import { Instance, SshKey, SshKeyArgs } from "../../provider";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { ProviderHost } from "../../testkit/host/providerHost";
import { eventually, startEmulator } from "../../testkit/support/fixtures";
import { TEST_TIME_SCALE, TestStack, startStack } from "../../testkit/support/stack";

const LAPTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyLaptop0000000000000000 me@laptop";
const DESKTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyDesktop000000000000000 me@desktop";

async function programRegistration(args: SshKeyArgs, name = "laptop") {
    const [reg] = await registerAsProgram(() => new SshKey(name, args));
    return reg;
}

describe("SshKey lifecycle through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("create → no-op diff → a new text replaces → read → delete → read gone", async () => {
        const { host, emu } = stack;
        // Read from a .pub file, with its final newline: the same key as without it.
        const reg = await programRegistration({ publicKey: `${LAPTOP}\n` });
        const urn = host.urn(reg.type, reg.name);
        expect(reg.type).toBe("pulumi-nodejs:dynamic/vastai:SshKey");

        const checked = await host.check(urn, {}, reg.inputs);
        expect(checked.failures).toEqual([]);
        expect(checked.inputs).toMatchObject({ publicKey: LAPTOP });

        const created = await host.create(urn, checked.inputs);
        const sshKeyId = created.properties.sshKeyId as number;
        expect(created.id).toBe(String(sshKeyId));
        expect(created.properties).toMatchObject({ publicKey: LAPTOP, sshKeyId });
        expect(emu.requestsTo("POST", "/api/v0/ssh/").at(-1)!.body).toEqual({ ssh_key: LAPTOP });
        expect(emu.model.sshKeys.get(sshKeyId)).toMatchObject({ publicKey: LAPTOP, userId: emu.demoUser.id });

        expect(await host.diff(created.id, urn, created.properties, checked.inputs)).toEqual({
            changes: "none",
            replaces: [],
            deleteBeforeReplace: false,
        });
        const other = await host.check(urn, checked.inputs, { ...reg.inputs, publicKey: DESKTOP });
        expect(await host.diff(created.id, urn, created.properties, other.inputs)).toEqual({
            changes: "some",
            replaces: ["publicKey"],
            deleteBeforeReplace: false,
        });

        const read = await host.read(created.id, urn, created.properties, checked.inputs);
        expect(read).toMatchObject({ id: created.id, properties: { publicKey: LAPTOP, sshKeyId } });
        expect(await host.diff(created.id, urn, read.properties, read.inputs!)).toMatchObject({ changes: "none" });

        await host.delete(created.id, urn, read.properties);
        expect(emu.requestsTo("DELETE", `/api/v0/ssh/${sshKeyId}/`)).toHaveLength(1);
        expect(emu.model.sshKeys.has(sshKeyId)).toBe(false);
        expect(await host.read(created.id, urn, read.properties)).toMatchObject({ id: "" });
        await expect(host.delete(created.id, urn, read.properties)).resolves.toBeUndefined();
        // The service answers a key it does not have with a 400 no_ssh_key (its API reference), not a 404.
        expect(emu.requestsTo("DELETE", `/api/v0/ssh/${sshKeyId}/`).at(-1)!.status).toBe(400);
        await eventually(async () => host.output.some((line) => line.includes(`SSH key ${sshKeyId} was already removed`)));
    });

    // Named in the reason, not as the failing property: the engine prints that property's value beside
    // the failure, and a private key pasted here must not reach the terminal or the CI log.
    it("refuses what is not an OpenSSH public key in check, naming the property in the reason", async () => {
        const { host } = stack;
        const reg = await programRegistration({ publicKey: LAPTOP }, "bad");
        const urn = host.urn(reg.type, reg.name);
        const check = (inputs: Record<string, unknown>) => host.check(urn, {}, { ...reg.inputs, ...inputs });

        expect((await check({ publicKey: "" })).failures).toEqual([{ property: "", reason: expect.stringMatching(/^publicKey: must be an OpenSSH public key/) }]);
        expect((await check({ publicKey: "AAAAC3NzaC1lZDI1NTE5 me@laptop" })).failures).toEqual([
            { property: "", reason: expect.stringMatching(/^publicKey: must be an OpenSSH public key/) },
        ]);
        expect((await check({ publicKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----" })).failures).toEqual([
            { property: "", reason: expect.stringMatching(/^publicKey: this is a private key/) },
        ]);
        for (const good of [
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host",
            "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTY=",
        ]) {
            expect((await check({ publicKey: good })).failures).toEqual([]);
        }
        expect((await check({ sshKeyId: 3 })).failures).toEqual([{ property: "", reason: "sshKeyId is set by the service and cannot be given" }]);
    });

    // Before: the refusal said to adopt it with `pulumi import`, which cannot reach a dynamic resource.
    it("a key already on the account is refused before any create, with its id and what to do", async () => {
        const { host, emu } = stack;
        const existing = emu.model.addSshKey(emu.demoUser.id, DESKTOP);
        const reg = await programRegistration({ publicKey: DESKTOP }, "twice");
        const urn = host.urn(reg.type, reg.name);
        const checked = await host.check(urn, {}, reg.inputs);
        const posts = emu.requestsTo("POST", "/api/v0/ssh/").length;
        const error = await host.create(urn, checked.inputs).catch((e) => e);
        expect(error.message).toContain(`the account has this key already, as SSH key ${existing.id}, and holds a key text once.`);
        // It may be another SshKey's, of a stack or of an earlier up: keeping that one comes first.
        expect(error.message).toContain("If another SshKey (of this stack or another) holds it, keep that one and leave this SshKey out of the program");
        expect(error.message).toContain(`Otherwise remove SSH key ${existing.id} in the Vast.ai console`);
        expect(error.message).not.toContain("pulumi import");
        expect(emu.requestsTo("POST", "/api/v0/ssh/")).toHaveLength(posts);
        emu.model.sshKeys.delete(existing.id);
    });

    // Before: the second was told to remove the first's key in the console, taking it from the SshKey that holds it.
    it("two SshKeys of one text in one program: the second is told to keep one SshKey, not to remove the first's key", async () => {
        const { engine } = stack;
        const error = await engine.up(() => [new SshKey("first", { publicKey: LAPTOP }), new SshKey("second", { publicKey: `${LAPTOP}\n` })]).catch((e) => e);
        const held = engine.get("first") ?? engine.get("second");
        expect(error.message).toContain(`another SshKey of this program holds this key text already (SSH key ${held.id})`);
        expect(error.message).not.toContain("Remove SSH key");
        await engine.destroy();
    });

    // Before: a lost create's look found the key a create of the same text, still waiting for its
    // answer, had made, and took it: two resources held one key, and removing either removed it.
    it("two SshKeys of one text in one up: a lost create never takes the key the other is still waiting for", async () => {
        const { emu, engine } = stack;
        // The first create is refused unseen by a 502 (its outcome unknown); the second is made at
        // once, its answer late, while the first one's look goes on.
        emu.faults.add({ method: "POST", path: "/api/v0/ssh/", fault: { kind: "status", status: 502 } });
        emu.faults.add({ method: "POST", path: "/api/v0/ssh/", fault: { kind: "lateResponse", delayMs: 500 } });
        await engine.up(() => [new SshKey("first", { publicKey: LAPTOP }), new SshKey("second", { publicKey: LAPTOP })]).catch(() => undefined);
        emu.faults.clear();
        const ids = [...engine.state.values()].map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect([...emu.model.sshKeys.values()].every((k) => ids.includes(String(k.id)))).toBe(true);
        await engine.destroy();
        expect(emu.model.sshKeys.size).toBe(0);
    });

    // Before: a key made by a lost create was matched by its creation time against this machine's
    // clock, so a service clock minutes behind left the key on the account and out of state.
    it("a lost create is found whatever the service's clock says; a listing that fails before the create sends nothing", async () => {
        const { engine, emu } = stack;
        const add = emu.model.addSshKey.bind(emu.model);
        emu.model.addSshKey = (userId: number, text: string) => add(userId, text, Date.now() - 3_600_000);
        try {
            emu.faults.add({ method: "POST", path: "/api/v0/ssh/", fault: { kind: "lostResponse" } });
            expect((await engine.up(() => new SshKey("skewed", { publicKey: LAPTOP }))).create).toEqual(["skewed"]);
            const [key] = [...emu.model.sshKeys.values()].filter((k) => k.publicKey === LAPTOP);
            expect(engine.get("skewed")).toMatchObject({ id: String(key.id) });
            expect(await engine.destroy()).toEqual(["skewed"]);
        } finally {
            emu.model.addSshKey = add;
        }

        const posts = emu.requestsTo("POST", "/api/v0/ssh/").length;
        emu.faults.add({ method: "GET", path: "/api/v0/ssh/", fault: { kind: "status", status: 502 }, times: 10 });
        await expect(engine.up(() => new SshKey("unlisted", { publicKey: LAPTOP }))).rejects.toThrow(/502/);
        emu.faults.clear();
        expect(emu.requestsTo("POST", "/api/v0/ssh/")).toHaveLength(posts);
        expect(emu.model.sshKeys.size).toBe(0);
    });

    it("a create whose answer is lost adopts the key it made, without sending it again", async () => {
        const { engine, emu } = stack;
        emu.faults.add({ method: "POST", path: "/api/v0/ssh/", fault: { kind: "lostResponse" } });
        const posts = emu.requestsTo("POST", "/api/v0/ssh/").length;

        const summary = await engine.up(() => new SshKey("lost", { publicKey: LAPTOP }));
        expect(summary.create).toEqual(["lost"]);
        const keys = [...emu.model.sshKeys.values()].filter((k) => k.publicKey === LAPTOP);
        expect(keys).toHaveLength(1);
        expect(emu.requestsTo("POST", "/api/v0/ssh/")).toHaveLength(posts + 1);
        expect(engine.get("lost")).toMatchObject({ id: String(keys[0].id), outputs: { sshKeyId: keys[0].id, publicKey: LAPTOP } });

        expect(await engine.destroy()).toEqual(["lost"]);
        expect(emu.model.sshKeys.size).toBe(0);
    });

    it("a create answered 'SSH key could not be retrieved' adopts the key when it was added, and fails when it was not", async () => {
        const { engine, emu } = stack;
        const notReadBack = { success: false, error: "SSH key could not be retrieved." };
        // Added, then the read-back failed: the key is there, made since the create left.
        emu.faults.add({ method: "POST", path: "/api/v0/ssh/", fault: { kind: "lostResponse", status: 400, body: notReadBack } });
        const summary = await engine.up(() => new SshKey("unread", { publicKey: LAPTOP }));
        expect(summary.create).toEqual(["unread"]);
        const [key] = [...emu.model.sshKeys.values()].filter((k) => k.publicKey === LAPTOP);
        expect(engine.get("unread")).toMatchObject({ id: String(key.id), outputs: { sshKeyId: key.id } });
        expect(await engine.destroy()).toEqual(["unread"]);

        // Not added: after the looks, the service's own words.
        emu.faults.add({ method: "POST", path: "/api/v0/ssh/", fault: { kind: "status", status: 400, body: notReadBack } });
        await expect(engine.up(() => new SshKey("unread", { publicKey: LAPTOP }))).rejects.toThrow(/SSH key could not be retrieved/);
        expect(emu.model.sshKeys.size).toBe(0);
        expect(engine.state.size).toBe(0);
    });

    it("an instance that depends on the key is created after it, and destroyed before it", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = () => {
            const key = new SshKey("laptop", { publicKey: LAPTOP });
            const gpu = new Instance("gpu", { offerId: offer.id, image: "busybox" }, { dependsOn: [key] });
            return [key, gpu];
        };
        const summary = await engine.up(program);
        expect(summary.create.sort()).toEqual(["gpu", "laptop"]);
        const keyAdded = emu.requestsTo("POST", "/api/v0/ssh/").at(-1)!;
        const rented = emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`).at(-1)!;
        expect(keyAdded.status).toBe(200);
        expect(rented.at).toBeGreaterThanOrEqual(keyAdded.at);
        expect(engine.get("gpu").outputs.actualStatus).toBe("running");

        expect((await engine.up(program)).same.sort()).toEqual(["gpu", "laptop"]);
        await engine.destroy();
        expect(emu.liveInstances()).toHaveLength(0);
        expect(emu.model.sshKeys.size).toBe(0);
    });
});

// The contract (§5.4) and the vendor's docs: a scoped key lacking the route's permission is refused
// with a 401 *or* a 403. Before: a 401 said only "wrong, expired or revoked", and never named the
// permission, so a person with a valid scoped key was sent to replace a key that was fine.
describe("SshKey made with a scoped stack key that the service refuses with a 401", () => {
    it("names the permission the refused call needs", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE, scopeRefusalStatus: 401 });
        const host = await ProviderHost.start({ env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) } });
        try {
            const readOnly = emu.createKey({ api: { user_read: {} } }).key;
            await host.configure({ "vastai:apiKey": readOnly, "vastai:baseUrl": emu.url });
            const reg = await programRegistration({ publicKey: LAPTOP }, "scoped");
            const urn = host.urn(reg.type, reg.name);
            const checked = await host.check(urn, {}, reg.inputs);

            const error = await host.create(urn, checked.inputs).catch((e) => e);
            expect(error.message).toMatch(/create SSH key ssh-ed25519 "me@laptop" failed: HTTP 401 unauthorized/);
            expect(error.message).toContain('a scoped key without the "user_write" permission this call needs');
            expect(error.message).not.toContain(readOnly);
            expect(emu.model.sshKeys.size).toBe(0);
        } finally {
            await host.stop();
            await emu.stop();
        }
    });
});
