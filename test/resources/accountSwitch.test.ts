import { ApiKey, Instance, SshKey, Template, apiKeyPermissions } from "../../provider";
import { ProviderHost } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { startEmulator } from "../../testkit/support/fixtures";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";

// Another account's key sees none of an account's instances, SSH keys or API keys, nor its
// private templates. Before: a refresh with the stack's key switched to another account's dropped
// them from state as deleted (and a delete called it done) while they were still there: an
// instance still billed, an API key still working; the next up made a second one.
describe("a resource read with another account's key, through Pulumi's dynamic-provider host", () => {
    /** A host process per command, as the CLI runs them, each configured once with its key. */
    const hostWith = async (emu: { url: string }, key: string) => {
        const host = await ProviderHost.start({ env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) } });
        await host.configure({ "vastai:apiKey": key, "vastai:baseUrl": emu.url });
        return host;
    };

    // Before: an instance had no owner in state, and another account's key, which sees no instance
    // of this one, read it as gone: a refresh dropped it from state and a destroy called it done,
    // while it ran and was billed.
    it("an Instance is not taken as gone: the refresh and the destroy fail, naming both accounts, and it keeps running", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const offer = emu.addOffer();
            const [reg] = await registerAsProgram(() => new Instance("gpu", { offerId: offer.id, image: "busybox", waitForRunning: false }));
            const urn = own.urn(reg.type, reg.name);
            const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            expect(created.properties).toMatchObject({ accountId: emu.demoUser.id });

            const expected = `instance ${created.id} was made by account ${emu.demoUser.id}, but the API key in use is account ${emu.otherUser.id}'s`;
            await expect(other.read(created.id, urn, created.properties)).rejects.toThrow(expected);
            await expect(other.delete(created.id, urn, created.properties)).rejects.toThrow(expected);
            expect(emu.model.instances.get(Number(created.id))?.destroyed).toBe(false);

            // State from before `accountId` existed: the first refresh with the account's own key records it.
            const { accountId: _, ...older } = created.properties;
            expect((await own.read(created.id, urn, older)).properties).toMatchObject({ accountId: emu.demoUser.id });

            await own.delete(created.id, urn, created.properties);
            expect(emu.model.instances.get(Number(created.id))?.destroyed).toBe(true);
        } finally {
            await own.stop();
            await other.stop();
            await emu.stop();
        }
    });

    it("a key that may not read its account (no user_read) still rents; asked once, and the instance has no accountId", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const scoped = await hostWith(emu, emu.createKey({ api: { instance_read: {}, instance_write: {} } }).key);
        try {
            const [a, b] = await registerAsProgram(() => [
                new Instance("a", { offerId: emu.addOffer().id, image: "busybox", waitForRunning: false }),
                new Instance("b", { offerId: emu.addOffer().id, image: "busybox", waitForRunning: false }),
            ]);
            for (const reg of [a, b]) {
                const urn = scoped.urn(reg.type, reg.name);
                const created = await scoped.create(urn, (await scoped.check(urn, {}, reg.inputs)).inputs);
                expect(created.properties.accountId).toBeUndefined();
                expect((await scoped.read(created.id, urn, created.properties)).properties.accountId).toBeUndefined();
            }
            expect(emu.requestsTo("GET", "/api/v0/users/current/")).toHaveLength(1);
        } finally {
            await scoped.stop();
            await emu.stop();
        }
    });

    it("an SshKey is not taken as removed: the refresh and the delete fail, naming both accounts", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const publicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyAccount00000000000000 me@laptop";
            const [reg] = await registerAsProgram(() => new SshKey("laptop", { publicKey }));
            const urn = own.urn(reg.type, reg.name);
            const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            expect(created.properties).toMatchObject({ accountId: emu.demoUser.id });

            const expected = `SSH key ${created.id} was made by account ${emu.demoUser.id}, but the API key in use is account ${emu.otherUser.id}'s`;
            await expect(other.read(created.id, urn, created.properties)).rejects.toThrow(expected);
            await expect(other.delete(created.id, urn, created.properties)).rejects.toThrow(expected);
            expect(emu.model.sshKeys.get(Number(created.id))).toBeDefined();

            await own.delete(created.id, urn, created.properties);
            expect(emu.model.sshKeys.get(Number(created.id))).toBeUndefined();
        } finally {
            await own.stop();
            await other.stop();
            await emu.stop();
        }
    });

    it("an ApiKey is not taken as revoked: the refresh and the delete fail, naming both accounts, and the key still works", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const [reg] = await registerAsProgram(() => new ApiKey("ci", { name: "ci-reader", permissions: apiKeyPermissions("user_read") }));
            const urn = own.urn(reg.type, reg.name);
            const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            expect(created.properties).toMatchObject({ accountId: emu.demoUser.id });
            const secret = created.properties.key as string;

            const expected = `API key ${created.id} was made by account ${emu.demoUser.id}, but the API key in use is account ${emu.otherUser.id}'s`;
            await expect(other.read(created.id, urn, created.properties)).rejects.toThrow(expected);
            await expect(other.delete(created.id, urn, created.properties)).rejects.toThrow(expected);
            expect(emu.model.keys.get(secret)?.revokedAnswer).toBeUndefined();

            await own.delete(created.id, urn, created.properties);
            expect(emu.model.keys.get(secret)?.revokedAnswer).toBeDefined();
        } finally {
            await own.stop();
            await other.stop();
            await emu.stop();
        }
    });

    it("a Template is not taken as deleted: the read and the delete fail, naming both accounts", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
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
