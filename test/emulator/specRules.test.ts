import * as http from "http";
import { Emulator } from "../../testkit/emulator/server";
import { eventually, startEmulator } from "../../testkit/support/fixtures";

/**
 * Rules of the two specs (docs/service-contract.md, docs/live-service.md) the emulator was more
 * lenient about than the service, found by a rule-by-rule review: each test is one rule, over real
 * sockets with plain http, so a provider that breaks the rule fails here as it would live.
 */

interface Reply {
    status: number;
    json: any;
}

function call(emu: Emulator, method: string, path: string, body?: unknown): Promise<Reply> {
    return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = http.request(`${emu.url}${path}`, {
            method,
            headers: {
                Authorization: `Bearer ${emu.demoKey}`,
                ...(payload !== undefined ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) } : {}),
            },
        }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
                const text = Buffer.concat(chunks).toString("utf8");
                let json: unknown;
                try {
                    json = JSON.parse(text);
                } catch {
                    json = text;
                }
                resolve({ status: res.statusCode ?? 0, json });
            });
        });
        req.on("error", reject);
        req.end(payload);
    });
}

const asks = (offerId: number) => `/api/v0/asks/${offerId}/`;
const instance = (id: number) => `/api/v0/instances/${id}/`;

describe("the emulator keeps the specs' rules where it was lenient", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());

    // Contract §3: exited, unknown and offline never reach running. Before, a start (PUT
    // {state: "running"}) ended `running` whatever the offer's script said, so a provider that
    // "repaired" a dead instance by starting it, or one created stopped then started on a bad
    // offer, saw it run here and never live.
    it.each([
        ["exited", "container exited with code 1"],
        ["unknown", undefined],
        ["offline", "host went away"],
    ])("a start of an instance whose offer is scripted %s (%s) ends so again, never running", async (status, statusMsg) => {
        const offer = emu.addOffer({ status: status as "exited" | "unknown" | "offline", statusMsg });
        const created = await call(emu, "PUT", asks(offer.id), { image: "busybox", target_state: "stopped" });
        expect(created.status).toBe(200);
        const id = created.json.new_contract as number;
        await eventually(async () => emu.instanceView(id)?.actual_status === "stopped");

        const started = await call(emu, "PUT", instance(id), { state: "running" });
        expect(started.json).toMatchObject({ success: true });
        const seen = new Set<unknown>();
        const ended = await eventually(async () => {
            const view = (await call(emu, "GET", instance(id))).json.instances;
            seen.add(view.actual_status);
            return view.actual_status === status && view;
        });
        expect(ended).toMatchObject({ intended_status: "running", ssh_port: null, status_msg: statusMsg ?? status });
        await new Promise((resolve) => setTimeout(resolve, 80));
        expect((await call(emu, "GET", instance(id))).json.instances.actual_status).toBe(status);
        expect(seen.has("running")).toBe(false);
        await call(emu, "DELETE", instance(id), {});
    });

    it("a start of an instance on a good offer still runs", async () => {
        const offer = emu.addOffer();
        const id = (await call(emu, "PUT", asks(offer.id), { image: "busybox", target_state: "stopped" })).json.new_contract as number;
        await call(emu, "PUT", instance(id), { state: "running" });
        await eventually(async () => emu.instanceView(id)?.actual_status === "running");
        await call(emu, "DELETE", instance(id), {});
    });
});
