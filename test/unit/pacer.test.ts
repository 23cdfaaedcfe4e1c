import { Pacer } from "../../provider/client/pacer";

describe("Pacer", () => {
    it("lets calls in one lane leave in order, each at least the interval after the last", async () => {
        const pacer = new Pacer();
        const left: Array<{ i: number; at: number }> = [];
        await Promise.all(Array.from({ length: 5 }, (_, i) => pacer.wait("lane", 20).then(() => left.push({ i, at: Date.now() }))));
        expect(left.map((l) => l.i)).toEqual([0, 1, 2, 3, 4]);
        // A lower bound only: the pacer guarantees it whatever the machine's load.
        for (let k = 1; k < left.length; k++) expect(left[k].at - left[k - 1].at).toBeGreaterThanOrEqual(20);
    });

    it("keeps lanes apart: a call in another lane does not wait, the next in the same lane does", async () => {
        let clock = 0;
        const slept: number[] = [];
        const pacer = new Pacer(
            () => clock,
            async (ms) => {
                slept.push(ms);
                clock += ms;
            },
        );
        await pacer.wait("a", 1000);
        await pacer.wait("b", 1000);
        expect(slept).toEqual([]);
        await pacer.wait("a", 1000);
        // the interval, plus the small guard band for arrival jitter
        expect(slept).toEqual([1000 * 1.05 + 2]);
    });

    it("widens a lane after a 429, within a cap", () => {
        const pacer = new Pacer(() => 0);
        pacer.penalize("lane", 0, 10, 100);
        expect(pacer.intervalOf("lane", 0)).toBe(10);
        pacer.penalize("lane", 0, 10, 100);
        expect(pacer.intervalOf("lane", 0)).toBe(15);
        for (let i = 0; i < 20; i++) pacer.penalize("lane", 0, 10, 100);
        expect(pacer.intervalOf("lane", 0)).toBe(100);
        expect(pacer.intervalOf("lane", 300)).toBe(300);
    });

    it("takes the interval a 429 names, and widens from there only when turned away again", () => {
        const pacer = new Pacer(() => 0);
        pacer.penalize("lane", 0, 10, 100, 500);
        expect(pacer.intervalOf("lane", 0)).toBe(500);
        // Named again while already kept: arrival jitter or a misread unit; widen, never shrink.
        pacer.penalize("lane", 0, 10, 100, 500);
        expect(pacer.intervalOf("lane", 0)).toBe(500);
        pacer.penalize("lane", 0, 10, 1000, 500);
        expect(pacer.intervalOf("lane", 0)).toBe(750);
        // A garbled, huge threshold is not believed past a minute.
        pacer.penalize("other", 0, 10, 100, 3_600_000);
        expect(pacer.intervalOf("other", 0)).toBe(60_000);
    });
});
