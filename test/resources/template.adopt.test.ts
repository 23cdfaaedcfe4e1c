import { Template } from "../../provider";
import { eventually } from "../../testkit/support/fixtures";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * `adopt`: a Template that takes over a template the account already has, through Pulumi's host
 * against the emulator. Never a create call; an edit only where the program differs; another
 * account's template and an id that does not exist refused with what to do; a lost answer to the
 * edit settled by looking, not by editing twice.
 */
const TEMPLATE_PATH = "/api/v0/template/";

describe("Template adopt", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    const existing = (fields: Record<string, unknown>) =>
        stack.emu.model.addTemplate(stack.emu.demoUser.id, {
            tag: "latest",
            runtype: "args",
            recommended_disk_space: 8,
            private: true,
            docker_login_repo: "",
            docker_login_user: "",
            docker_login_pass: "",
            ...fields,
        });

    it("edits an adopted template once where the program differs, never creates; another id replaces; removing adopt changes nothing", async () => {
        const { emu, engine } = stack;
        const theirs = existing({ name: "console-made", image: "busybox", desc: "from the console" });
        emu.clearLog();
        const [adopted] = await engine.run([{ up: () => new Template("adopted", { adopt: theirs.id, name: "console-made", image: "busybox", tag: "1.36" }) }]);
        expect(adopted.create).toEqual(["adopted"]);
        expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
        const [put] = emu.requestsTo("PUT", TEMPLATE_PATH);
        expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toHaveLength(1);
        expect(put.body).toMatchObject({ tag: "1.36", name: "console-made", image: "busybox" });
        // A field the program does not set is not the program's: the console's value stays.
        expect(put.body).not.toHaveProperty("desc");
        expect(emu.model.templates.get(theirs.id)?.fields).toMatchObject({ tag: "1.36", desc: "from the console" });
        expect(engine.get("adopted").outputs).toMatchObject({ templateId: theirs.id, hashId: emu.model.templates.get(theirs.id)?.hash_id });

        emu.clearLog();
        const [dropped] = await engine.run([{ up: () => new Template("adopted", { name: "console-made", image: "busybox", tag: "1.36" }) }]);
        expect(dropped.same).toEqual(["adopted"]);
        expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toEqual([]);

        const other = existing({ name: "other", image: "alpine" });
        const [moved] = await engine.run([{ up: () => new Template("adopted", { adopt: other.id, name: "other", image: "alpine" }) }]);
        expect(moved.replace).toEqual([{ name: "adopted", because: ["adopt"] }]);
        expect(engine.get("adopted").id).toBe(String(other.id));
        expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
        await engine.run([{ destroy: true }]);
        expect(emu.model.templates.get(other.id)?.deleted).toBe(true);
    });

    it("two resources holding one template: both warned of, and deleting one keeps the template for the other", async () => {
        const { emu, engine, host } = stack;
        // A file made the template; after a rename in the console an export wrote another file
        // adopting it; then the first file, looking stale, is removed.
        await engine.up(() => new Template("trainer", { name: "Trainer", image: "busybox" }));
        const id = Number(engine.get("trainer").id);
        emu.consoleEditTemplate(id, { name: "Trainer v2" });
        const from = host.output.length;
        await engine.up(() => [new Template("trainer", { name: "Trainer v2", image: "busybox" }), new Template("trainer-v2", { adopt: id, name: "Trainer v2", image: "busybox" })]);
        expect(engine.get("trainer-v2").id).toBe(String(id));
        // The host's stderr reaches the test beside its answers, not before them.
        const said = (text: string) => eventually(async () => host.output.slice(from).join("\n").includes(text));
        await said(`template ${id} is held by 2 resources of this stack`);

        const [removed] = await engine.run([{ up: () => new Template("trainer-v2", { adopt: id, name: "Trainer v2", image: "busybox" }) }]);
        expect(removed.delete).toEqual(["trainer"]);
        expect(emu.model.templates.get(id)?.deleted).toBeFalsy();
        await said(`template ${id} is not deleted on Vast.ai: another resource of this stack holds it`);
        await engine.refresh();
        expect(engine.get("trainer-v2").id).toBe(String(id));

        // The last one to go deletes it.
        await engine.destroy();
        expect(emu.model.templates.get(id)?.deleted).toBe(true);
    });

    // As Pulumi runs it: each command in a host process of its own, the state carried from one to
    // the next. The `up` that removes one of the two knows the other holds the template from its diff.
    it("two resources holding one template, each command in a fresh host: the up that removes one keeps the template", async () => {
        const own = await startStack();
        try {
            const { emu, engine } = own;
            await engine.up(() => new Template("made", { name: "Made", image: "busybox" }));
            const id = Number(engine.get("made").id);
            await own.freshHost();
            await engine.up(() => [new Template("made", { name: "Made", image: "busybox" }), new Template("adopter", { adopt: id, name: "Made", image: "busybox" })]);
            await own.freshHost();
            const [removed] = await engine.run([{ up: () => new Template("adopter", { adopt: id, name: "Made", image: "busybox" }) }]);
            expect(removed.delete).toEqual(["made"]);
            expect(emu.model.templates.get(id)?.deleted).toBeFalsy();
            await own.freshHost();
            await engine.destroy();
            expect(emu.model.templates.get(id)?.deleted).toBe(true);
        } finally {
            await own.stop();
        }
    });

    it("refuses another account's public template, and an id that does not exist, before any edit", async () => {
        const { emu, engine } = stack;
        const publicOne = [...emu.model.templates.values()].find((t) => t.creator_id === emu.otherUser.id && t.fields.private === false)!;
        emu.clearLog();
        await expect(engine.up(() => new Template("stolen", { adopt: publicOne.id, name: "PyTorch (public)", image: "pytorch/pytorch" }))).rejects.toThrow(
            `adopt template ${publicOne.id} failed: template ${publicOne.id} is another account's public template`,
        );
        await expect(engine.up(() => new Template("ghost", { adopt: 999_999, name: "ghost", image: "busybox" }))).rejects.toThrow(
            "adopt template 999999 failed: the account has no template 999999 (deleted, or a mistyped id); remove `adopt` to create the template anew",
        );
        expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toEqual([]);
        expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
        expect(emu.model.templates.get(publicOne.id)?.deleted).toBe(false);
        expect(engine.state.size).toBe(0);
    });

    it("a lost answer to the adopting edit is settled by looking: one edit, no create, and the plan after it is empty", async () => {
        const { emu, engine } = stack;
        const target = existing({ name: "lossy", image: "busybox" });
        emu.faults.add({ method: "PUT", path: TEMPLATE_PATH, fault: { kind: "lostResponse" } });
        emu.clearLog();
        const [adopted] = await engine.run([{ up: () => new Template("lossy", { adopt: target.id, name: "lossy", image: "busybox", desc: "now managed" }) }]);
        expect(adopted.create).toEqual(["lossy"]);
        expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toHaveLength(1);
        expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
        expect(engine.get("lossy").outputs.hashId).toBe(emu.model.templates.get(target.id)?.hash_id);
        await engine.run([{ destroy: true }]);
    });

    // What README's "Import" says: a property with a default is the program's even when it leaves it
    // out, as on a create; one without a default that it leaves out stays as the console has it.
    it("adopting sets the properties with a default that the program leaves out to that default, and keeps the others", async () => {
        const { emu, engine } = stack;
        const fromConsole = existing({ name: "console-trainer", image: "pytorch/pytorch", tag: "2.4.0", runtype: "ssh", recommended_disk_space: 64, desc: "from the console" });
        emu.clearLog();
        await engine.run([{ up: () => new Template("trainer", { adopt: fromConsole.id, name: "console-trainer", image: "pytorch/pytorch" }) }]);
        const [put] = emu.requestsTo("PUT", TEMPLATE_PATH);
        expect(put.body).toMatchObject({ tag: "latest", runtype: "args", recommended_disk_space: 8, private: true });
        expect(put.body).not.toHaveProperty("desc");
        expect(emu.model.templates.get(fromConsole.id)?.fields).toMatchObject({ tag: "latest", runtype: "args", recommended_disk_space: 8, desc: "from the console" });

        // Given as the template has them (as the export writes them), nothing is edited.
        const kept = existing({ name: "kept", image: "pytorch/pytorch", tag: "2.4.0", runtype: "ssh", recommended_disk_space: 64 });
        emu.clearLog();
        await engine.run([{ up: () => new Template("kept", { adopt: kept.id, name: "kept", image: "pytorch/pytorch", tag: "2.4.0", runtype: "ssh", recommendedDiskSpace: 64 }) }]);
        expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toEqual([]);
        await engine.run([{ destroy: true }]);
    });
});
