import { spawnSync } from "child_process";
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Instance, InstanceArgs } from "../../provider";
import { bootstrapCommand, planOnstart } from "../../provider/resources/onstartBootstrap";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { provisioningScript } from "../../testkit/support/provisioningScript";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * Runs `command` as the instance's shell would, with TMPDIR and WORK in a fresh directory, and
 * returns the file the bootstrap restored (the only `vastai-onstart-*` file there) and the workdir.
 */
function runInShell(shell: "bash" | "sh", command: string): { restored: Buffer; work: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "onstart-"));
    const work = path.join(dir, "work");
    const result = spawnSync(shell, ["-c", command], {
        env: { PATH: process.env.PATH, TMPDIR: dir, WORK: work },
        // No stdin: bash reads ~/.bashrc when stdin is a socket (as Node's pipes are), as if under rshd.
        stdio: ["ignore", "pipe", "pipe"],
        encoding: "utf8",
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
    const [file] = fs.readdirSync(dir).filter((f) => f.startsWith("vastai-onstart-"));
    return { restored: fs.readFileSync(path.join(dir, file)), work };
}

describe("onstart over the service's limit", () => {
    const script = provisioningScript(20 * 1024);

    it("a 20 KB script becomes a short command that restores it byte for byte and runs it, in bash and in sh", () => {
        expect(script.length).toBe(20480);
        const plan = planOnstart(script, 0);
        expect(plan.encoded).toBe(true);
        expect(plan.problem).toBeUndefined();
        expect(plan.onstart.length).toBeLessThanOrEqual(4048);
        for (const shell of ["bash", "sh"] as const) {
            const { restored, work } = runInShell(shell, plan.onstart);
            expect(restored.equals(Buffer.from(script, "utf8"))).toBe(true);
            // ...and it ran: every shard config was written.
            const shards = fs.readdirSync(path.join(work, "configs")).length;
            expect(shards).toBeGreaterThan(50);
            expect(fs.readFileSync(path.join(work, "finished"), "utf8").trim()).toBe(String(shards));
        }
    });

    it("a script with a #! line is run by its own interpreter", () => {
        const shebang = `#!/bin/sh\nmkdir -p "$WORK" && echo "$0" > "$WORK/ran-as"\n`;
        const { restored, work } = runInShell("bash", bootstrapCommand(shebang));
        expect(restored.toString("utf8")).toBe(shebang);
        expect(fs.readFileSync(path.join(work, "ran-as"), "utf8")).toMatch(/vastai-onstart-[0-9a-f]{12}\.sh\n$/);
    });

    it("a script that fits is sent as it is; one that only breaks the total with args is encoded", () => {
        expect(planOnstart("echo hi", 0)).toEqual({ onstart: "echo hi", encoded: false });
        const fitsAlone = provisioningScript(3000);
        expect(planOnstart(fitsAlone, 0).encoded).toBe(false);
        const withArgs = planOnstart(fitsAlone, 2000);
        expect(withArgs.encoded).toBe(true);
        expect(withArgs.onstart.length + 2000).toBeLessThanOrEqual(4096);
    });
});

describe("onstart through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    async function checked(args: InstanceArgs, name: string) {
        const [reg] = await registerAsProgram(() => new Instance(name, args));
        const urn = stack.host.urn(reg.type, reg.name);
        return { urn, result: await stack.host.check(urn, {}, reg.inputs) };
    }

    it("accepts a 20 KB script, sends it encoded, keeps the user's script in state, and the diff stays empty", async () => {
        const { host, emu } = stack;
        const script = provisioningScript(20 * 1024);
        const offer = emu.addOffer();
        const { urn, result } = await checked({ offerId: offer.id, image: "ubuntu:22.04", onstart: script }, "long-onstart");
        expect(result.failures).toEqual([]);
        expect(result.inputs.onstart).toBe(script);

        const created = await host.create(urn, result.inputs);
        const [put] = emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`);
        const sent = (put.body as { onstart: string }).onstart;
        expect(sent.length).toBeLessThanOrEqual(4048);
        expect(sent).not.toBe(script);
        expect(runInShell("bash", sent).restored.equals(Buffer.from(script, "utf8"))).toBe(true);

        expect(created.properties.onstart).toBe(script);
        expect(await host.diff(created.id, urn, created.properties, result.inputs)).toMatchObject({ changes: "none" });
        const read = await host.read(created.id, urn, created.properties, result.inputs);
        expect(await host.diff(created.id, urn, read.properties, read.inputs!)).toMatchObject({ changes: "none" });
        expect(host.output.some((l) => /onstart for offer \d+ is 20480 characters: sent compressed as a \d+-character command/.test(l))).toBe(true);
        await host.delete(created.id, urn, read.properties);
    });

    it("fails in check, with the sizes, when even the encoded form breaks the limits", async () => {
        const noise = randomBytes(15 * 1024).toString("base64"); // does not compress
        const { result } = await checked({ offerId: 1, image: "ubuntu:22.04", onstart: noise }, "too-long");
        expect(result.failures).toEqual([
            {
                property: "",
                reason: expect.stringMatching(
                    new RegExp(`^onstart is ${noise.length} characters; compressed and encoded it is still \\d+, and the service's limits are onstart may be at most 4048; args \\+ argsStr \\+ onstart may be at most 4096 together`),
                ),
            },
        ]);

        // Within 4048 alone, but not with argsStr beside it.
        const { result: withArgs } = await checked(
            { offerId: 1, image: "ubuntu:22.04", onstart: randomBytes(2400).toString("base64").slice(0, 3000), argsStr: "x".repeat(1500) },
            "too-long-together",
        );
        expect(withArgs.failures).toEqual([
            { property: "", reason: expect.stringMatching(/args \+ argsStr \+ onstart may be at most 4096 together \(args and argsStr take 1500\)/) },
        ]);
    });
});
