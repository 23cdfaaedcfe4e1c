import * as pulumi from "@pulumi/pulumi";
import { Template } from "../../provider";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * Every Vast.ai user can read a public template's env, start script, arguments and readme. A value
 * the program marked secret never goes there: the program tells check which properties hold one
 * (the engine hands the provider plain values), and check refuses, before anything is sent.
 */
describe("a secret in a public template", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("is refused by check naming private and the property, nothing sent; a private template made public so stays private", async () => {
        const { engine, emu } = stack;
        const salt = "internal-salt-42";
        const template = (extra: Record<string, unknown>) => () => new Template("pub", { name: "pub", image: "busybox", ...extra });
        emu.clearLog();
        const refused = await engine.up(template({ private: false, env: { SIGNING_SALT: pulumi.secret(salt), MODE: "serve" } })).catch((e: Error) => e);
        expect(String(refused)).toMatch(/private: false, and env holds a value marked secret: every Vast.ai user can read/);
        expect(String(refused)).not.toContain(salt);
        expect(emu.requestsTo("POST", "/api/v0/template/")).toHaveLength(0);

        // Private (the default), the same env is created; made public later, it is refused again.
        await engine.up(template({ env: { SIGNING_SALT: pulumi.secret(salt) } }));
        // What tells check which properties hold a secret never reaches state.
        expect(Object.keys(engine.get("pub").inputs)).not.toContain("__secretsIn");
        const again = await engine.up(template({ private: false, env: { SIGNING_SALT: pulumi.secret(salt) }, argsStr: pulumi.secret("--key k") })).catch((e: Error) => e);
        expect(String(again)).toMatch(/private: false, and env, argsStr hold a value marked secret/);
        expect(emu.model.templates.get(Number(engine.get("pub").id))?.fields).toMatchObject({ private: true });

        // A program that ignores changes to `private` has the engine put the old `false` back into
        // what check is given: a secret it adds is refused all the same.
        const [reg] = await registerAsProgram(template({ env: { SIGNING_SALT: pulumi.secret(salt) } }));
        const checked = await stack.host.check(stack.host.urn(reg.type, reg.name), { name: "pub", image: "busybox", private: false }, { ...reg.inputs, private: false });
        expect(checked.failures).toEqual([expect.objectContaining({ property: "private", reason: expect.stringContaining("env holds a value marked secret") })]);

        // Public with nothing secret: made public.
        await engine.up(template({ private: false, env: { MODE: "serve" } }));
        expect(emu.model.templates.get(Number(engine.get("pub").id))?.fields).toMatchObject({ private: false });

        // `private: false` removed from the program: private again, edited in place.
        const id = engine.get("pub").id;
        const hidden = await engine.up(template({ env: { MODE: "serve" } }));
        expect(hidden).toMatchObject({ update: ["pub"], replace: [] });
        expect(engine.get("pub")).toMatchObject({ id, outputs: { private: true } });
        expect(emu.model.templates.get(Number(id))?.fields).toMatchObject({ private: true });
        await engine.destroy();
    });
});
