import { TemplateCreateRequest } from "../../provider/schemas/template";
import { Emulator, LoggedRequest } from "../../testkit/emulator/server";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";

const TEMPLATES = "/api/v0/template/";
const template: TemplateCreateRequest = {
    name: "connections",
    image: "busybox",
    docker_login_repo: "",
    docker_login_user: "",
    docker_login_pass: "",
};

/**
 * Which calls share a connection, read from the emulator's log (each request carries the number
 * of the connection it came on). Calls keep their connection for the next one, but for an
 * instance create and an API key create: those never go on a kept one, so a connection the
 * service closed under them cannot put their outcome in doubt.
 */
describe("connections", () => {
    let emu: Emulator;
    afterEach(() => emu.stop());

    it("reads, deletes, labels and template writes share one connection; instance and API key creates each open their own", async () => {
        emu = await startEmulator({ dedupeTemplates: false });
        const vast = clientFor(emu);
        const offer = emu.addOffer();
        for (let i = 0; i < 3; i++) await vast.templates.search({ name: { eq: "connections" } });
        const created = (await vast.templates.create(template)).template;
        await vast.templates.edit({ hash_id: created.hash_id, name: "connections", image: "busybox", tag: "1.37" });
        const { instanceId } = await vast.instances.create(offer.id, { image: "busybox" });
        await vast.instances.label(instanceId, "connections");
        await vast.account.createApiKey({ name: "connections", permissions: { api: { user_read: {} } } });
        await vast.account.currentUser();
        await vast.templates.delete(created.id);
        await vast.instances.destroy(instanceId);

        const own = (r: LoggedRequest) => r.path === `/api/v0/asks/${offer.id}/` || (r.method === "POST" && r.path === "/api/v0/auth/apikeys/");
        const kept = emu.requests.filter((r) => !own(r));
        const owning = emu.requests.filter(own);
        expect(kept).toHaveLength(9);
        expect(new Set(kept.map((r) => r.connection)).size).toBe(1);
        expect(owning).toHaveLength(2);
        // Each on a connection of its own: seen for no other request.
        for (const o of owning) expect(emu.requests.filter((r) => r.connection === o.connection)).toEqual([o]);
    });

    it("a kept connection the server closed while idle is replaced, and the call goes through", async () => {
        emu = await startEmulator({ keepAliveTimeoutMs: 30 });
        const vast = clientFor(emu);
        await vast.templates.search({});
        await new Promise((resolve) => setTimeout(resolve, 100));
        await vast.templates.search({});

        const [first, second] = emu.requestsTo("GET", TEMPLATES);
        expect(second.connection).not.toBe(first.connection);
        expect(emu.requests.every((r) => r.status === 200)).toBe(true);
    });

    it("a read whose kept connection is reset is sent again on a new one", async () => {
        emu = await startEmulator();
        const vast = clientFor(emu);
        await vast.templates.search({});
        emu.faults.add({ method: "GET", path: TEMPLATES, fault: { kind: "reset" }, times: 1 });
        await expect(vast.templates.search({})).resolves.toBeDefined();

        const [first, reset, retried] = emu.requestsTo("GET", TEMPLATES);
        expect(reset).toMatchObject({ connection: first.connection, fault: "reset" });
        expect(retried.connection).not.toBe(first.connection);
        expect(retried.status).toBe(200);
    });
});
