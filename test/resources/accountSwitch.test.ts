import { Template } from "../../provider";
import { ProviderHost } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { startEmulator } from "../../testkit/support/fixtures";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";

// Another account's key does not see a private template. Before: a refresh with the stack's key
// switched to another account's dropped it from state as deleted (and a delete called it done),
// while it was still there; the next up made a second one.
describe("a resource read with another account's key, through Pulumi's dynamic-provider host", () => {
    it("a Template is not taken as deleted: the read and the delete fail, naming both accounts", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        // A host process per command, as the CLI runs them: each configured once, with its key.
        const hostWith = async (key: string) => {
            const host = await ProviderHost.start({ env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) } });
            await host.configure({ "vastai:apiKey": key, "vastai:baseUrl": emu.url });
            return host;
        };
        const own = await hostWith(emu.demoKey);
        const other = await hostWith(emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const [reg] = await registerAsProgram(() => new Template("mine", { name: "mine", image: "busybox" }));
            const urn = own.urn(reg.type, reg.name);
            const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            expect(created.properties).toMatchObject({ creatorId: emu.demoUser.id, private: true });

            const expected = `template ${created.id} was made by account ${emu.demoUser.id}, but the API key in use is account ${emu.otherUser.id}'s`;
            await expect(other.read(created.id, urn, created.properties)).rejects.toThrow(expected);
            await expect(other.delete(created.id, urn, created.properties)).rejects.toThrow(expected);
            expect(emu.model.templates.get(Number(created.id))?.deleted).toBe(false);

            // The account's own key: found, and deleted.
            expect((await own.read(created.id, urn, created.properties)).id).toBe(created.id);
            await own.delete(created.id, urn, created.properties);
            expect(emu.model.templates.get(Number(created.id))?.deleted).toBe(true);
        } finally {
            await own.stop();
            await other.stop();
            await emu.stop();
        }
    });
});
