import { BatchedReads, READ_AHEAD_FRESH_MS, ReadSource } from "../../provider/resources/batchedReads";

interface Rec {
    id: number;
    v: string;
}

/**
 * A source over a table the test edits, recording each call; the client's write mark is the
 * test's to move. Unit level on purpose: the rules of when a read-ahead may answer. That reads
 * share calls through Pulumi's host against the emulator is test/resources/sharedReads.test.ts.
 */
function source(ids: number[], pageSize = Infinity) {
    const table = new Map(ids.map((id) => [id, { id, v: "v1" }]));
    const calls: string[] = [];
    let mark: number | undefined = 0;
    let clock = 0;
    let duringAhead = () => {};
    const src: ReadSource<Rec> = {
        maxIds: 100,
        byIds: async (asked) => {
            calls.push(`byIds ${asked.join(",")}`);
            return new Map(asked.filter((id) => table.has(id)).map((id) => [id, { ...table.get(id)! }]));
        },
        // Pages in id order, `after` the last id of the page before.
        ahead: async (owner, after) => {
            if (owner === undefined) return undefined;
            calls.push(after === undefined ? "ahead" : `ahead after ${after}`);
            duringAhead();
            const rest = [...table.values()].filter((r) => after === undefined || r.id > Number(after)).sort((a, b) => a.id - b.id);
            const records = rest.slice(0, pageSize).map((r) => ({ ...r }));
            return { records, next: rest.length > pageSize ? String(records[records.length - 1].id) : undefined };
        },
        writeMark: () => mark,
    };
    const reads = new BatchedReads(src, () => clock);
    return {
        table,
        calls,
        reads,
        /** Reads these ids as the engine does: together, each with the owner state keeps. */
        read: (asked: number[]) => Promise.all(asked.map((id) => reads.get(id, 7))),
        write: () => (mark = (mark ?? 0) + 1),
        writeOnItsWay: () => (mark = undefined),
        pass: (ms: number) => (clock += ms),
        duringAhead: (f: () => void) => (duringAhead = f),
    };
}

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe("BatchedReads", () => {
    it("shares one call among the reads that come together, and reads ahead on the next round of a burst", async () => {
        const s = source(ids(20));
        expect((await s.read(ids(8))).map((r) => r?.id)).toEqual(ids(8));
        expect(s.calls).toEqual([`byIds ${ids(8).join(",")}`]);
        await s.read(ids(8, 9));
        expect(s.calls).toEqual([`byIds ${ids(8).join(",")}`, "ahead"]);
        // The rest of the burst: answered from the read-ahead, no call.
        expect((await s.read(ids(4, 17))).map((r) => r?.id)).toEqual(ids(4, 17));
        expect(s.calls).toHaveLength(2);
    });

    it("answers only an id's first read from a read-ahead: a second read asks the service", async () => {
        const s = source(ids(20));
        await s.read(ids(8));
        await s.read(ids(8, 9));
        s.table.get(3)!.v = "edited elsewhere";
        s.table.get(17)!.v = "edited elsewhere";
        // 3 was read before the read-ahead was taken: asked again. 17's first read is answered from
        // the read-ahead (an edit made elsewhere during a refresh may land either side of it); its second asks.
        expect((await s.read([3]))[0]?.v).toBe("edited elsewhere");
        expect((await s.read([17]))[0]?.v).toBe("v1");
        expect((await s.read([17]))[0]?.v).toBe("edited elsewhere");
        expect(s.calls.slice(2)).toEqual(["byIds 3", "byIds 17"]);
    });

    it("drops a read-ahead once the client has sent a write, or once it is older than its freshness", async () => {
        const written = source(ids(20));
        await written.read(ids(8));
        await written.read(ids(8, 9));
        written.table.get(17)!.v = "edited";
        written.write();
        expect((await written.read([17]))[0]?.v).toBe("edited");
        // Still in the burst: a new read-ahead, taken after the write.
        expect(written.calls.slice(2)).toEqual(["ahead"]);

        const old = source(ids(20));
        await old.read(ids(8));
        await old.read(ids(8, 9));
        old.table.get(17)!.v = "edited";
        old.pass(READ_AHEAD_FRESH_MS);
        expect((await old.read([17]))[0]?.v).toBe("edited");
        expect(old.calls.slice(2)).toEqual(["byIds 17"]);
    });

    it("keeps no read-ahead that a write of the client may have overtaken, and takes none while one is on its way", async () => {
        const s = source(ids(20));
        await s.read(ids(8));
        // A write leaves while the read-ahead is on its way: what it answered serves its own round only.
        s.duringAhead(() => s.write());
        await s.read(ids(8, 9));
        s.duringAhead(() => {});
        s.table.get(17)!.v = "edited";
        s.pass(2_000);
        expect((await s.read([17]))[0]?.v).toBe("edited");
        expect(s.calls.slice(1)).toEqual(["ahead", "byIds 17"]);

        const busy = source(ids(20));
        await busy.read(ids(8));
        busy.writeOnItsWay();
        await busy.read(ids(8, 9));
        expect(busy.calls.slice(1)).toEqual([`byIds ${ids(8, 9).join(",")}`]);
    });

    it("asks by id for what a read-ahead lacks: only that answer says an id is gone", async () => {
        const s = source(ids(10));
        await s.read(ids(8));
        const [found, gone] = await s.read([9, 42]);
        expect(found?.id).toBe(9);
        expect(gone).toBeUndefined();
        expect(s.calls).toEqual([`byIds ${ids(8).join(",")}`, "ahead", "byIds 42"]);
    });

    it("reads ahead only in a burst (after a round of several reads, not long ago), and only when the source can", async () => {
        const s = source(ids(20));
        // Rounds of one read each: no burst.
        await s.read([1]);
        await s.read([2]);
        expect(s.calls).toEqual(["byIds 1", "byIds 2"]);
        // A round of several, then another long after: no burst either.
        await s.read([3, 4]);
        s.pass(5_000);
        await s.read([5]);
        expect(s.calls.slice(2)).toEqual(["byIds 3,4", "byIds 5"]);
        // In a burst, but no owner given: the source cannot read ahead.
        await s.read([6, 7]);
        await Promise.all([s.reads.get(8), s.reads.get(9)]);
        expect(s.calls.slice(4)).toEqual(["byIds 6,7", "byIds 8,9"]);
    });

    it("after a round of several reads, waits for the engine's next reads to gather, which it sends one by one", async () => {
        const calls: number[][] = [];
        // A gathering window far wider than the provider's 20 ms: with the whole suite running, eight
        // turns of the event loop have taken longer than that here, and the round went without them.
        const reads = new BatchedReads<Rec>(
            {
                maxIds: 100,
                byIds: async (asked) => {
                    calls.push(asked);
                    return new Map(asked.map((id) => [id, { id, v: "v1" }]));
                },
                writeMark: () => 0,
            },
            Date.now,
            500,
        );
        await Promise.all(ids(8).map((id) => reads.get(id)));
        // The next eight come as the engine gets its answers: each on a turn of the event loop of its own.
        const next: Promise<Rec | undefined>[] = [];
        for (const id of ids(8, 9)) {
            next.push(reads.get(id));
            await new Promise((resolve) => setImmediate(resolve));
        }
        await Promise.all(next);
        expect(calls).toEqual([ids(8), ids(8, 9)]);
        // Fewer come (the refresh is ending): the round goes with what it has, a moment later.
        await Promise.all([reads.get(20), reads.get(21)]);
        expect(calls.slice(2)).toEqual([[20, 21]]);
    });

    it("takes the read-ahead's next page for reads it lacks, while its last page answered as many reads as the round asks", async () => {
        const s = source(ids(60), 25);
        await s.read(ids(8));
        await s.read(ids(8, 9)); // the first page: 1-25
        await s.read(ids(8, 17)); // from it, no call
        // 25 from the first page; 26-32 a round of 7 it cannot answer, and it answered 17: the next page.
        expect((await s.read(ids(8, 25))).map((r) => r?.id)).toEqual(ids(8, 25));
        await s.read(ids(8, 33));
        await s.read(ids(8, 41));
        await s.read(ids(8, 49)); // 49-50 from the second page, 51-56 from the third
        expect((await s.read(ids(4, 57))).map((r) => r?.id)).toEqual(ids(4, 57));
        expect(s.calls).toEqual([`byIds ${ids(8).join(",")}`, "ahead", "ahead after 25", "ahead after 50"]);
    });

    it("answers from a page the first reads that came while it was on its way, with no call", async () => {
        const s = source(ids(60), 25);
        await s.read(ids(8));
        let meanwhile: Promise<(Rec | undefined)[]> | undefined;
        s.duringAhead(() => (meanwhile ??= s.read([17, 18])));
        await s.read(ids(8, 9));
        expect((await meanwhile!).map((r) => r?.id)).toEqual([17, 18]);
        expect(s.calls).toEqual([`byIds ${ids(8).join(",")}`, "ahead"]);
    });

    it("looks for what a page lacks on the pages after it, and by id once none is left: only that answer says an id is gone", async () => {
        const s = source(ids(60), 25);
        await s.read(ids(8));
        await s.read(ids(8, 9));
        await s.read(ids(8, 17));
        // A round across pages (the engine's order is not the list's), and 77, which the account does not have.
        const got = await s.read([25, 26, 27, 28, 29, 30, 51, 77]);
        expect(got.map((r) => r?.id)).toEqual([25, 26, 27, 28, 29, 30, 51, undefined]);
        expect(s.calls).toEqual([`byIds ${ids(8).join(",")}`, "ahead", "ahead after 25", "ahead after 50", "byIds 77"]);
    });

    it("asks by id, not for the next page, once a page answers fewer reads than a round asks, or a write was sent", async () => {
        // 100 instances on the account, the stack has every fifth: a page answers 5 reads at most.
        const s = source(ids(100), 25);
        const every5th = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + 5 * i);
        await s.read(every5th(5, 8)); // 5-40
        await s.read(every5th(45, 8)); // the first page (1-25) answers none of 45-80: asked by id
        await s.read(every5th(85, 4));
        expect(s.calls).toEqual([`byIds ${every5th(5, 8).join(",")}`, "ahead", `byIds ${every5th(45, 8).join(",")}`, `byIds ${every5th(85, 4).join(",")}`]);

        const t = source(ids(60), 25);
        await t.read(ids(8));
        await t.read(ids(8, 9));
        await t.read(ids(8, 17));
        // After a write the read-ahead answers nothing: the round starts one afresh, from the first
        // page, not the old one's next; what that lacks is asked by id.
        t.write();
        await t.read(ids(8, 25));
        expect(t.calls.slice(2)).toEqual(["ahead", `byIds ${ids(7, 26).join(",")}`]);
    });

    it("fails every read of a round whose call fails, and goes on with the next", async () => {
        let fail = true;
        const flaky = new BatchedReads<Rec>({
            maxIds: 100,
            byIds: async (asked) => {
                if (fail) throw new Error("spoiled");
                return new Map(asked.map((id) => [id, { id, v: "v1" }]));
            },
            writeMark: () => 0,
        });
        await expect(Promise.all([flaky.get(1), flaky.get(2)])).rejects.toThrow("spoiled");
        fail = false;
        expect((await flaky.get(1))?.id).toBe(1);
    });
});
