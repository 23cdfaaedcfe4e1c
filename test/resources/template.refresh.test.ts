import { Template } from "../../provider";
import { clientFor } from "../../testkit/support/fixtures";
import { startStack, TestStack } from "../../testkit/support/stack";

// Each template search is paced at 3 s per key on the live service: a refresh that searched once per
// template would take five minutes for a hundred of them.
describe("refreshing many templates", () => {
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
        // The engine reads 8 at a time here (4 per core); every read waiting behind a search joins the next one.
        expect(calls.length).toBeLessThanOrEqual(3);
        const asked = stack.emu.requests.flatMap((r) => JSON.parse(String(r.query?.select_filters ?? "{}")).id?.in ?? []);
        expect(asked).toHaveLength(names.length);
    });

    it("still tells a template deleted elsewhere from the rest", async () => {
        const victim = stack.engine.get("refresh-3");
        await clientFor(stack.emu).templates.delete(Number(victim.id));
        const summary = await stack.engine.refresh();
        expect(summary.delete).toEqual(["refresh-3"]);
        expect(summary.same).toHaveLength(11);
    });
});
