import { Instance, Template } from "../../provider";
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

    it("shares its searches (id in [...]) and makes no other call, not even to ask whose key it is", async () => {
        const names = Array.from({ length: 12 }, (_, i) => `refresh-${i}`);
        await stack.engine.up(() => names.map((n) => new Template(n, { name: n, image: "busybox" })));
        stack.emu.requests.length = 0;

        const summary = await stack.engine.refresh();

        expect(summary.same.sort()).toEqual([...names].sort());
        const calls = stack.emu.requests.map((r) => `${r.method} ${r.path}`);
        expect(new Set(calls)).toEqual(new Set(["GET /api/v0/template/"]));
        // A search the rate limiter turned away is sent again, the same search: on a busy machine the
        // 30 ms test-speed interval can be squeezed on arrival. Only the searches it let through count.
        const answered = stack.emu.requestsTo("GET", "/api/v0/template/");
        // The engine reads 8 at a time here (4 per core); every read waiting behind a search joins the next one.
        expect(answered.length).toBeLessThanOrEqual(3);
        const idsOf = (r: { query?: Record<string, string> }): number[] => JSON.parse(String(r.query?.select_filters ?? "{}")).id?.in ?? [];
        const asked = answered.flatMap(idsOf);
        expect(asked).toHaveLength(names.length);
        expect(new Set(asked).size).toBe(names.length);
    });

    it("still tells a template deleted elsewhere from the rest", async () => {
        const victim = stack.engine.get("refresh-3");
        await clientFor(stack.emu).templates.delete(Number(victim.id));
        const summary = await stack.engine.refresh();
        expect(summary.delete).toEqual(["refresh-3"]);
        expect(summary.same).toHaveLength(11);
    });

    it("reads instances through one list call per round (id in [...]), and confirms a missing one with its own read", async () => {
        const { emu, engine } = stack;
        const names = Array.from({ length: 6 }, (_, i) => `gpu-${i}`);
        const offers = names.map(() => emu.addOffer());
        await engine.up(() => names.map((n, i) => new Instance(n, { offerId: offers[i].id, image: "busybox", label: n })));
        emu.requests.length = 0;
        const refreshed = await engine.refresh();
        expect(refreshed.same).toEqual(expect.arrayContaining(names));
        const instanceCalls = emu.requests.filter((r) => r.path.includes("instances"));
        expect(instanceCalls.every((r) => r.method === "GET" && r.path === "/api/v1/instances/")).toBe(true);
        expect(instanceCalls.length).toBeLessThanOrEqual(2);

        // Destroyed elsewhere: missing from the list, and gone in the service's own words.
        const victim = engine.get("gpu-2");
        await clientFor(emu).instances.destroy(Number(victim.id));
        emu.requests.length = 0;
        const after = await engine.refresh();
        expect(after.delete).toEqual(["gpu-2"]);
        expect(emu.requestsTo("GET", `/api/v0/instances/${victim.id}/`)).toHaveLength(1);
    });
});
