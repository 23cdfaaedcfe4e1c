import { Template } from "../../provider";
import { Fault } from "../../testkit/emulator/faults";
import { Emulator } from "../../testkit/emulator/server";
import { TestStack, startStack } from "../../testkit/support/stack";
import { templateView } from "../../testkit/emulator/handlers/templates";

/** A template on the account with what `new Template(name, { name, image: "busybox" })` sends, an hour old. */
function madeAnHourAgo(emu: Emulator, name: string) {
    const fields = { name, image: "busybox", tag: "latest", runtype: "args", recommended_disk_space: 8, private: true };
    const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
    return emu.model.addTemplate(emu.demoUser.id, { ...fields, ...login }, { created_at: Date.now() - 3_600_000 });
}

/**
 * A template create whose answer never arrives must not leave two templates behind. The emulator
 * does not merge identical templates here (the live one sometimes answers "existing template
 * found"), so a blind second create would show up as a duplicate.
 */
describe("Template: a create whose answer is lost", () => {
    let stack: TestStack;
    beforeEach(async () => {
        stack = await startStack({ emulator: { dedupeTemplates: false } });
    });
    afterEach(() => stack.stop());

    const live = (name: string) =>
        [...stack.emu.model.templates.values()].filter((t) => !t.deleted && t.fields.name === name);

    it.each<[string, Fault]>([
        ["created, then the connection reset", { kind: "lostResponse" }],
        ["created, then a 504 from the gateway", { kind: "lostResponse", status: 504 }],
        ["created, then an unreadable answer", { kind: "malformed" }],
    ])("%s: exactly one template, and state points at it", async (_case, fault) => {
        const { emu, engine } = stack;
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault });

        const summary = await engine.up(() => new Template("lost", { name: "lost", image: "busybox", env: { A: "1" } }));
        expect(summary.create).toEqual(["lost"]);
        const [only] = live("lost");
        expect(live("lost")).toHaveLength(1);
        expect(engine.get("lost").id).toBe(String(only.id));
        expect(engine.get("lost").outputs).toMatchObject({ templateId: only.id, hashId: only.hash_id });
        expect(emu.requestsTo("POST", "/api/v0/template/")).toHaveLength(1);
    });

    it("a 502 before the service acted: nothing is found, so it is created once more, and only once", async () => {
        const { emu, engine } = stack;
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "status", status: 502 } });

        await engine.up(() => new Template("gateway", { name: "gateway", image: "busybox" }));
        expect(live("gateway")).toHaveLength(1);
        expect(engine.get("gateway").id).toBe(String(live("gateway")[0].id));
        expect(emu.requestsTo("POST", "/api/v0/template/").map((r) => r.status)).toEqual([502, 200]);
    });

    // Before: the look compared the null sent with a record that leaves the field out, found
    // nothing, and sent the create again: two templates.
    it("a lost create of a template with a field set to null finds the template it made", async () => {
        const { emu, engine } = stack;
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "lostResponse" } });
        await engine.up(() => new Template("with-null", { name: "with-null", image: "busybox", jupyterDir: null, volumeInfo: null }));
        const made = [...emu.model.templates.values()].filter((t) => !t.deleted && t.fields.name === "with-null");
        expect(made.map((t) => String(t.id))).toEqual([engine.get("with-null").id]);
        await engine.destroy();
    });

    it("an identical template made earlier is not mistaken for the lost one", async () => {
        const { emu, engine } = stack;
        const older = madeAnHourAgo(emu, "twin");
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "lostResponse" } });

        await engine.up(() => new Template("twin", { name: "twin", image: "busybox" }));
        expect(live("twin")).toHaveLength(2);
        expect(engine.get("twin").id).not.toBe(String(older.id));
    });
});

