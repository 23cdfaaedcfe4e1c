import { VastAuthError } from "../../provider/client/errors";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";

describe("account API against the emulator", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());
    beforeEach(() => emu.clearLog());

    it("reads the current user without the api_key the service puts in the body", async () => {
        const user = await clientFor(emu).account.currentUser();
        expect(user).toEqual({ id: emu.demoUser.id, email: "demo@example.com", credit: 25, ssh_key: expect.any(String) });
        expect(JSON.stringify(user)).not.toContain(emu.demoKey);
        expect(emu.requestsTo("GET", "/api/v0/users/current/")).toHaveLength(1);
    });

    it("lists host machines by user_id, gpu_ram in bytes", async () => {
        const machines = await clientFor(emu).account.machines(emu.demoUser.id);
        const [req] = emu.requestsTo("GET", "/api/v0/machines");
        // The path the service's API reference names, slash included: the client follows no redirect.
        expect(req.path).toBe("/api/v0/machines/");
        expect(req.query).toEqual({ user_id: String(emu.demoUser.id) });
        expect(machines).toHaveLength(2);
        expect(machines[0]).toMatchObject({ gpu_name: "RTX 4090", gpu_ram: 24 * 1024 ** 3, gpu_occupancy: "R R I x", timeout: 0 });
    });

    it("creates, lists and deletes API keys; the list never holds a secret", async () => {
        const vast = clientFor(emu);
        const created = await vast.account.createApiKey({ name: "ci", permissions: { api: { user_read: {} } } });
        const [req] = emu.requestsTo("POST", "/api/v0/auth/apikeys/");
        expect(req.body).toEqual({ name: "ci", permissions: { api: { user_read: {} } } });
        expect(created.key).toMatch(/^vastemu_/);

        const listed = await vast.account.listApiKeys();
        // As the service's API reference shows a listed key: its name, no permissions, no creation time.
        expect(listed.find((k) => k.id === created.id)).toEqual({ id: created.id, name: "ci" });
        expect(JSON.stringify(listed)).not.toContain(created.key);

        const scoped = clientFor(emu, { apiKey: created.key });
        expect((await scoped.account.currentUser()).id).toBe(emu.demoUser.id);

        expect(await vast.account.deleteApiKey(created.id)).toEqual({ alreadyGone: false });
        expect(emu.requestsTo("DELETE", `/api/v0/auth/apikeys/${created.id}/`)).toHaveLength(1);
        await expect(scoped.account.currentUser()).rejects.toThrow(VastAuthError);
        expect(await vast.account.deleteApiKey(created.id)).toEqual({ alreadyGone: true });
    });

    it("sends key_params as the API reference documents it (an object) or as the vendor CLI does (a string)", async () => {
        const vast = clientFor(emu);
        for (const key_params of [{ ip_whitelist: ["203.0.113.7"] }, "advanced"]) {
            const key = await vast.account.createApiKey({ name: "with-params", permissions: { api: { user_read: {} } }, key_params });
            expect(emu.requestsTo("POST", "/api/v0/auth/apikeys/").pop()?.body).toMatchObject({ key_params });
            await vast.account.deleteApiKey(key.id);
        }
    });

    it("takes a revoke's documented text answer, and {success: true}, as done; {} or another text is not", async () => {
        const vast = clientFor(emu);
        const DELETE = /^\/api\/v0\/auth\/apikeys\/\d+\/$/;
        const key = await vast.account.createApiKey({ name: "revoked", permissions: { api: { user_read: {} } } });
        // The emulator answers as the API reference documents: the text "Successfully Deleted API Key".
        expect(await vast.account.deleteApiKey(key.id)).toEqual({ alreadyGone: false });
        expect(emu.requestsTo("DELETE", `/api/v0/auth/apikeys/${key.id}/`)).toHaveLength(1);

        emu.faults.add({ method: "DELETE", path: DELETE, fault: { kind: "status", status: 200, body: { success: true, msg: "deleted" } } });
        expect(await vast.account.deleteApiKey(123456)).toEqual({ alreadyGone: false });
        for (const answer of [{ body: {} }, { text: "OK" }]) {
            emu.faults.add({ method: "DELETE", path: DELETE, fault: { kind: "status", status: 200, ...answer }, times: 10 });
            await expect(vast.account.deleteApiKey(123456)).rejects.toThrow(/unexpected answer/);
            emu.faults.clear();
        }
    });
});
