import { oneCreateAtATime } from "../../provider/resources/lostCreate";

/** Creates whose lost answers would be looked for by the same marks run one after another; others side by side. */
describe("oneCreateAtATime", () => {
    const gate = () => {
        let open!: () => void;
        const opened = new Promise<void>((resolve) => (open = resolve));
        return { open, opened };
    };

    it("runs creates of one mark one after another, a failed one not blocking the next, and other marks alongside", async () => {
        const order: string[] = [];
        const first = gate();
        const a1 = oneCreateAtATime("template t\nbusybox", async () => {
            order.push("a1 start");
            await first.opened;
            order.push("a1 end");
            throw new Error("a1 failed");
        });
        const a2 = oneCreateAtATime("template t\nbusybox", async () => {
            order.push("a2 start");
            return "a2";
        });
        const b = oneCreateAtATime("template other\nbusybox", async () => {
            order.push("b start");
            return "b";
        });
        await expect(b).resolves.toBe("b");
        expect(order).toEqual(["a1 start", "b start"]);
        first.open();
        await expect(a1).rejects.toThrow("a1 failed");
        await expect(a2).resolves.toBe("a2");
        expect(order).toEqual(["a1 start", "b start", "a1 end", "a2 start"]);
    });
});
