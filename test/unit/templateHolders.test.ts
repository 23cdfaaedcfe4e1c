import { hold, isHeld, release, newHolder } from "../../provider/resources/template/common/templateHolders";

describe("templateHolders: which resources of a process hold a template", () => {
    it("a template two resources hold is let go by the last one only", () => {
        const [a, b] = [newHolder(), newHolder()];
        expect(hold(101, a)).toBe(0);
        expect(hold(101, b)).toBe(1);
        expect(hold(101, a)).toBe(1); // a diff after its create holds nothing more
        expect(release(101, a)).toBe(true);
        expect(release(101, b)).toBe(false);
        expect(isHeld(101)).toBe(false);
    });

    it("a resource from before holders: one held keeps the template, whichever of them goes; none held lets it go", () => {
        expect(release(102, undefined)).toBe(false);
        // Two such resources hold 103; the one the program still has was diffed, the other is deleted.
        hold(103, undefined);
        expect(release(103, undefined)).toBe(true);
        expect(isHeld(103)).toBe(true);
    });
});
