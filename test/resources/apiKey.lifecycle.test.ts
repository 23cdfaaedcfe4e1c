import { ApiKey, ApiKeyArgs, VastAuthError, apiKeyPermissions } from "../../provider";
import { UNKNOWN } from "../../provider/dynamic/unknowns";
import { TemplateCreateRequest } from "../../provider/schemas/template";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { ProviderHost } from "../../testkit/host/providerHost";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";
import { TEST_TIME_SCALE, TestStack, startStack } from "../../testkit/support/stack";

const template: TemplateCreateRequest = {
    name: "written-by-a-reader",
    image: "busybox",
    docker_login_repo: "",
    docker_login_user: "",
    docker_login_pass: "",
};

/** What a program run sends for the key: type, name, inputs with the real `__provider`, and options. */
async function programRegistration(args: ApiKeyArgs, name = "reader") {
    const [reg] = await registerAsProgram(() => new ApiKey(name, args));
    return reg;
}

describe("ApiKey lifecycle through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("create scoped → use (allowed passes, disallowed is a 403 naming the permission) → diff → read → delete → refused", async () => {
        const { host, emu } = stack;
        const reg = await programRegistration({ name: "ci-reader", permissions: apiKeyPermissions("user_read") });
        const urn = host.urn(reg.type, reg.name);
        expect(reg.type).toBe("pulumi-nodejs:dynamic/vastai:ApiKey");
        // The engine encrypts `key` in state because the registration says so.
        expect(reg.additionalSecretOutputs).toEqual(["key"]);

        const checked = await host.check(urn, {}, reg.inputs);
        expect(checked.failures).toEqual([]);
        expect(checked.inputs).toMatchObject({ name: "ci-reader", permissions: { api: { user_read: {} } } });

        const created = await host.create(urn, checked.inputs);
        const { keyId, key } = created.properties as { keyId: number; key: string };
        expect(created.id).toBe(String(keyId));
        expect(key).toMatch(/^vastemu_/);
        const [post] = emu.requestsTo("POST", "/api/v0/auth/apikeys/");
        expect(post.body).toEqual({ name: "ci-reader", permissions: { api: { user_read: {} } } });
        // The secret is an output only: never in the provider text stored with every resource.
        expect(String(created.properties.__provider)).not.toContain(key);

        // The new key does what it was granted, and nothing more.
        const asReader = clientFor(emu, { apiKey: key });
        expect((await asReader.templates.search({ recommended: { eq: true } })).length).toBeGreaterThan(0);
        const refused = await asReader.templates.create(template).catch((e) => e);
        expect(refused).toBeInstanceOf(VastAuthError);
        expect(refused.status).toBe(403);
        expect(refused.missingPermission).toBe("user_write");
        expect(refused.message).toMatch(/HTTP 403 forbidden.*needs the "user_write" permission/);
        expect(refused.message).not.toContain(key);

        // Same program: nothing to do. Any change replaces, naming what changed.
        expect(await host.diff(created.id, urn, created.properties, checked.inputs)).toEqual({
            changes: "none",
            replaces: [],
            deleteBeforeReplace: false,
        });
        const wider = await host.check(urn, checked.inputs, {
            ...reg.inputs,
            permissions: apiKeyPermissions("user_read", "user_write").build(),
        });
        expect(await host.diff(created.id, urn, created.properties, wider.inputs)).toEqual({
            changes: "some",
            replaces: ["permissions"],
            deleteBeforeReplace: false,
        });
        const renamed = await host.check(urn, checked.inputs, { ...reg.inputs, name: "ci-reader-2" });
        expect((await host.diff(created.id, urn, created.properties, renamed.inputs)).replaces).toEqual(["name"]);

        // Refresh: the listing never holds the secret, so state keeps it; the next diff is clean.
        const read = await host.read(created.id, urn, created.properties, checked.inputs);
        expect(read.id).toBe(created.id);
        expect(read.properties).toMatchObject({ keyId, key, name: "ci-reader" });
        expect(await host.diff(created.id, urn, read.properties, read.inputs!)).toMatchObject({ changes: "none" });

        // Delete revokes: the key is refused from then on, and reads as gone.
        await host.delete(created.id, urn, read.properties);
        expect(emu.requestsTo("DELETE", `/api/v0/auth/apikeys/${keyId}/`)).toHaveLength(1);
        const afterwards = await asReader.templates.search().catch((e) => e);
        expect(afterwards).toBeInstanceOf(VastAuthError);
        expect(afterwards.status).toBe(401);
        expect(await host.read(created.id, urn, read.properties)).toMatchObject({ id: "" });
        await expect(host.delete(created.id, urn, read.properties)).resolves.toBeUndefined();

        expect(host.output.join("\n")).not.toContain(key);
    });

    it("refuses bad arguments in check, each with its property", async () => {
        const { host } = stack;
        const reg = await programRegistration({ name: "bad", permissions: apiKeyPermissions("user_read") }, "bad");
        const urn = host.urn(reg.type, reg.name);
        const check = (inputs: Record<string, unknown>) => host.check(urn, {}, { ...reg.inputs, ...inputs });

        expect((await check({ permissions: { api: { user_reed: {} } } })).failures).toEqual([
            { property: "permissions.api.user_reed", reason: 'unknown property "user_reed"; did you mean "user_read"?' },
        ]);
        expect((await check({ permissions: { api: {} } })).failures).toEqual([
            { property: "permissions.api", reason: "grant at least one permission category" },
        ]);
        expect((await check({ name: "" })).failures).toEqual([{ property: "name", reason: "must not be empty" }]);
        expect((await check({ key: "chosen-by-me" })).failures).toEqual([
            { property: "", reason: "key is set by the service and cannot be given" },
        ]);
        expect((await check({ nmae: "x" })).failures).toEqual([{ property: "", reason: 'unknown property "nmae"; did you mean "name"?' }]);
        // Before: any shape passed, and only the service refused it, after a green preview.
        expect((await check({ permissions: { api: { user_read: { "api.user.show": { constraints: "x" } } } } })).failures).toEqual([
            { property: "permissions.api.user_read.api.user.show.constraints", reason: expect.stringMatching(/must be an object of parameters, e.g. \{ id: \{ eq: 1227 \} \}/) },
        ]);
        expect((await check({ permissions: { api: { user_read: "all" } } })).failures).toEqual([
            { property: "permissions.api.user_read", reason: expect.stringMatching(/must be an object of endpoint rules/) },
        ]);
    });

    it("during preview, an unknown name or permissions passes check, and diff says the key may be replaced", async () => {
        const { host } = stack;
        const reg = await programRegistration({ name: "preview", permissions: apiKeyPermissions("user_read") }, "preview");
        const urn = host.urn(reg.type, reg.name);
        const known = await host.check(urn, {}, reg.inputs);
        const unknownPermissions = await host.check(urn, known.inputs, { ...reg.inputs, permissions: UNKNOWN });
        expect(unknownPermissions.failures).toEqual([]);
        const unknownRule = await host.check(urn, known.inputs, { ...reg.inputs, permissions: { api: { user_read: UNKNOWN } } });
        expect(unknownRule.failures).toEqual([]);
        const olds = { ...known.inputs, keyId: 1, key: "k" };
        expect(await host.diff("1", urn, olds, unknownPermissions.inputs)).toMatchObject({ changes: "some", replaces: ["permissions"] });
        expect(await host.diff("1", urn, olds, unknownRule.inputs)).toMatchObject({ changes: "some", replaces: ["permissions"] });
        const unknownName = await host.check(urn, known.inputs, { ...reg.inputs, name: UNKNOWN });
        expect(unknownName.failures).toEqual([]);
        expect(await host.diff("1", urn, olds, unknownName.inputs)).toMatchObject({ changes: "some", replaces: ["name"] });
    });

    it("passes constraints through to the service as given", async () => {
        const { host, emu } = stack;
        const rules = { "api.instance.request_logs": { constraints: { id: { eq: 1227 } } } };
        const reg = await programRegistration({ name: "logs-1227", permissions: apiKeyPermissions().grant("instance_read", rules) }, "logs");
        const urn = host.urn(reg.type, reg.name);
        const checked = await host.check(urn, {}, reg.inputs);
        const created = await host.create(urn, checked.inputs);
        const post = emu.requestsTo("POST", "/api/v0/auth/apikeys/").at(-1)!;
        expect(post.body).toEqual({ name: "logs-1227", permissions: { api: { instance_read: rules } } });
        await host.delete(created.id, urn, created.properties);
    });

    it("a create whose answer is lost keeps the key it made in state, without the secret, and is not re-sent; the next up replaces it", async () => {
        const { host, emu, engine } = stack;
        emu.faults.add({ method: "POST", path: "/api/v0/auth/apikeys/", fault: { kind: "lostResponse" } });
        const program = () => new ApiKey("lost", { name: "lost-one", permissions: apiKeyPermissions("user_read") });

        const error = await engine.up(program).catch((e) => e);
        const made = [...emu.model.keys.values()].filter((k) => k.name === "lost-one");
        expect(made).toHaveLength(1);
        expect(emu.requestsTo("POST", "/api/v0/auth/apikeys/").filter((r) => (r.body as { name?: string }).name === "lost-one")).toHaveLength(1);
        expect(error.message).toMatch(new RegExp(`the key it made \\(${made[0].id}\\) is kept in state`));
        // The listing cannot tell it from another stack's key of this name made in the same moments.
        expect(error.message).toContain(`${made[0].id} may be theirs; then remove it from this stack's state`);
        expect(error.message).not.toContain(made[0].key);
        expect(host.output.join("\n")).not.toContain(made[0].key);
        expect(engine.get("lost")).toMatchObject({ id: String(made[0].id), initFailed: true });
        expect(engine.get("lost").outputs.key).toBeUndefined();

        // Its secret is gone with the answer: the next up makes a new key, then revokes the lost one.
        const next = await engine.up(program);
        expect(next.replace).toEqual([{ name: "lost", because: ["key"] }]);
        expect(typeof engine.get("lost").outputs.key).toBe("string");
        expect(made[0].revokedStatus).toBeDefined();
        await engine.destroy();
    });

    // Before: "run `pulumi up` again" only, and a key the service made after the looks stayed live,
    // its secret lost, outside state, while the next up made another.
    it("a lost create whose key is not found in time says which key to revoke should it appear", async () => {
        const { emu, engine } = stack;
        const listed = await clientFor(emu).account.listApiKeys();
        const before = Math.max(0, ...listed.map((k) => k.id));
        emu.faults.add({ method: "POST", path: "/api/v0/auth/apikeys/", fault: { kind: "timeout", acted: false } });
        const error = await engine.up(() => new ApiKey("unseen", { name: "unseen-key", permissions: apiKeyPermissions("user_read") })).catch((e) => e);
        expect(error.message).toContain(`No key named "unseen-key" was found afterwards, but the service may still make it`);
        expect(error.message).toContain(`an API key named "unseen-key" with an id above ${before}`);
        expect(error.message).toMatch(/revoke it there \(its secret is lost\)/);
        expect(engine.state.size).toBe(0);
    });

    it("a lost create is told from a same-named key the account had before it, though the listing shows no creation times", async () => {
        const { emu, engine } = stack;
        // Made by hand a moment earlier, same name: the listing cannot date it (as the live one cannot).
        const byHand = await clientFor(emu).account.createApiKey({ name: "twin-name", permissions: { api: { user_read: {} } } });
        emu.faults.add({ method: "POST", path: "/api/v0/auth/apikeys/", fault: { kind: "lostResponse" } });
        const error = await engine.up(() => new ApiKey("twin", { name: "twin-name", permissions: apiKeyPermissions("user_read") })).catch((e) => e);
        const made = [...emu.model.keys.values()].filter((k) => k.name === "twin-name" && k.id !== byHand.id);
        expect(made).toHaveLength(1);
        expect(error.message).toMatch(new RegExp(`the key it made \\(${made[0].id}\\) is kept in state`));
        expect(engine.get("twin")).toMatchObject({ id: String(made[0].id), initFailed: true });
        await engine.destroy();
        expect(emu.model.keys.get(byHand.key)?.revokedStatus).toBeUndefined();
    });

    // Before: a lost create's look found the key a create of the same name, still waiting for its
    // answer, had made, and took it: two resources held one key, and replacing either revoked it.
    it("two keys of one name in one up: a lost create never takes the key the other is still waiting for", async () => {
        const { emu, engine } = stack;
        // The first create is refused unseen by a 502 (its outcome unknown); the second is made at
        // once, its answer late, while the first one's look goes on.
        emu.faults.add({ method: "POST", path: "/api/v0/auth/apikeys/", fault: { kind: "status", status: 502 } });
        emu.faults.add({ method: "POST", path: "/api/v0/auth/apikeys/", fault: { kind: "lateResponse", delayMs: 500 } });
        const program = () => ["first", "second"].map((n) => new ApiKey(n, { name: "same-name", permissions: apiKeyPermissions("user_read") }));
        await engine.up(program).catch(() => undefined);
        const ids = [...engine.state.values()].map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length);
        const made = [...emu.model.keys.values()].filter((k) => k.name === "same-name" && !k.revokedStatus);
        expect(made.every((k) => ids.includes(String(k.id)))).toBe(true);
        await engine.up(program);
        expect([...engine.state.values()].map((e) => e.outputs.key).every((k) => typeof k === "string")).toBe(true);
        await engine.destroy();
        expect([...emu.model.keys.values()].filter((k) => k.name === "same-name" && !k.revokedStatus)).toEqual([]);
    });

    it("a listing that cannot be read before the create sends nothing, so nothing is made outside state", async () => {
        const { emu, engine } = stack;
        const posts = emu.requestsTo("POST", "/api/v0/auth/apikeys/").length;
        emu.faults.add({ method: "GET", path: "/api/v0/auth/apikeys/", fault: { kind: "status", status: 502 }, times: 10 });
        await expect(engine.up(() => new ApiKey("unlisted", { name: "unlisted", permissions: apiKeyPermissions("user_read") }))).rejects.toThrow(/502/);
        emu.faults.clear();
        expect(emu.requestsTo("POST", "/api/v0/auth/apikeys/")).toHaveLength(posts);
        expect(engine.state.size).toBe(0);
    });

    it("runs through the mini engine: a permissions change makes the new key before revoking the old; destroy revokes", async () => {
        const { engine, emu } = stack;
        const program = (permissions: ApiKeyArgs["permissions"]) => () => new ApiKey("deployer", { name: "deployer", permissions });

        expect((await engine.up(program(apiKeyPermissions("instance_read")))).create).toEqual(["deployer"]);
        const first = engine.get("deployer").outputs as { keyId: number; key: string };
        expect((await engine.up(program({ api: { instance_read: {} } }))).same).toEqual(["deployer"]);

        const rotated = await engine.up(program(apiKeyPermissions("instance_read", "instance_write")));
        expect(rotated.replace).toEqual([{ name: "deployer", because: ["permissions"] }]);
        const second = engine.get("deployer").outputs as { keyId: number; key: string };
        expect(second.keyId).not.toBe(first.keyId);
        expect(emu.model.keys.get(first.key)?.revokedStatus).toBeDefined();
        expect(emu.model.keys.get(second.key)?.permissions).toEqual({ api: { instance_read: {}, instance_write: {} } });

        expect(await engine.destroy()).toEqual(["deployer"]);
        expect(emu.model.keys.get(second.key)?.revokedStatus).toBeDefined();
    });

    it("a revoke answered by a not-found about something else keeps the key in state, valid; the next destroy revokes it", async () => {
        const { engine, emu } = stack;
        await engine.up(() => new ApiKey("kept", { name: "kept", permissions: apiKeyPermissions("user_read") }));
        const { keyId, key } = engine.get("kept").outputs as { keyId: number; key: string };
        emu.faults.add({
            method: "DELETE",
            path: `/api/v0/auth/apikeys/${keyId}/`,
            fault: { kind: "status", status: 404, body: { success: false, error: "not_found", msg: "no such user session" } },
        });
        await expect(engine.destroy()).rejects.toThrow(/delete API key \d+ failed: the service answered that it is not found, but a read still finds it/);
        expect(engine.get("kept").id).toBe(String(keyId));
        expect(emu.model.keys.get(key)?.revokedStatus).toBeUndefined();

        expect(await engine.destroy()).toEqual(["kept"]);
        expect(emu.model.keys.get(key)?.revokedStatus).toBeDefined();
    });
});

