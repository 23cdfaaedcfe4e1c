import { VastAuthError, VastInvalidArgsError } from "../../provider/client/errors";
import { TemplateCreateRequest } from "../../provider/schemas/template";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";

const base: TemplateCreateRequest = {
    name: "trainer",
    image: "ghcr.io/acme/trainer",
    tag: "1.4",
    env: "-e MODE=train -p 8080:8080",
    runtype: "ssh",
    docker_login_repo: "",
    docker_login_user: "",
    docker_login_pass: "",
    recommended_disk_space: 40,
    extra_filters: { gpu_ram: { gte: 24000 } },
};

describe("templates API against the emulator", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());
    beforeEach(() => emu.clearLog());

    it("creates a template: POST body as given, answer parsed with id and hash_id", async () => {
        const vast = clientFor(emu);
        const created = (await vast.templates.create(base)).template;

        const [req] = emu.requestsTo("POST", "/api/v0/template/");
        expect(req.body).toEqual(base);
        expect(typeof created.id).toBe("number");
        expect(created.hash_id).toMatch(/^[0-9a-f]{32}$/);
        expect(created).toMatchObject({ name: "trainer", image: "ghcr.io/acme/trainer", tag: "1.4", recommended_disk_space: 40 });
        expect(created).not.toHaveProperty("docker_login_pass");
    });

    it("says when the service answered with an existing template of the same content", async () => {
        const vast = clientFor(emu);
        const first = await vast.templates.create({ ...base, name: "twin" });
        const second = await vast.templates.create({ ...base, name: "twin" });
        expect(first.existing).toBe(false);
        // Linked to the account already: no "User relationship added".
        expect(second).toEqual({ template: expect.objectContaining({ id: first.template.id }), existing: true, linkedNow: false });
        // The live answer, as the emulator gives it: success false beside the template, read once, not retried.
        expect(emu.requestsTo("POST", "/api/v0/template/")).toHaveLength(2);
        // Deleted (a delete only unlinks), then the same content: the answer links it again, and says so.
        await vast.templates.delete(first.template.id);
        expect(await vast.templates.create({ ...base, name: "twin" })).toEqual({ template: expect.objectContaining({ id: first.template.id }), existing: true, linkedNow: true });
    });

    it("reads a success: false beside a template as 'existing' only in the service's words; any other is a failure", async () => {
        const vast = clientFor(emu);
        const answer = (body: unknown) => emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "status", status: 200, body } });
        const record = { id: 77, hash_id: "c".repeat(32), name: "p", image: "other" };
        // The older form, success true with a message that says so, is read as existing too.
        answer({ success: true, msg: "existing template found", template: record });
        expect(await vast.templates.create({ ...base, name: "p" })).toEqual({ template: expect.objectContaining({ id: 77 }), existing: true, linkedNow: false });
        answer({ success: false, msg: "Existing Template Found: 77. User relationship added.", template: record });
        expect(await vast.templates.create({ ...base, name: "p" })).toEqual({ template: expect.objectContaining({ id: 77 }), existing: true, linkedNow: true });
        answer({ success: false, error: "invalid_args", msg: "image is not allowed", template: { name: "p", image: "x" } });
        await expect(vast.templates.create({ ...base, name: "p" })).rejects.toThrow(VastInvalidArgsError);
        answer({ success: false, msg: "A template named p already exists", template: record });
        await expect(vast.templates.create({ ...base, name: "p" })).rejects.toThrow(/success=false rejected: A template named p already exists/);
        expect(emu.requestsTo("POST", "/api/v0/template/")).toHaveLength(4);
    });

    it("reads an edit's new hash_id from its template, or from beside it; an answer with neither is unexpected", async () => {
        const vast = clientFor(emu);
        const answer = (body: unknown) =>
            emu.faults.add({ method: "PUT", path: "/api/v0/template/", fault: { kind: "status", status: 200, body }, times: 10 });
        answer({ success: true, hash_id: "b".repeat(32), msg: "Template 5 Updated Successfully", template: { id: 5, name: "x" } });
        expect(await vast.templates.edit({ hash_id: "a".repeat(32), tag: "2" })).toMatchObject({ id: 5, hash_id: "b".repeat(32) });
        emu.faults.clear();
        // Both: the one beside the template, the reference's "New MD5 hash of the updated template".
        answer({ success: true, hash_id: "b".repeat(32), template: { id: 5, hash_id: "d".repeat(32) } });
        expect(await vast.templates.edit({ hash_id: "a".repeat(32), tag: "2" })).toMatchObject({ hash_id: "b".repeat(32) });
        emu.faults.clear();
        answer({ success: true, msg: "Template 5 Updated Successfully", template: { id: 5, name: "x" } });
        await expect(vast.templates.edit({ hash_id: "a".repeat(32), tag: "2" })).rejects.toThrow(/no hash_id in the answer or its template/);
        emu.faults.clear();
    });

    it("searches with select_filters serialised as JSON, and includes other users' public templates", async () => {
        const vast = clientFor(emu);
        const mine = (await vast.templates.create({ ...base, name: "search-me" })).template;

        const byName = await vast.templates.search({ name: { eq: "search-me" } });
        const [req] = emu.requestsTo("GET", "/api/v0/template/");
        expect(JSON.parse(req.query.select_filters)).toEqual({ name: { eq: "search-me" } });
        expect(byName.map((t) => t.id)).toEqual([mine.id]);

        const everything = await vast.templates.search();
        const creators = new Set(everything.map((t) => t.creator_id));
        expect(creators).toContain(emu.otherUser.id);
        expect(everything.some((t) => t.name === "someone else's private template")).toBe(false);
    });

    it("keeps no registry password an answer carries", async () => {
        const vast = clientFor(emu);
        const answered = { id: 77, hash_id: "f".repeat(32), name: "leaky", docker_login_user: "bot", docker_login_pass: "ghp_from_the_answer" };
        emu.faults.add({ method: "GET", path: "/api/v0/template/", fault: { kind: "status", status: 200, body: { success: true, templates: [answered] } } });
        const [found] = await vast.templates.search({ id: { eq: 77 } });
        expect(found).toMatchObject({ id: 77, name: "leaky", docker_login_user: "bot" });
        expect(found.docker_login_pass).toBeUndefined();
        expect(JSON.stringify(found)).not.toContain("ghp_from_the_answer");
    });

    it("gets by numeric id, matching the id itself among public templates", async () => {
        const vast = clientFor(emu);
        const mine = (await vast.templates.create({ ...base, name: "get-me" })).template;
        expect((await vast.templates.get(mine.id))?.hash_id).toBe(mine.hash_id);
        expect(await vast.templates.get(999_999)).toBeUndefined();
    });

    it("reads a search that matches nothing as no templates, in the live answer's words and the contract's", async () => {
        const vast = clientFor(emu);
        // The live service's documented answer, which the emulator gives: 200 with success false.
        expect(await vast.templates.search({ name: { eq: "matches-nothing" } })).toEqual([]);
        expect(emu.requestsTo("GET", "/api/v0/template/")).toHaveLength(1);
        // The contract's: an empty list.
        emu.faults.add({ method: "GET", path: "/api/v0/template/", fault: { kind: "status", status: 200, body: { templates: [] } } });
        expect(await vast.templates.search({ name: { eq: "matches-nothing" } })).toEqual([]);
    });

    it("still fails on any other success: false, and on 'No templates found' under an error status", async () => {
        const vast = clientFor(emu);
        emu.faults.add({ method: "GET", path: "/api/v0/template/", fault: { kind: "successFalse", msg: "No templates found for you today" } });
        await expect(vast.templates.search({})).rejects.toThrow(/success=false rejected: No templates found for you today/);
        emu.faults.add({ method: "GET", path: "/api/v0/template/", fault: { kind: "status", status: 400, body: { success: false, msg: "No templates found" } } });
        await expect(vast.templates.search({})).rejects.toThrow(VastInvalidArgsError);
        emu.faults.add({ method: "GET", path: "/api/v0/template/", fault: { kind: "status", status: 200, body: { success: false, error: "auth_error", msg: "No templates found" } } });
        await expect(vast.templates.search({})).rejects.toThrow(VastAuthError);
    });

    it("edits by hash_id: same numeric id, new hash_id, changed fields", async () => {
        const vast = clientFor(emu);
        const created = (await vast.templates.create({ ...base, name: "edit-me" })).template;
        const edited = await vast.templates.edit({ hash_id: created.hash_id, tag: "1.5" });

        const [req] = emu.requestsTo("PUT", "/api/v0/template/");
        expect(req.body).toEqual({ hash_id: created.hash_id, tag: "1.5" });
        expect(edited.id).toBe(created.id);
        expect(edited.hash_id).not.toBe(created.hash_id);
        expect((await vast.templates.get(created.id))?.tag).toBe("1.5");
    });

    it("deletes by template_id, and reports a second delete as already gone", async () => {
        const vast = clientFor(emu);
        const created = (await vast.templates.create({ ...base, name: "delete-me" })).template;

        expect(await vast.templates.delete(created.id)).toEqual({ alreadyGone: false });
        const [req] = emu.requestsTo("DELETE", "/api/v0/template/");
        expect(req.body).toEqual({ template_id: created.id });
        expect(await vast.templates.get(created.id)).toBeUndefined();
        expect(await vast.templates.delete(created.id)).toEqual({ alreadyGone: true });
    });

    it("refuses a malformed request before sending it, naming the field", async () => {
        const vast = clientFor(emu);
        const bad = { ...base, recomended_disk_space: 10 } as unknown as TemplateCreateRequest;
        await expect(vast.templates.create(bad)).rejects.toThrow(VastInvalidArgsError);
        await expect(vast.templates.create(bad)).rejects.toThrow(/recomended_disk_space/);
        await expect(vast.templates.search({ id: { eq: "7" as unknown as number } })).rejects.toThrow(/id\.eq/);
        expect(emu.requests).toHaveLength(0);
    });
});