/** The live service answers a create of identical content with the account's existing template. */
describe("Template: the service's \"existing template found\"", () => {
    let stack: TestStack;
    beforeEach(async () => {
        stack = await startStack({ emulator: { dedupeTemplates: true } });
    });
    afterEach(() => stack.stop());

    const live = (name: string) => [...stack.emu.model.templates.values()].filter((t) => !t.deleted && t.fields.name === name);

    it("a template made earlier with the same content is not taken over: the create fails naming it", async () => {
        const { emu, engine } = stack;
        const older = madeAnHourAgo(emu, "console-made");

        const error = await engine.up(() => new Template("console-made", { name: "console-made", image: "busybox" })).catch((e) => e);
        expect(error.message).toMatch(new RegExp(`template ${older.id} already has exactly this content`));
        // Not "delete the other": a delete only unlinks it, and identical content would bring it back.
        expect(error.message).toContain(`set adopt: ${older.id} to manage it here`);
        expect(error.message).not.toMatch(/delete the other/);
        expect(engine.state.size).toBe(0);
        expect(live("console-made")).toHaveLength(1);
    });

    // Before: it said to delete the other, which only its creator can.
    it("another account's public template with the same content: the create fails naming it as theirs, with no advice to delete it", async () => {
        const { emu, engine } = stack;
        const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        const fields = { name: "theirs", image: "busybox", tag: "latest", runtype: "args", recommended_disk_space: 8, private: false };
        const theirs = emu.model.addTemplate(emu.otherUser.id, { ...fields, ...login });
        const error = await engine.up(() => new Template("mine", { name: "theirs", image: "busybox", private: false })).catch((e) => e);
        expect(error.message).toContain(`template ${theirs.id}, made by another account, already has exactly this content`);
        expect(error.message).not.toContain("delete the other");
        expect(engine.state.size).toBe(0);
    });

    // Before: after a lost create, the re-send's "existing template found" was taken for what the
    // lost create made when only its creation time fitted: another account's public template of
    // the same content, made just then, was held (and its creator recorded as the owner, so a
    // refresh kept it as ours), though it can be neither edited nor deleted from here.
    it("after a lost create, the re-send answered with another account's public template made just then: not taken", async () => {
        const { emu, engine } = stack;
        const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        const fields = { name: "theirs-just-now", image: "busybox", tag: "latest", runtype: "args", recommended_disk_space: 8, private: false };
        const theirs = emu.model.addTemplate(emu.otherUser.id, { ...fields, ...login }, { created_at: Date.now() });
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "status", status: 502 } });
        const error = await engine.up(() => new Template("mine", { name: "theirs-just-now", image: "busybox", private: false })).catch((e) => e);
        expect(error.message).toContain(`template ${theirs.id}, made by another account, already has exactly this content`);
        expect(engine.state.size).toBe(0);
    });

    // Before: the second's lost create found the first's template, made moments earlier with the
    // same name and content, and took it: two resources held one template.
    it("a lost create never takes the template of another resource of identical content made moments earlier", async () => {
        const { emu, engine } = stack;
        await engine.up(() => [new Template("a", { name: "twice", image: "busybox" })]);
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "lostResponse" } });
        const error = await engine.up(() => [new Template("a", { name: "twice", image: "busybox" }), new Template("b", { name: "twice", image: "busybox" })]).catch((e) => e);
        expect(error.message).toMatch(/already has exactly this content/);
        expect([...engine.state.values()].map((e) => e.name)).toEqual(["a"]);
        expect(live("twice")).toHaveLength(1);
    });

    // The lookup searches by the account's creator_id; should the service answer with another
    // account's template all the same (a filter it ignored), that template is not ours to take.
    it("the lookup after a lost create never takes another account's template, whatever the search answered", async () => {
        const { emu, engine } = stack;
        const fields = { name: "not-filtered", image: "busybox", tag: "latest", runtype: "args", recommended_disk_space: 8, private: true };
        const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        const theirs = emu.model.addTemplate(emu.otherUser.id, { ...fields, ...login }, { created_at: Date.now() });
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "status", status: 502 } });
        emu.faults.add({ method: "GET", path: "/api/v0/template/", fault: { kind: "status", status: 200, body: { success: true, templates_found: 1, templates: [templateView(theirs)] } } });
        await engine.up(() => new Template("mine", { name: "not-filtered", image: "busybox" }));
        const [ours] = live("not-filtered").filter((t) => t.creator_id === emu.demoUser.id);
        expect(engine.get("mine").id).toBe(String(ours.id));
        expect(engine.get("mine").id).not.toBe(String(theirs.id));
    });

    // Before: anything made up to 2 minutes before the send (this machine's clock may be off) could
    // be the lost create's; then the service's clock (its Date header) narrowed that to 30 s, still
    // room for the same program's other stack, deployed alongside, to have made it; now 5 s.
    it.each([["a minute", 60_000], ["10 s", 10_000]])("a lost create never takes a template of identical content another stack made %s before", async (_when, ago) => {
        const { emu, engine } = stack;
        const fields = { name: "made-by-another-stack", image: "busybox", tag: "latest", runtype: "args", recommended_disk_space: 8, private: true };
        const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        const theirs = emu.model.addTemplate(emu.demoUser.id, { ...fields, ...login }, { created_at: Date.now() - ago });
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "lostResponse" } });
        const error = await engine.up(() => new Template("mine", { name: "made-by-another-stack", image: "busybox" })).catch((e) => e);
        expect(error.message).toContain(`template ${theirs.id} already has exactly this content`);
        expect(engine.state.size).toBe(0);
    });

    // Before: the window was counted from when the create was asked, not from when it left, which a
    // wait for its turn (the pacer, a 429's Retry-After) can put seconds later: a template of the
    // same content another stack made during that wait was taken for the lost one.
    it("the window counts from when the lost create left, after its wait for a turn, not from when it was asked", async () => {
        const { emu, engine } = stack;
        const fields = { name: "made-while-waiting", image: "busybox", tag: "latest", runtype: "args", recommended_disk_space: 8, private: true };
        const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
        const theirs = emu.model.addTemplate(emu.demoUser.id, { ...fields, ...login }, { created_at: Date.now() });
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "status", status: 429, text: "API requests too frequent", headers: { "Retry-After": "6" } } });
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "lostResponse" } });
        const error = await engine.up(() => new Template("mine", { name: "made-while-waiting", image: "busybox" })).catch((e) => e);
        expect(error.message).toContain(`template ${theirs.id} already has exactly this content`);
        expect(engine.state.size).toBe(0);
    }, 30_000);

    it("two resources with identical content: the second fails, the first keeps its template", async () => {
        const { engine } = stack;
        const error = await engine
            .up(() => [new Template("a", { name: "same", image: "busybox" }), new Template("b", { name: "same", image: "busybox" })])
            .catch((e) => e);
        expect(error.message).toMatch(/template \d+ already has exactly this content/);
        expect([...engine.state.values()]).toHaveLength(1);
        expect(live("same")).toHaveLength(1);
    });

    it("a lost answer is still recovered: the template the lost create made is adopted, once", async () => {
        const { emu, engine } = stack;
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "lostResponse" } });
        await engine.up(() => new Template("lost-live", { name: "lost-live", image: "busybox" }));
        expect(live("lost-live")).toHaveLength(1);
        expect(engine.get("lost-live").id).toBe(String(live("lost-live")[0].id));
    });

    // Before: the process kept the account look-up's one refusal for good, so the look's three
    // tries met that same answer without asking again, gave up, and left the template it made
    // outside state; every later operation of the process that needed the account failed on it too.
    it("a lost create whose look meets one refusal of the key asks again, and adopts what it made", async () => {
        const { emu, engine } = stack;
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "lostResponse" } });
        emu.faults.add({ method: "GET", path: "/api/v0/users/current/", fault: { kind: "authError404" } });
        await engine.up(() => new Template("refused-once", { name: "refused-once", image: "busybox" }));
        expect(live("refused-once")).toHaveLength(1);
        expect(engine.get("refused-once").id).toBe(String(live("refused-once")[0].id));
        expect(emu.requestsTo("GET", "/api/v0/users/current/").map((r) => r.status)).toEqual([404, 200]);
    });
});
