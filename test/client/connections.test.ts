import { TemplateCreateRequest } from "../../provider/schemas/template";
import { Emulator } from "../../testkit/emulator/server";
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
 * of the connection it came on). Calls safe to send again keep theirs open; the others never go
 * on a kept one, so a connection the server closed under them cannot make their outcome unknown.
 */
describe("connections", () => {
    let emu: Emulator;
    afterEach(() => emu.stop());

    it("reads and deletes reuse one connection; each create and template edit opens its own", async () => {
        emu = await startEmulator({ dedupeTemplates: false });
        const vast = clientFor(emu);
        for (let i = 0; i < 3; i++) await vast.templates.search({ name: { eq: "connections" } });
        const created = (await vast.templates.create(template)).template;
        await vast.templates.edit({ hash_id: created.hash_id, name: "connections", image: "busybox", tag: "1.37" });
        await vast.account.currentUser();
        await vast.templates.delete(created.id);

        const byCall = emu.requests.map((r) => ({ call: `${r.method} ${r.path}`, connection: r.connection }));
        const reads = byCall.filter((r) => r.call !== `POST ${TEMPLATES}` && r.call !== `PUT ${TEMPLATES}`);
        const writes = byCall.filter((r) => r.call === `POST ${TEMPLATES}` || r.call === `PUT ${TEMPLATES}`);
        expect(reads).toHaveLength(5);
        expect(new Set(reads.map((r) => r.connection)).size).toBe(1);
        expect(writes).toHaveLength(2);
        // Each write on a connection of its own: seen for no other request.
        for (const w of writes) expect(byCall.filter((r) => r.connection === w.connection)).toEqual([w]);
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
