import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Template } from "../../provider";
import { configure, vastClient } from "../../provider/runtime/providerContext";
import { ProviderHost } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { startEmulator } from "../../testkit/support/fixtures";
import { makeProgramDir } from "../../testkit/support/programDir";
import { Emulator } from "../../testkit/emulator/server";

const STACK_KEY = "stack-config-key-0123456789";
const ENV_KEY = "environment-key-9876543210";
const REGISTRY_TOKEN = "ghp_registry_token_abc";

describe("the serialized provider (__provider)", () => {
    it("is at most 1 KB, plain (not secret), and holds no credential", async () => {
        const savedEnv = process.env.VAST_API_KEY;
        process.env.VAST_API_KEY = ENV_KEY;
        pulumi.runtime.setConfig("vastai:apiKey", STACK_KEY);
        // A configured client in this process too: nothing of it may be captured.
        configure({ config: { get: (k: string) => (k === "vastai:apiKey" ? STACK_KEY : "http://127.0.0.1:1") } });
        vastClient();
        try {
            const [reg] = await registerAsProgram(() =>
                new Template("t", { name: "t", image: "busybox", dockerLoginUser: "bot", dockerLoginPass: REGISTRY_TOKEN }),
            );
            const text = reg.inputs.__provider;
            expect(typeof text).toBe("string"); // a secret would arrive wrapped
            expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
            for (const secret of [STACK_KEY, ENV_KEY, REGISTRY_TOKEN]) expect(text).not.toContain(secret);
            expect(text).not.toMatch(/axios|zod|Bearer/);
            // the registry token itself is a secret input
            expect(reg.inputs.dockerLoginPass).toEqual(expect.objectContaining({ value: REGISTRY_TOKEN }));
            expect(reg.inputs.dockerLoginPass).toHaveProperty(["4dabf18193072939515e22adb298388d"]);
        } finally {
            if (savedEnv === undefined) delete process.env.VAST_API_KEY;
            else process.env.VAST_API_KEY = savedEnv;
        }
    });

    describe.each(["installed", "repository"] as const)("in a program where the package is %s", (mode) => {
        let emu: Emulator;
        beforeAll(async () => {
            emu = await startEmulator();
        });
        afterAll(() => emu.stop());

        it("delete runs the provider installed now, not the code of when the resource was created", async () => {
            const program = makeProgramDir(mode);
            const config = { "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url };
            const [reg] = await registerAsProgram(() => new Template("upgrade-me", { name: `upgrade-${mode}`, image: "busybox" }));
            const urn = `urn:pulumi:test::vastai-test::${reg.type}::${reg.name}`;

            // Created with the provider as first installed.
            const before = await ProviderHost.start({ cwd: program.cwd });
            await before.configure(config);
            const checked = await before.check(urn, {}, reg.inputs);
            const created = await before.create(urn, checked.inputs);
            await before.stop();

            // The installed package changes (an upgrade): its delete now also leaves a mark.
            const marker = path.join(program.root, "delete-ran.log");
            fs.appendFileSync(
                program.runtimeEntry,
                `\n;(() => { const t = exports.template; const original = t.delete;\n` +
                    `t.delete = async (id, props) => { require("fs").appendFileSync(${JSON.stringify(marker)}, "upgraded delete " + id + "\\n"); return original(id, props); }; })();\n`,
            );

            // A later run deletes the resource with the __provider text stored in its state.
            const after = await ProviderHost.start({ cwd: program.cwd });
            try {
                await after.configure(config);
                await after.delete(created.id, urn, created.properties);
            } finally {
                await after.stop();
            }
            expect(created.properties.__provider).toBe(reg.inputs.__provider);
            expect(fs.readFileSync(marker, "utf8")).toBe(`upgraded delete ${created.id}\n`);
            expect(emu.model.templates.get(Number(created.id))?.deleted).toBe(true);
            fs.rmSync(program.root, { recursive: true, force: true });
        });
    });
});
