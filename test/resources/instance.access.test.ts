import { Instance, InstanceArgs, Template } from "../../provider";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * How an instance is reached, through Pulumi's dynamic-provider host: each `runtype` goes on the
 * wire as the vendor clients send it (vast.py `get_runtype`), and the `access` output says which
 * access the instance has.
 */
const CHOICES: Array<{ runtype: NonNullable<InstanceArgs["runtype"]>; wire: string; access: string }> = [
    // What `ssh` always sent, the vendor CLI's default.
    { runtype: "ssh", wire: "ssh", access: "ssh" },
    { runtype: "ssh_proxy", wire: "ssh_proxy", access: "ssh_proxy" },
    { runtype: "ssh_direct", wire: "ssh_direc ssh_proxy", access: "ssh_direct" },
    // Existing programs keep working: no bare "jupyter" on the wire any more, the CLI's `--jupyter` instead.
    { runtype: "jupyter", wire: "jupyter_proxy ssh_proxy", access: "jupyter_proxy" },
    { runtype: "jupyter_proxy", wire: "jupyter_proxy ssh_proxy", access: "jupyter_proxy" },
    { runtype: "jupyter_direct", wire: "jupyter_direc ssh_direc ssh_proxy", access: "jupyter_direct" },
    { runtype: "args", wire: "args", access: "args" },
];

describe("Instance access: SSH or Jupyter, direct or proxied, or args", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 5, runningAfterMs: 30 } } });
    });
    afterAll(() => stack.stop());

    it("each choice is sent as the vendor clients' runtype string; the access output says which it is", async () => {
        const { engine, emu } = stack;
        const offers = CHOICES.map(() => emu.addOffer());
        const program = () => CHOICES.map(({ runtype }, i) => new Instance(`via-${runtype}`, { offerId: offers[i].id, image: "busybox", runtype }));

        const [created, again] = await engine.run([{ up: program }, { up: program }]);
        expect(created.create).toHaveLength(CHOICES.length);
        expect(again.same).toHaveLength(CHOICES.length);
        CHOICES.forEach(({ runtype, wire, access }, i) => {
            const [create] = emu.requestsTo("PUT", `/api/v0/asks/${offers[i].id}/`);
            expect({ runtype, sent: (create.body as { runtype: string }).runtype }).toEqual({ runtype, sent: wire });
            expect(engine.get(`via-${runtype}`).outputs).toMatchObject({ runtype, access });
        });
        await engine.destroy();
    });

    it("from a template: no runtype is sent, and the access is the template's", async () => {
        const { engine, emu } = stack;
        const [direct, proxied] = [emu.addOffer(), emu.addOffer()];
        await engine.up(() => {
            const notebook = new Template("notebook", { name: "notebook", image: "jupyter/base-notebook", runtype: "jupyter", jupDirect: true });
            const shell = new Template("shell", { name: "shell", image: "busybox", runtype: "ssh" });
            return [
                notebook,
                shell,
                new Instance("from-notebook", { offerId: direct.id, templateHashId: notebook.hashId }),
                new Instance("from-shell", { offerId: proxied.id, templateHashId: shell.hashId }),
            ];
        });
        for (const offer of [direct, proxied]) expect(emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`)[0].body).not.toHaveProperty("runtype");
        expect(engine.get("from-notebook").outputs.access).toBe("jupyter_direct");
        expect(engine.get("from-shell").outputs.access).toBe("ssh_proxy");
        await engine.destroy();
    });

    it("an instance created before the access output existed is not replaced by the upgrade; its access is filled in", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        const program = () => new Instance("older", { offerId: offer.id, image: "busybox", runtype: "jupyter" });
        await engine.up(program);
        const instanceId = engine.get("older").outputs.instanceId;
        // The state an earlier version wrote: the same inputs, no `access`.
        delete engine.get("older").outputs.access;

        expect(await engine.up(program)).toMatchObject({ same: ["older"], replace: [], create: [] });
        await engine.refresh();
        expect(engine.get("older").outputs).toMatchObject({ instanceId, runtype: "jupyter", access: "jupyter_proxy" });
        expect(emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`)).toHaveLength(1);
        await engine.destroy();
    });
});
