import { isStopped } from "../../provider/resources/instance/wait/instanceState";

describe("isStopped: when a stop is done", () => {
    it("is stopped when the service says so", () => {
        expect(isStopped({ actual_status: "stopped", intended_status: "running" })).toBe(true);
        expect(isStopped({ actual_status: "stopped", intended_status: "stopped" })).toBe(true);
    });

    it("created stopped (target_state), it is stopped when meant to be and it never ran: no status yet, or its container made, not run", () => {
        expect(isStopped({ actual_status: null, intended_status: "stopped" }, true)).toBe(true);
        expect(isStopped({ actual_status: "created", intended_status: "stopped" }, true)).toBe(true);
        expect(isStopped({ actual_status: "created", intended_status: "running" }, true)).toBe(false);
    });

    it("a stop asked of one still provisioning after a running create must show stopped: it could yet start", () => {
        expect(isStopped({ actual_status: null, intended_status: "stopped" })).toBe(false);
        expect(isStopped({ actual_status: "created", intended_status: "stopped" })).toBe(false);
    });

    it("is not stopped while anything may still run it", () => {
        for (const createdStopped of [false, true]) {
            expect(isStopped({ actual_status: "running", intended_status: "stopped" }, createdStopped)).toBe(false);
            expect(isStopped({ actual_status: "loading", intended_status: "stopped" }, createdStopped)).toBe(false);
            expect(isStopped({ actual_status: null, intended_status: "running" }, createdStopped)).toBe(false);
            expect(isStopped({ actual_status: "exited", intended_status: "stopped" }, createdStopped)).toBe(false);
        }
    });
});
