import { VastOutcomeUnknownError } from "../../provider/client/errors";
import { Pacer } from "../../provider/client/pacer";
import { TemplateCreateRequest } from "../../provider/schemas/template";
import { Emulator, LoggedRequest } from "../../testkit/emulator/server";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";

const TEMPLATES = "/api/v0/template/";
const template: TemplateCreateRequest = { name: "connections", image: "busybox", docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConnectionsTestKey000000000000000000000 connections@test";

/** The requests that came on no other request's connection. */
const alone = (emu: Emulator, r: LoggedRequest) => emu.requests.filter((o) => o.connection === r.connection).length === 1;

/**
 * Which calls share a connection, read from the emulator's log (each request carries the number
 * of the connection it came on). A call keeps its connection for the next, but for API key and
 * SSH key creates, whose outcome a stale connection must not put in doubt, and calls in a paced
 * bucket, whose arrivals must keep the spacing the pacer gave their departures.
 */
describe("connections", () => {
    let emu: Emulator;
    afterEach(() => emu.stop());

    it("unpaced, reads, deletes, labels, template writes and instance creates share one connection; API key and SSH key creates each open their own", async () => {
        emu = await startEmulator({ dedupeTemplates: false });
        const vast = clientFor(emu);
        const offer = emu.addOffer();
        for (let i = 0; i < 3; i++) await vast.templates.search({ name: { eq: "connections" } });
        const created = (await vast.templates.create(template)).template;
        await vast.templates.edit({ hash_id: created.hash_id, name: "connections", image: "busybox", tag: "1.37" });
        const { instanceId } = await vast.instances.create(offer.id, { image: "busybox" });
        await vast.instances.label(instanceId, "connections");
        await vast.account.createApiKey({ name: "connections", permissions: { api: { user_read: {} } } });
        await vast.sshKeys.create(PUBLIC_KEY);
        await vast.account.currentUser();
        await vast.templates.delete(created.id);
        await vast.instances.destroy(instanceId);

        const creates = ["POST /api/v0/auth/apikeys/", "POST /api/v0/ssh/"];
        const own = emu.requests.filter((r) => creates.includes(`${r.method} ${r.path}`));
        const kept = emu.requests.filter((r) => !own.includes(r));
        expect(own).toHaveLength(2);
        for (const r of own) expect(alone(emu, r)).toBe(true);
        expect(kept).toHaveLength(10);
        expect(new Set(kept.map((r) => r.connection)).size).toBe(1);
    });

    it("in a paced bucket every call opens its own connection; an unpaced one keeps it", async () => {
        emu = await startEmulator();
        // Template search is paced (3 s live, 3 ms here); with the pace scaled to nothing, it is not.
        const paced = clientFor(emu, { paceScale: 0.001, pacer: new Pacer() });
        for (let i = 0; i < 3; i++) await paced.templates.search({});
        for (const r of emu.requestsTo("GET", TEMPLATES)) expect(alone(emu, r)).toBe(true);

        emu.clearLog();
        const unpaced = clientFor(emu, { paceScale: 0, pacer: new Pacer() });
        for (let i = 0; i < 3; i++) await unpaced.templates.search({});
        expect(new Set(emu.requestsTo("GET", TEMPLATES).map((r) => r.connection)).size).toBe(1);
    });

    it("lets a kept connection go a second before the server's Keep-Alive hint runs out, so none is reused stale", async () => {
        // Node's server says "Keep-Alive: timeout=2" and closes at 2 s; the client lets go at 1 s.
        emu = await startEmulator({ keepAliveTimeoutMs: 2000 });
        const vast = clientFor(emu);
        await vast.templates.search({});
        await vast.templates.search({});
        await new Promise((resolve) => setTimeout(resolve, 1300));
        await vast.templates.search({});

        const [first, second, third] = emu.requestsTo("GET", TEMPLATES);
        expect(second.connection).toBe(first.connection);
        expect(third.connection).not.toBe(first.connection);
        expect(emu.requests.every((r) => r.status === 200)).toBe(true);
    });

    // The `reset` fault closes the connection without an answer: what a stale kept connection does.
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

    it("a template create whose kept connection is reset is not sent again: its outcome is unknown, for the provider's look-up", async () => {
        emu = await startEmulator();
        const vast = clientFor(emu);
        await vast.templates.search({});
        emu.faults.add({ method: "POST", path: TEMPLATES, fault: { kind: "reset" }, times: 1 });
        await expect(vast.templates.create(template)).rejects.toBeInstanceOf(VastOutcomeUnknownError);

        const [create] = emu.requestsTo("POST", TEMPLATES);
        expect(emu.requestsTo("POST", TEMPLATES)).toHaveLength(1);
        expect(create.connection).toBe(emu.requestsTo("GET", TEMPLATES)[0].connection);
    });

    it("an instance create whose kept connection is reset is not sent again: its outcome is unknown, for the provider's look-up", async () => {
        emu = await startEmulator();
        const vast = clientFor(emu);
        const offer = emu.addOffer();
        const rent = `/api/v0/asks/${offer.id}/`;
        await vast.templates.search({});
        emu.faults.add({ method: "PUT", path: rent, fault: { kind: "reset" }, times: 1 });
        await expect(vast.instances.create(offer.id, { image: "busybox" })).rejects.toBeInstanceOf(VastOutcomeUnknownError);

        const [create] = emu.requestsTo("PUT", rent);
        expect(emu.requestsTo("PUT", rent)).toHaveLength(1);
        expect(create.connection).toBe(emu.requestsTo("GET", TEMPLATES)[0].connection);
    });
});
