import type * as pulumi from "@pulumi/pulumi";
import { ApiKey, Instance, SshKey, Template, apiKeyPermissions } from "../../provider";
import { ProviderHost } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { Emulator } from "../../testkit/emulator/server";
import { eventually, startEmulator } from "../../testkit/support/fixtures";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";

// Another account's key sees none of an account's instances, SSH keys or API keys, nor its
// private templates. Before: a refresh with the stack's key switched to another account's dropped
// them from state as deleted (and a delete called it done) while they were still there: an
// instance still billed, an API key still working; the next up made a second one.
describe("a resource read with another account's key, through Pulumi's dynamic-provider host", () => {
    /** A host process per command, as the CLI runs them, each configured once with its key. */
    const hostWith = async (emu: Emulator, key: string, timeScale = TEST_TIME_SCALE) => {
        const host = await ProviderHost.start({ env: { VASTAI_TIME_SCALE: String(timeScale) } });
        await host.configure({ "vastai:apiKey": key, "vastai:baseUrl": emu.url });
        return host;
    };

    /** `created` as a refresh with a new key of the demo account records it (its `accountId`), in a host of its own. */
    const readWithAnotherKeyOfTheAccount = async (emu: Emulator, urn: string, created: { id: string; properties: Record<string, any> }) => {
        const rotated = await hostWith(emu, emu.createKey().key);
        try {
            return (await rotated.read(created.id, urn, created.properties)).properties;
        } finally {
            await rotated.stop();
        }
    };

    /**
     * A delete refused for the key's account says so, and only what fixes it. Before: it came
     * wrapped in "Run the command again; should this persist, remove it in the Vast.ai console,
     * then run `pulumi refresh`", a refresh that fails the same way.
     */
    const deleteRefused = async (call: Promise<unknown>, expected: string) => {
        const error = await call.then(() => undefined, (e: Error) => e);
        expect(error?.message).toContain(expected);
        expect(error?.message).not.toMatch(/run the command again|pulumi refresh/i);
    };

    /**
     * `build`'s resource created by the demo account's host (and, when the create records only the
     * key's mark, `recordedBy: "refresh"`, refreshed with another key of the account, which records
     * the account: a key that sees it is its account's); then a host
     * with another account's key must fail to refresh it and to delete it, with `expected`, leaving
     * it `stillThere`; and the account's own host deletes it.
     */
    async function refusedToAnotherAccount(
        build: (emu: Emulator) => pulumi.Resource,
        expected: (emu: Emulator, id: string) => string,
        stillThere: (emu: Emulator, created: { id: string; properties: Record<string, any> }) => boolean,
        ownerOutput: string,
        recordedBy: "create" | "refresh" = "create",
    ): Promise<void> {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const [reg] = await registerAsProgram(() => build(emu));
            const urn = own.urn(reg.type, reg.name);
            const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            if (recordedBy === "refresh") {
                expect(created.properties[ownerOutput]).toBeUndefined();
                created.properties = await readWithAnotherKeyOfTheAccount(emu, urn, created);
            }
            expect(created.properties[ownerOutput]).toBe(emu.demoUser.id);

            const message = `${expected(emu, created.id)} was made by account ${emu.demoUser.id}, but the API key in use is account ${emu.otherUser.id}'s`;
            await expect(other.read(created.id, urn, created.properties)).rejects.toThrow(message);
            await deleteRefused(other.delete(created.id, urn, created.properties), message);
            expect(stillThere(emu, created)).toBe(true);

            // State from before the output existed: a refresh with the account's own key records it.
            const { [ownerOutput]: _, ...older } = created.properties;
            expect((await own.read(created.id, urn, older)).properties[ownerOutput]).toBe(emu.demoUser.id);

            await own.delete(created.id, urn, created.properties);
            expect(stillThere(emu, created)).toBe(false);
        } finally {
            await own.stop();
            await other.stop();
            await emu.stop();
        }
    }

    // Before: an instance had no owner in state, and another account's key, which sees no instance
    // of this one, read it as gone: a refresh dropped it from state and a destroy called it done,
    // while it ran and was billed. The create records the key's mark (below); a refresh, the account.
    it("an Instance is not taken as gone: the refresh and the destroy fail, naming both accounts, and it keeps running", () =>
        refusedToAnotherAccount(
            (emu) => new Instance("gpu", { offerId: emu.addOffer().id, image: "busybox", waitForRunning: false }),
            (_emu, id) => `instance ${id}`,
            (emu, created) => emu.model.instances.get(Number(created.id))?.destroyed === false,
            "accountId",
            "refresh",
        ));

    // The create is one call: it records the key's mark, not the account (no GET /users/current/).
    // Before, every host process asked the account beside its rents. Another account's key is
    // refused all the same, by the mark; the key that made it reads it gone once it is.
    it("an Instance's create asks no account: it records the key's mark, another account's key is refused, the same key's not-found believed", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const [reg] = await registerAsProgram(() => new Instance("gpu", { offerId: emu.addOffer().id, image: "busybox", label: "one-call", waitForRunning: false }));
            const urn = own.urn(reg.type, reg.name);
            const from = emu.requests.length;
            const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            // The account's instances listed once (an interrupted create's instance is looked for), then the rent.
            expect(emu.requests.slice(from).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v1/instances/", expect.stringMatching(/^PUT \/api\/v0\/asks\/\d+\/$/)]);
            expect(created.properties.accountId).toBeUndefined();
            expect(created.properties.keyMark).toMatch(/^[0-9a-f]{8}$/);

            const expected = `instance ${created.id} was made (or last read) with another API key (mark ${created.properties.keyMark};`;
            await expect(other.read(created.id, urn, created.properties)).rejects.toThrow(expected);
            await deleteRefused(other.delete(created.id, urn, created.properties), expected);
            expect(emu.model.instances.get(Number(created.id))?.destroyed).toBe(false);

            // A refresh with the same key keeps the mark as it is, and asks no account either.
            const asked = emu.requestsTo("GET", "/api/v0/users/current/").length;
            const refreshed = await own.read(created.id, urn, created.properties);
            expect(refreshed.properties).toMatchObject({ keyMark: created.properties.keyMark });
            expect(refreshed.properties.accountId).toBeUndefined();
            expect(emu.requestsTo("GET", "/api/v0/users/current/")).toHaveLength(asked);

            emu.model.instances.get(Number(created.id))!.destroyed = true;
            expect((await own.read(created.id, urn, created.properties)).id).toBe("");
        } finally {
            await own.stop();
            await other.stop();
            await emu.stop();
        }
    });

    it("an SshKey is not taken as removed: the refresh and the delete fail, naming both accounts", () =>
        refusedToAnotherAccount(
            () => new SshKey("laptop", { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyAccount00000000000000 me@laptop" }),
            (_emu, id) => `SSH key ${id}`,
            (emu, created) => emu.model.sshKeys.has(Number(created.id)),
            "accountId",
        ));

    it("an ApiKey is not taken as revoked: the refresh and the delete fail, naming both accounts, and the key still works", () =>
        refusedToAnotherAccount(
            () => new ApiKey("ci", { name: "ci-reader", permissions: apiKeyPermissions("user_read") }),
            (_emu, id) => `API key ${id}`,
            (emu, created) => emu.model.keys.get(created.properties.key)?.revokedStatus === undefined,
            "accountId",
        ));

    it("a Template is not taken as deleted: the read and the delete fail, naming both accounts", () =>
        refusedToAnotherAccount(
            () => new Template("mine", { name: "mine", image: "busybox" }),
            (_emu, id) => `template ${id}`,
            (emu, created) => emu.model.templates.get(Number(created.id))?.deleted === false,
            "creatorId",
        ));

    it("a key that may not read its account (no user_read) still rents and refreshes, asking no account; the instance has no accountId", async () => {
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
            expect(emu.requestsTo("GET", "/api/v0/users/current/")).toHaveLength(0);
        } finally {
            await scoped.stop();
            await emu.stop();
        }
    });

    // The README's permissions: an instance from a template needs user_read too, for the template's look-up.
    it("a key without user_read cannot rent from a template: the look-up's 403 names user_read, and nothing is rented", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const template = emu.model.addTemplate(emu.demoUser.id, { name: "scoped", image: "busybox", tag: "latest", runtype: "ssh", env: "" });
        const scoped = await hostWith(emu, emu.createKey({ api: { instance_read: {}, instance_write: {} } }).key);
        try {
            const offer = emu.addOffer();
            const [reg] = await registerAsProgram(() => new Instance("from-template", { offerId: offer.id, templateHashId: template.hash_id, waitForRunning: false }));
            const urn = scoped.urn(reg.type, reg.name);
            const error = await scoped.create(urn, (await scoped.check(urn, {}, reg.inputs)).inputs).catch((e: Error) => e);
            expect(String(error)).toMatch(/search templates failed: HTTP 403 forbidden: .*needs the "user_read" permission/);
            expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
        } finally {
            await scoped.stop();
            await emu.stop();
        }
    });

    // Before: an instance made with such a key had nothing in state to tell whose it was, and
    // another account's key, seeing nothing, read it as gone: a refresh dropped it, billed.
    it("an instance made with a key that cannot tell its account keeps the key's mark: another key's not-found is refused, the same key's is believed", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const scopedKey = emu.createKey({ api: { instance_read: {}, instance_write: {} } }).key;
        const scoped = await hostWith(emu, scopedKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const [reg] = await registerAsProgram(() => new Instance("gpu", { offerId: emu.addOffer().id, image: "busybox", waitForRunning: false }));
            const urn = scoped.urn(reg.type, reg.name);
            const created = await scoped.create(urn, (await scoped.check(urn, {}, reg.inputs)).inputs);
            expect(created.properties.accountId).toBeUndefined();
            const mark = created.properties.keyMark as string;
            expect(mark).toMatch(/^[0-9a-f]{8}$/);
            expect(scopedKey).not.toContain(mark);
            expect((await scoped.read(created.id, urn, created.properties)).properties.keyMark).toBe(mark);

            const expected = `instance ${created.id} was made (or last read) with another API key (mark ${mark};`;
            await expect(other.read(created.id, urn, created.properties)).rejects.toThrow(expected);
            await deleteRefused(other.delete(created.id, urn, created.properties), expected);
            expect(emu.model.instances.get(Number(created.id))?.destroyed).toBe(false);

            // Destroyed outside Pulumi: the key that made it reads it gone.
            emu.model.instances.get(Number(created.id))!.destroyed = true;
            expect((await scoped.read(created.id, urn, created.properties)).id).toBe("");
        } finally {
            await scoped.stop();
            await other.stop();
            await emu.stop();
        }
    });

    // Before: the create of a made API key (and of a rented instance, which now asks nothing)
    // waited for the look-up through all its retries (at live speed four 60 s timeouts) before
    // returning what it made: all that time the key worked and was not in state.
    it("an account look-up that does not answer does not hold back an API key's create: recorded without accountId, a refresh once it answers records it", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        // At a tenth of live speed a request times out after 6 s, and a create waits 1 s for the
        // account once it has made its resource: the look-up below is still unanswered then.
        const own = await hostWith(emu, emu.demoKey, 0.1);
        const CURRENT_USER = "/api/v0/users/current/";
        try {
            emu.faults.add({ method: "GET", path: CURRENT_USER, fault: { kind: "timeout", acted: false, holdMs: 60_000 }, times: 1 });
            const regs = await registerAsProgram(() => [new ApiKey("ci", { name: "ci-reader", permissions: apiKeyPermissions("user_read") })]);
            const made = [];
            for (const reg of regs) {
                const urn = own.urn(reg.type, reg.name);
                const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
                // Returned while the one look-up was still unanswered, not after its retries.
                expect(emu.requestsTo("GET", CURRENT_USER)).toHaveLength(1);
                expect(created.properties.accountId).toBeUndefined();
                made.push({ urn, ...created });
            }
            emu.faults.clear();
            // The look-up's retry (after the hung try's 6-s timeout) answers; a refresh records what it told.
            await eventually(async () => emu.requestsTo("GET", CURRENT_USER).length >= 2, 15_000);
            for (const { urn, id, properties } of made) {
                expect((await own.read(id, urn, properties)).properties).toMatchObject({ accountId: emu.demoUser.id });
            }
        } finally {
            await own.stop();
            await emu.stop();
        }
    });

    // Before: the read failed on "show current user failed: HTTP 403" alone, and the destroy
    // wrapped that in "Run the command again; ... then run `pulumi refresh`", which fails alike.
    it("a key that cannot tell its account (no user_read) does not take another key's instance as gone, and says which key to use", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const scoped = await hostWith(emu, emu.createKey({ api: { instance_read: {}, instance_write: {} } }, emu.otherUser.id).key);
        try {
            const [reg] = await registerAsProgram(() => new Instance("gpu", { offerId: emu.addOffer().id, image: "busybox", waitForRunning: false }));
            const urn = own.urn(reg.type, reg.name);
            const made = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            // A refresh with another key of the account records the account.
            const created = { id: made.id, properties: await readWithAnotherKeyOfTheAccount(emu, urn, made) };
            expect(created.properties).toMatchObject({ accountId: emu.demoUser.id });

            const expected = `instance ${created.id} was made by account ${emu.demoUser.id}, and the API key in use cannot see it nor tell its own account`;
            await expect(scoped.read(created.id, urn, created.properties)).rejects.toThrow(expected);
            await expect(scoped.read(created.id, urn, created.properties)).rejects.toThrow(`to a key of account ${emu.demoUser.id} with the "user_read" permission`);
            await deleteRefused(scoped.delete(created.id, urn, created.properties), expected);
            expect(emu.model.instances.get(Number(created.id))?.destroyed).toBe(false);
        } finally {
            await own.stop();
            await scoped.stop();
            await emu.stop();
        }
    });

    // The service refuses a template delete by a key not the creator's with 401 "Templates can ONLY
    // be Deleted by their Creator" (its API reference). Before, the emulator answered 404, the read
    // that followed saw no template (another account's private one), and a delete from state written
    // before `creatorId` existed was called done while the template stayed.
    it("a Template from state without its creator is not taken as deleted by another account's key: the service's refusal is said", async () => {
        const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
        const own = await hostWith(emu, emu.demoKey);
        const other = await hostWith(emu, emu.createKey(undefined, emu.otherUser.id).key);
        try {
            const [reg] = await registerAsProgram(() => new Template("mine", { name: "mine", image: "busybox" }));
            const urn = own.urn(reg.type, reg.name);
            const created = await own.create(urn, (await own.check(urn, {}, reg.inputs)).inputs);
            const { creatorId: _, ...older } = created.properties;

            await deleteRefused(other.delete(created.id, urn, older), "only the template's creator can delete it");
            expect(emu.model.templates.get(Number(created.id))?.deleted).toBe(false);
        } finally {
            await own.stop();
            await other.stop();
            await emu.stop();
        }
    });
});
