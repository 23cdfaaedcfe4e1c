import { VastInvalidArgsError, VastNotFoundError } from "../../provider/client/errors";
import { InstanceCreateRequest } from "../../provider/schemas/instance";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor, eventually, startEmulator } from "../../testkit/support/fixtures";

describe("instances API against the emulator", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());
    beforeEach(() => emu.clearLog());

    it("creates on an offer with PUT /asks/{id}/ and returns new_contract, never the instance key", async () => {
        const vast = clientFor(emu);
        const offer = emu.addOffer();
        const request: InstanceCreateRequest = {
            image: "nvidia/cuda:12.4.1-base-ubuntu22.04",
            env: { HF_HOME: "/data/hf", "-p 8080:8080": "1" },
            disk: 32,
            label: "trainer-1",
            onstart: "echo hello",
            runtype: "ssh",
        };
        const created = await vast.instances.create(offer.id, request);

        const [req] = emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`);
        expect(req.body).toEqual({ client_id: "me", ...request });
        expect(created).toEqual({ instanceId: expect.any(Number), startedStopped: false });
        expect(JSON.stringify(created)).not.toMatch(/instkey/);
    });

    it("shows an instance as its status moves from null through loading to running", async () => {
        const vast = clientFor(emu);
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });

        const first = await vast.instances.show(instanceId);
        expect(first).toMatchObject({ id: instanceId, intended_status: "running" });
        expect([null, "loading", "running"]).toContain(first?.actual_status);
        const [req] = emu.requestsTo("GET", `/api/v0/instances/${instanceId}/`);
        expect(req.query).toEqual({ owner: "me" });

        const running = await eventually(async () => {
            const i = await vast.instances.show(instanceId);
            return i?.actual_status === "running" ? i : undefined;
        });
        expect(running.ssh_port).toEqual(expect.any(Number));
        expect(running.ports?.["22/tcp"]?.[0].HostPort).toEqual(expect.any(String));
        const seen = emu.requestsTo("GET", `/api/v0/instances/${instanceId}/`).length;
        expect(seen).toBeGreaterThan(1);
    });

    it("labels an instance with PUT /instances/{id}/", async () => {
        const vast = clientFor(emu);
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        await vast.instances.label(instanceId, "renamed");
        const [req] = emu.requestsTo("PUT", `/api/v0/instances/${instanceId}/`);
        expect(req.body).toEqual({ label: "renamed" });
        expect((await vast.instances.show(instanceId))?.label).toBe("renamed");
    });

    it("destroys with DELETE and an empty JSON body; gone reads as undefined; again is already gone", async () => {
        const vast = clientFor(emu);
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        expect(await vast.instances.destroy(instanceId)).toEqual({ alreadyGone: false });
        const [req] = emu.requestsTo("DELETE", `/api/v0/instances/${instanceId}/`);
        expect(req.body).toEqual({});
        expect(await vast.instances.show(instanceId)).toBeUndefined();
        expect(await vast.instances.destroy(instanceId)).toEqual({ alreadyGone: true });
    });

    it("show: only the service's own words read as gone; a 404 page or FastAPI's detail throws", async () => {
        const vast = clientFor(emu, { retry: { maxAttempts: 1 } });
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        const path = `/api/v0/instances/${instanceId}/`;
        for (const shape of ["html", "detail"] as const) {
            emu.faults.add({ method: "GET", path, fault: { kind: "notFoundPage", shape } });
            await expect(vast.instances.show(instanceId)).rejects.toThrow(/show instance \d+ failed: HTTP 404/);
        }
        expect(await vast.instances.show(instanceId)).toMatchObject({ id: instanceId });
    });

    it("never takes a destroy answered 2xx without `success: true` as done", async () => {
        const vast = clientFor(emu, { retry: { maxAttempts: 2, baseDelayMs: 1 } });
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        emu.faults.add({ method: "DELETE", path: `/api/v0/instances/${instanceId}/`, fault: { kind: "status", status: 200, body: {} }, times: 2 });
        await expect(vast.instances.destroy(instanceId)).rejects.toThrow(/unexpected answer from DELETE \/api\/v0\/instances\/\{id\}\/: success/);
        expect(await vast.instances.show(instanceId)).toMatchObject({ id: instanceId });
        expect(await vast.instances.destroy(instanceId)).toEqual({ alreadyGone: false });
    });

    it("never takes a label, a start or stop, or a bid answered 2xx without `success: true` as done", async () => {
        const vast = clientFor(emu, { retry: { maxAttempts: 2, baseDelayMs: 1 } });
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox", label: "old" });
        const path = `/api/v0/instances/${instanceId}/`;
        const saysNothing = (at = path) => emu.faults.add({ method: "PUT", path: at, fault: { kind: "status", status: 200, body: {} }, times: 2 });
        saysNothing();
        await expect(vast.instances.label(instanceId, "new")).rejects.toThrow(/unexpected answer from PUT .*success/);
        expect(await vast.instances.show(instanceId)).toMatchObject({ label: "old" });
        saysNothing();
        await expect(vast.instances.changeState(instanceId, "stopped")).rejects.toThrow(/unexpected answer from PUT .*success/);
        saysNothing(`/api/v0/instances/bid_price/${instanceId}/`);
        await expect(vast.instances.changeBid(instanceId, 0.5)).rejects.toThrow(/unexpected answer from PUT .*success/);
        // Sent again, a clear answer is done.
        emu.faults.add({ method: "PUT", path, fault: { kind: "status", status: 200, body: {} } });
        await vast.instances.label(instanceId, "new");
        expect(await vast.instances.show(instanceId)).toMatchObject({ label: "new" });
    });

    it("reads a create answered with a new_contract as that instance, whatever its success, status or message", async () => {
        const vast = clientFor(emu);
        const offer = emu.addOffer();
        const asks = `/api/v0/asks/${offer.id}/`;
        for (const body of [
            { success: false, new_contract: 4242 },
            { success: false, new_contract: 4243, error: "", msg: "started in stopped state" },
            { success: false, new_contract: 4244, error: "resources_unavailable" },
        ]) {
            emu.faults.add({ method: "PUT", path: asks, fault: { kind: "status", status: 200, body } });
            expect(await vast.instances.create(offer.id, { image: "busybox" })).toEqual({ instanceId: body.new_contract, startedStopped: true });
        }
        // Nor is an error status a refusal when it names the instance made: read as a refusal, it
        // would leave that instance billed outside state.
        for (const status of [400, 409, 500]) {
            emu.faults.add({ method: "PUT", path: asks, fault: { kind: "status", status, body: { success: false, new_contract: 4245, error: "internal_error", msg: "instance created, then failed" } } });
            expect(await vast.instances.create(offer.id, { image: "busybox" })).toEqual({ instanceId: 4245, startedStopped: true });
        }
        // Without new_contract it is a refusal.
        emu.faults.add({ method: "PUT", path: asks, fault: { kind: "status", status: 200, body: { success: false, error: "invalid_args", msg: "no" } } });
        await expect(vast.instances.create(offer.id, { image: "busybox" })).rejects.toThrow(/invalid arguments: no/);
    });

    it("reads a start answered resources_unavailable as queued; a stop so answered is a failure", async () => {
        const vast = clientFor(emu);
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        const path = `/api/v0/instances/${instanceId}/`;
        const queued = { success: false, error: "resources_unavailable", msg: "Required resources are currently unavailable, state change queued." };
        emu.faults.add({ method: "PUT", path, fault: { kind: "status", status: 200, body: queued } });
        expect(await vast.instances.changeState(instanceId, "running")).toEqual({ queued: true });
        emu.faults.add({ method: "PUT", path, fault: { kind: "status", status: 200, body: queued } });
        await expect(vast.instances.changeState(instanceId, "stopped")).rejects.toThrow(/state change queued/);
        expect(await vast.instances.changeState(instanceId, "running")).toEqual({ queued: false });
    });

    it("refuses a show answered with another instance's record", async () => {
        const vast = clientFor(emu);
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${instanceId}/`, fault: { kind: "status", status: 200, body: { instances: { id: 4242, actual_status: "running" } } } });
        await expect(vast.instances.show(instanceId)).rejects.toThrow(`asked for instance ${instanceId}, the service answered with instance 4242`);
    });

    // Before: any `no_such_*` read as this instance gone, so a refresh dropped a running instance on
    // an answer naming an offer (the service's `no_such_ask`), after its three looks.
    it("never reads a not-found that names something else (an offer's no_such_ask) as the instance gone", async () => {
        const vast = clientFor(emu, { retry: { maxAttempts: 1 } });
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        const noSuchAsk = { success: false, error: "invalid_args", msg: "error 404/3603: no_such_ask  Instance type by id 7 is not available." };
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${instanceId}/`, fault: { kind: "status", status: 404, body: noSuchAsk } });
        await expect(vast.instances.show(instanceId)).rejects.toThrow(
            new RegExp(`show instance ${instanceId} failed: HTTP 404 names something other than this instance: error 404/3603: no_such_ask`),
        );
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${instanceId}/`, fault: { kind: "status", status: 404, body: { success: false, error: "no_such_instance" } } });
        expect(await vast.instances.show(instanceId)).toBeUndefined();
    });

    it("reads `instances: {}` as gone too", async () => {
        const other = await startEmulator({ goneInstanceShape: "empty" });
        try {
            expect(await clientFor(other).instances.show(424242)).toBeUndefined();
        } finally {
            await other.stop();
        }
    });

    it("lists through the v1 list, filtered, 25 a page, following next_token", async () => {
        const vast = clientFor(emu);
        const ids: number[] = [];
        for (let i = 0; i < 30; i++) {
            ids.push((await vast.instances.create(emu.addOffer().id, { image: "busybox", label: "fleet-a" })).instanceId);
        }
        emu.clearLog();
        const first = await vast.instances.list({ filters: { label: { eq: "fleet-a" } } });
        expect(first.instances).toHaveLength(25);
        expect(first.nextToken).toBeDefined();
        const [req] = emu.requestsTo("GET", "/api/v1/instances/");
        expect(req.query).toEqual({ select_filters: JSON.stringify({ label: { eq: "fleet-a" } }), limit: "25" });

        const all = await vast.instances.listAll({ id: { in: ids } });
        expect(all.map((i) => i.id)).toEqual(ids);
        expect(emu.requestsTo("GET", "/api/v1/instances/").at(-1)?.query.after_token).toBeDefined();
    });

    it("refuses template_id client-side and reports an unknown offer as not found", async () => {
        const vast = clientFor(emu);
        const bad = { image: "busybox", template_id: 5 } as unknown as InstanceCreateRequest;
        await expect(vast.instances.create(emu.addOffer().id, bad)).rejects.toThrow(VastInvalidArgsError);
        await expect(vast.instances.create(1, { image: "busybox" })).rejects.toThrow(VastNotFoundError);
        await expect(vast.instances.create(1, { image: "busybox" })).rejects.toThrow(/create instance on offer 1 failed.*no_such_ask/);
    });
});
