import { EmuInstance } from "../../testkit/emulator/model";
import { instanceView } from "../../testkit/emulator/handlers/instances";
import { statusAt } from "../../testkit/emulator/instanceStatus";

// The way up as the live service shows it (docs/live-service.md): no status while provisioning,
// `loading` while the image is pulled, `created` once the container is made, then running.
describe("emulator: an instance's statuses on the way up", () => {
    const timings = { loadingAfterMs: 100, runningAfterMs: 500 };
    const instance = { createdAt: 0, script: { status: "running" } } as unknown as EmuInstance;

    it("is null, then loading, then created, then running", () => {
        expect([0, 99, 100, 399, 400, 499, 500].map((ms) => statusAt(instance, ms, timings))).toEqual([
            null, null, "loading", "loading", "created", "created", "running",
        ]);
    });

    it("shows a created container as not yet running: no SSH port, cur_state created", () => {
        const shown = instanceView({ ...instance, effective: { env: {} }, sshPort: 22000 } as unknown as EmuInstance, 450, timings);
        expect(shown).toMatchObject({ actual_status: "created", cur_state: "created", status_msg: "Container created", ssh_port: null });
    });
});
