import { SshKey } from "../../provider";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * What README's Import notes say, shown through Pulumi's host. The engine imports a resource (the
 * `import` resource option, or `pulumi import`) with a Read that carries the id alone, no state
 * and no inputs (`ImportStep` in pulumi/pulumi's pkg/resource/deploy/step.go), so Pulumi's
 * dynamic-provider host has no `__provider` to load the resource's code from, and fails before any
 * code of this package runs (pulumi#16175). This holds for every dynamic resource, whichever kind.
 * If a later SDK makes that read succeed, this test fails: update README's Import notes.
 */
const KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyImport00000000000000000 me@laptop";

describe("importing an existing resource through Pulumi's dynamic-provider host", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("fails: the import's read carries no __provider; state and service are left as they were", async () => {
        await stack.engine.run([{ up: () => new SshKey("laptop", { publicKey: KEY }) }]);
        const existing = stack.engine.get("laptop");

        await expect(stack.host.read(existing.id, existing.urn, {})).rejects.toThrow(/code must be a string, not undefined/);

        expect(stack.emu.model.sshKeys.has(Number(existing.id))).toBe(true);
        // With its state, as a refresh sends it, the same read works.
        await expect(stack.host.read(existing.id, existing.urn, existing.outputs, existing.inputs)).resolves.toMatchObject({ id: existing.id });
        await stack.engine.run([{ destroy: true }]);
        expect(stack.emu.model.sshKeys.size).toBe(0);
    });
});
