import { isStopped } from "../../provider/resources/instance/instanceState";

describe("isStopped: when a stop is done", () => {
    it("is stopped when the service says so, or when it is meant to be and never ran", () => {
        expect(isStopped({ actual_status: "stopped", intended_status: "running" })).toBe(true);
        expect(isStopped({ actual_status: "stopped", intended_status: "stopped" })).toBe(true);
        // Created stopped (target_state), it may never show `stopped`: no status yet, or its container made, not run.
        expect(isStopped({ actual_status: null, intended_status: "stopped" })).toBe(true);
        expect(isStopped({ actual_status: "created", intended_status: "stopped" })).toBe(true);
    });

    it("is not stopped while anything may still run it", () => {
        expect(isStopped({ actual_status: "running", intended_status: "stopped" })).toBe(false);
        expect(isStopped({ actual_status: "loading", intended_status: "stopped" })).toBe(false);
        expect(isStopped({ actual_status: "created", intended_status: "running" })).toBe(false);
        expect(isStopped({ actual_status: null, intended_status: "running" })).toBe(false);
        expect(isStopped({ actual_status: "exited", intended_status: "stopped" })).toBe(false);
    });
});