describe("ApiKey made with a scoped stack key", () => {
    // The service's API reference answers 401 for "not authorized to create a key with the specified
    // permissions", as the emulator does; it answered 403 before.
    it("cannot grant a category the stack's key lacks: a 401 that says so", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const host = await ProviderHost.start({ env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) } });
        try {
            const stackKey = emu.createKey({ api: { user_read: {}, user_write: {} } }).key;
            await host.configure({ "vastai:apiKey": stackKey, "vastai:baseUrl": emu.url });
            const reg = await programRegistration({ name: "too-wide", permissions: apiKeyPermissions("user_read", "instance_write") }, "wide");
            const urn = host.urn(reg.type, reg.name);
            const checked = await host.check(urn, {}, reg.inputs);

            const error = await host.create(urn, checked.inputs).catch((e) => e);
            expect(error.message).toMatch(/HTTP 401 unauthorized: a key cannot grant permissions it does not hold/);
            expect(error.message).toMatch(/check that the stack's key \(vastai:apiKey\) has (instance_write, user_read|user_read, instance_write)/);
            expect(error.message).not.toContain(stackKey);
            expect([...emu.model.keys.values()].some((k) => k.name === "too-wide")).toBe(false);
        } finally {
            await host.stop();
            await emu.stop();
        }
    });
});

