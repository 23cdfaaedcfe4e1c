import { ApiKey, Instance, SshKey, Template, apiKeyPermissions } from "../../provider";
import { clientFor } from "../../testkit/support/fixtures";
import { startStack, TestStack } from "../../testkit/support/stack";

// Each template search is paced at 3 s per key on the live service, an instance read at 2 s: a refresh
// that read them one by one would take five minutes for a hundred templates.
describe("refreshing many resources", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(async () => {
        await stack.engine.destroy();
        await stack.stop();
    });

    it("shares its searches, reads the rest ahead in one, and makes no other call but one to ask whose key it is, before one counts as gone", async () => {
        const names = Array.from({ length: 20 }, (_, i) => `refresh-${i}`);
        await stack.engine.up(() => names.map((n) => new Template(n, { name: n, image: "busybox" })));
        // Edited in the console before the refresh: a read answered from the read-ahead shows it too.
        const edited = stack.engine.get("refresh-17");
        stack.emu.consoleEditTemplate(Number(edited.id), { tag: "nightly" });
        // Deleted elsewhere: missing from the read-ahead, then from three searches by its id a moment
        // apart, which alone say it is gone.
        const victim = stack.engine.get("refresh-15");
        await clientFor(stack.emu).templates.delete(Number(victim.id));
        stack.emu.requests.length = 0;

        const summary = await stack.engine.refresh();

        expect(summary.update).toEqual(["refresh-17"]);
        expect(summary.delete).toEqual(["refresh-15"]);
        expect(summary.same).toHaveLength(names.length - 2);
        expect(stack.engine.get("refresh-17").outputs.tag).toBe("nightly");
        const calls = stack.emu.requests.map((r) => `${r.method} ${r.path}`);
        expect(new Set(calls)).toEqual(new Set(["GET /api/v0/template/", "GET /api/v0/users/current/"]));
        // Whose key it is, asked once in the process: only a template that looks gone needs it (templateOwnership.ts).
        expect(calls.filter((c) => c === "GET /api/v0/users/current/")).toHaveLength(1);
        // A search the rate limiter turned away is sent again, the same search: on a busy machine the
        // 19 ms test-speed interval can be squeezed on arrival. Only the searches it let through count.
        const filters = stack.emu.requestsTo("GET", "/api/v0/template/").map((r) => JSON.parse(String(r.query?.select_filters ?? "{}")));
        // The engine reads 8 at a time here (4 per core): the first round asks for its 8 by id; the
        // next, in the same burst of reads, for every template of the account, which answers the
        // rest; then the deleted one is looked for by id, and twice again.
        expect(filters.length).toBeLessThanOrEqual(6);
        expect(filters[0].id.in).toHaveLength(8);
        expect(filters.filter((f) => f.creator_id)).toHaveLength(1);
        expect(filters.filter((f) => f.id?.in?.includes(Number(victim.id)))).toHaveLength(3);
    });

    it("still tells a template deleted elsewhere from the rest on a second refresh (each read asks again)", async () => {
        const victim = stack.engine.get("refresh-3");
        await clientFor(stack.emu).templates.delete(Number(victim.id));
        const summary = await stack.engine.refresh();
        expect(summary.delete).toEqual(["refresh-3"]);
        expect(summary.same).toHaveLength(18);
    });

    it("reads instances through the v1 list: by id, then the account's page ahead; one missing is confirmed gone by its own read", async () => {
        const { emu, engine } = stack;
        const names = Array.from({ length: 12 }, (_, i) => `gpu-${i}`);
        const offers = names.map(() => emu.addOffer());
        await engine.up(() => names.map((n, i) => new Instance(n, { offerId: offers[i].id, image: "busybox", label: n })));
        // Destroyed elsewhere: missing from the read-ahead and from the list by its id, and gone in
        // the service's own words, three times (its own read, and two more a moment apart).
        const victim = engine.get("gpu-10");
        await clientFor(emu).instances.destroy(Number(victim.id));
        emu.requests.length = 0;

        const refreshed = await engine.refresh();

        expect(refreshed.delete).toEqual(["gpu-10"]);
        expect(refreshed.same).toEqual(expect.arrayContaining(names.filter((n) => n !== "gpu-10")));
        // Only calls the rate limiter let through: at test speed a paced read can be squeezed on arrival and sent again.
        const instanceCalls = emu.requests.filter((r) => r.path.includes("instances") && !r.rateLimited);
        expect(instanceCalls.filter((r) => !(r.method === "GET" && r.path === "/api/v1/instances/"))).toEqual(
            Array.from({ length: 3 }, () => expect.objectContaining({ method: "GET", path: `/api/v0/instances/${victim.id}/` })),
        );
        const lists = emu.requestsTo("GET", "/api/v1/instances/").map((r) => JSON.parse(String(r.query?.select_filters ?? "{}")));
        expect(lists.length).toBeLessThanOrEqual(4);
        expect(lists[0].id.in).toHaveLength(8);
        expect(lists.filter((f) => f.id === undefined)).toHaveLength(1);
        expect(lists.filter((f) => f.id?.in?.includes(Number(victim.id)))).toHaveLength(1);
    });

    it("reads API keys and SSH keys from the account's key listing, shared: a few listings for ten keys each, not ten", async () => {
        const { emu, engine } = stack;
        const ids = Array.from({ length: 10 }, (_, i) => i);
        const publicKey = (i: number) => `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForSharedReads${String(i).padStart(2, "0")}00000000000000 k${i}`;
        await engine.up(() => [
            ...ids.map((i) => new ApiKey(`key-${i}`, { name: `shared-${i}`, permissions: apiKeyPermissions("user_read") })),
            ...ids.map((i) => new SshKey(`ssh-${i}`, { publicKey: publicKey(i) })),
        ]);
        // Revoked and removed elsewhere: listings leave them out three times in a row, which is gone for a key.
        const vast = clientFor(emu);
        await vast.account.deleteApiKey(Number(engine.get("key-4").id));
        await vast.sshKeys.delete(Number(engine.get("ssh-7").id));
        emu.requests.length = 0;

        const refreshed = await engine.refresh();

        expect(refreshed.delete).toEqual(expect.arrayContaining(["key-4", "ssh-7"]));
        expect(refreshed.delete).toHaveLength(2);
        // A few for the ten, and the two looks again at the one gone (retryIfMissing.ts).
        expect(emu.requestsTo("GET", "/api/v0/auth/apikeys/").length).toBeLessThanOrEqual(5);
        expect(emu.requestsTo("GET", "/api/v0/ssh/").length).toBeLessThanOrEqual(5);
    });
});
