import { Emulator } from "../../testkit/emulator/server";
// Plain http, as any client: the emulator is tested without the provider's client.
import { rawCall as call } from "../../testkit/support/rawCall";
import { Fault } from "../../testkit/emulator/faults";
import { eventually, startEmulator } from "../../testkit/support/fixtures";

/**
 * The emulator itself, over real sockets with plain http: the fault machinery a money-safety suite
 * leans on (scripts by position, seeded spoiling, answers lost or cut or never sent), and where it
 * is as strict as the live service (wrong paths, offers that take a moment to return, runtype with
 * a template).
 */

const USER = "/api/v0/users/current/";
const TEMPLATE = "/api/v0/template/";
const asks = (offerId: number) => `/api/v0/asks/${offerId}/`;
const instance = (id: number) => `/api/v0/instances/${id}/`;
const NOT_FOUND_HTML = "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>";

const templateBody = (name: string) => ({
    name,
    image: "busybox",
    docker_login_repo: "",
    docker_login_user: "",
    docker_login_pass: "hunter2-registry-token",
});

describe("the emulator: fault machinery and strictness", () => {
    let emu: Emulator;
    beforeAll(async () => {
        emu = await startEmulator();
    });
    afterAll(() => emu.stop());
    beforeEach(() => {
        emu.clearLog();
        emu.faults.clear();
    });

    describe("script: faults by request position", () => {
        it("the k-th request after the call gets list[k-1], whatever its method and path", async () => {
            emu.faults.script([undefined, { kind: "status", status: 503 }, undefined, { kind: "successFalse", msg: "scripted" }]);
            const replies = [
                await call(emu, "GET", USER),
                await call(emu, "GET", TEMPLATE),
                await call(emu, "GET", "/api/v0/no-such-path/"),
                await call(emu, "POST", TEMPLATE, templateBody("scripted-4")),
                await call(emu, "GET", USER),
            ];
            expect(replies.map((r) => r.status)).toEqual([200, 503, 404, 200, 200]);
            expect(JSON.parse(replies[3].text)).toMatchObject({ success: false, msg: "scripted" });
            expect(emu.requests.map((r) => r.fault)).toEqual([undefined, "status", undefined, "successFalse", undefined]);
            expect(emu.faults.scriptedSoFar).toBe(5);
            expect(emu.faults.scriptFired).toBe(2);
            // The scripted failure came before the handler: nothing was created.
            expect([...emu.model.templates.values()].some((t) => t.fields.name === "scripted-4")).toBe(false);
        });

        it("a scripted fault wins over a rule, which then waits for the next matching request", async () => {
            emu.faults.add({ method: "GET", path: USER, fault: { kind: "status", status: 500 } });
            emu.faults.script([{ kind: "status", status: 429, text: "API requests too frequent" }]);
            const statuses: number[] = [];
            for (let i = 0; i < 3; i++) statuses.push((await call(emu, "GET", USER)).status);
            expect(statuses).toEqual([429, 500, 200]);
            expect(emu.faults.pending).toBe(0);
        });

        it("clear() ends the script and zeroes its counts", async () => {
            emu.faults.script([{ kind: "status", status: 503 }, { kind: "status", status: 503 }]);
            expect((await call(emu, "GET", USER)).status).toBe(503);
            emu.faults.clear();
            expect(emu.faults.scriptedSoFar).toBe(0);
            expect((await call(emu, "GET", USER)).status).toBe(200);
            expect(emu.faults.scriptFired).toBe(0);
        });
    });

    describe("spoil: seeded random faults", () => {
        const kinds: Fault[] = [{ kind: "status", status: 503 }, { kind: "successFalse" }, { kind: "truncated" }];

        async function run(seed: number): Promise<Array<string | undefined>> {
            emu.clearLog();
            emu.faults.spoil({ rate: 0.4, kinds, seed });
            for (let i = 0; i < 25; i++) await call(emu, "GET", USER);
            const faults = emu.requests.map((r) => r.fault);
            expect(emu.faults.spoiled).toBe(faults.filter((f) => f !== undefined).length);
            emu.faults.clear();
            return faults;
        }

        it("the same seed spoils the same requests the same way; another seed does not", async () => {
            const first = await run(7);
            expect(await run(7)).toEqual(first);
            const spoiled = first.filter((f) => f !== undefined);
            expect(spoiled.length).toBeGreaterThan(0);
            expect(spoiled.length).toBeLessThan(first.length);
            expect(await run(8)).not.toEqual(first);
        });

        it("clear() stops it", async () => {
            emu.faults.spoil({ rate: 1, kinds, seed: 1 });
            await call(emu, "GET", USER);
            expect(emu.faults.spoiled).toBe(1);
            emu.faults.clear();
            for (let i = 0; i < 5; i++) expect((await call(emu, "GET", USER)).status).toBe(200);
            expect(emu.requests.slice(1).every((r) => r.fault === undefined)).toBe(true);
        });

        it("refuses a rate outside 0..1 or no kinds", () => {
            expect(() => emu.faults.spoil({ rate: 1.5, kinds, seed: 1 })).toThrow(/rate/);
            expect(() => emu.faults.spoil({ rate: 0.5, kinds: [], seed: 1 })).toThrow(/kind/);
        });
    });

    describe("answers spoiled, lost or never sent", () => {
        it("truncated: the request takes effect; the answer is 200 JSON cut to half its text", async () => {
            const whole = (await call(emu, "GET", USER)).text;
            emu.faults.script([{ kind: "truncated" }]);
            const cut = await call(emu, "GET", USER);
            expect(cut).toMatchObject({ status: 200, contentType: "application/json", text: whole.slice(0, Math.floor(whole.length / 2)) });
            expect(() => JSON.parse(cut.text)).toThrow();

            emu.faults.script([{ kind: "truncated" }]);
            const created = await call(emu, "POST", TEMPLATE, templateBody("truncated-create"));
            expect(created.status).toBe(200);
            expect(created.text).toMatch(/^\{"success":true/);
            expect([...emu.model.templates.values()].filter((t) => t.fields.name === "truncated-create")).toHaveLength(1);
        });

        it("timeout, not acted: no answer until the client gives up, and nothing is created", async () => {
            const offer = emu.addOffer();
            emu.faults.script([{ kind: "timeout", acted: false, holdMs: 5000 }]);
            const started = Date.now();
            await expect(call(emu, "PUT", asks(offer.id), { image: "busybox" }, 200)).rejects.toThrow("client timeout");
            expect(Date.now() - started).toBeLessThan(2000);
            expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toHaveLength(0);
            expect(emu.requests[0]).toMatchObject({ fault: "timeout", status: 0 });
            // The offer is still free: the service never acted.
            expect((await call(emu, "PUT", asks(offer.id), { image: "busybox" })).status).toBe(200);
        });

        it("timeout, acted: the instance exists, though the client never heard of it", async () => {
            const offer = emu.addOffer();
            emu.faults.script([{ kind: "timeout", acted: true, holdMs: 5000 }]);
            await expect(call(emu, "PUT", asks(offer.id), { image: "busybox", label: "acted-timeout" }, 200)).rejects.toThrow("client timeout");
            expect(emu.liveInstances().filter((i) => i.offerId === offer.id).map((i) => i.label)).toEqual(["acted-timeout"]);
            expect(emu.requests[0]).toMatchObject({ route: "instance-create", fault: "timeout", status: 0 });
        });

        it("timeout: after holdMs the emulator closes the connection without an answer", async () => {
            emu.faults.script([{ kind: "timeout", acted: false, holdMs: 100 }]);
            const started = Date.now();
            await expect(call(emu, "GET", USER, undefined, 5000)).rejects.toThrow(/socket hang up|ECONNRESET/);
            expect(Date.now() - started).toBeLessThan(2000);
        });

        it("timeout: stop() drops a held connection at once", async () => {
            const own = await startEmulator();
            own.faults.script([{ kind: "timeout", acted: false }]);
            const pending = call(own, "GET", USER);
            await eventually(async () => own.requests.length > 0);
            const started = Date.now();
            await own.stop();
            await expect(pending).rejects.toThrow(/socket hang up|ECONNRESET/);
            expect(Date.now() - started).toBeLessThan(2000);
        });

        it("echoRequest: 422 quoting the request, as FastAPI does, and nothing is created", async () => {
            emu.faults.script([{ kind: "echoRequest" }]);
            const body = templateBody("echoed");
            const reply = await call(emu, "POST", TEMPLATE, body);
            expect(reply.status).toBe(422);
            expect(reply.contentType).toBe("application/json");
            expect(JSON.parse(reply.text)).toEqual({
                detail: [{ type: "value_error", loc: ["body"], msg: `Value error, request refused: ${JSON.stringify(body)}`, input: body }],
            });
            expect(reply.text).toContain("hunter2-registry-token");
            expect([...emu.model.templates.values()].some((t) => t.fields.name === "echoed")).toBe(false);

            emu.faults.script([{ kind: "echoRequest", status: 400 }]);
            expect((await call(emu, "POST", TEMPLATE, body)).status).toBe(400);
        });

        it("notFoundPage: a 404 that is a web server's page or FastAPI's detail, not the API's; nothing is done", async () => {
            const offer = emu.addOffer();
            emu.faults.script([{ kind: "notFoundPage", shape: "html" }, { kind: "notFoundPage", shape: "detail" }]);
            const html = await call(emu, "PUT", asks(offer.id), { image: "busybox" });
            expect(html).toMatchObject({ status: 404, contentType: "text/html; charset=utf-8", text: NOT_FOUND_HTML });
            const detail = await call(emu, "PUT", asks(offer.id), { image: "busybox" });
            expect(detail).toMatchObject({ status: 404, contentType: "application/json", text: '{"detail":"Not Found"}' });
            expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toHaveLength(0);
        });
    });

    describe("strictness", () => {
        it("a wrong path is the web server's HTML 404; a missing resource keeps the API's JSON; a wrong method 405", async () => {
            for (const path of ["/api/v0/no-such-thing/", "/v0/template/", "/api/v0/template/extra/"]) {
                expect(await call(emu, "GET", path)).toMatchObject({ status: 404, contentType: "text/html; charset=utf-8", text: NOT_FOUND_HTML });
            }
            const missing = await call(emu, "DELETE", instance(1), {});
            expect(missing.status).toBe(404);
            expect(missing.contentType).toBe("application/json");
            expect(JSON.parse(missing.text)).toMatchObject({ success: false, error: "no_such_instance" });

            const wrongMethod = await call(emu, "PATCH", TEMPLATE, {});
            expect(wrongMethod.status).toBe(405);
            expect(JSON.parse(wrongMethod.text)).toMatchObject({ success: false, error: "method_not_allowed" });
        });

        it("a destroyed instance's offer is taken until offerReturnAfterMs has passed", async () => {
            const slow = await startEmulator({ offerReturnAfterMs: 300 });
            try {
                const offer = slow.addOffer();
                const created = await call(slow, "PUT", asks(offer.id), { image: "busybox" });
                expect(created.status).toBe(200);
                const { new_contract: id } = JSON.parse(created.text) as { new_contract: number };
                expect((await call(slow, "DELETE", instance(id), {})).status).toBe(200);
                const destroyedAt = Date.now();

                const tooSoon = await call(slow, "PUT", asks(offer.id), { image: "busybox" });
                expect(tooSoon.status).toBe(410);
                expect(JSON.parse(tooSoon.text)).toMatchObject({ success: false, error: "no_such_ask" });

                await new Promise((resolve) => setTimeout(resolve, 350));
                const later = await call(slow, "PUT", asks(offer.id), { image: "busybox" });
                expect(later.status).toBe(200);
                expect(Date.now() - destroyedAt).toBeGreaterThanOrEqual(300);
            } finally {
                await slow.stop();
            }
        });

        it("the defaults: 5 s live, 50 ms in test fixtures", () => {
            expect(new Emulator().options.offerReturnAfterMs).toBe(5000);
            expect(emu.options.offerReturnAfterMs).toBe(50);
        });

        it("runtype with template_hash_id is refused: the template's runtype applies", async () => {
            const made = await call(emu, "POST", TEMPLATE, { ...templateBody("with-runtype"), runtype: "ssh" });
            const { template } = JSON.parse(made.text) as { template: { hash_id: string } };
            const offer = emu.addOffer();

            const refused = await call(emu, "PUT", asks(offer.id), { template_hash_id: template.hash_id, runtype: "ssh" });
            expect(refused.status).toBe(400);
            expect(JSON.parse(refused.text)).toEqual({
                success: false,
                error: "invalid_args",
                msg: "runtype cannot be combined with template_hash_id: the template's runtype applies",
            });
            expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toHaveLength(0);

            expect((await call(emu, "PUT", asks(offer.id), { template_hash_id: template.hash_id })).status).toBe(200);
            expect((await call(emu, "PUT", asks(emu.addOffer().id), { image: "busybox", runtype: "ssh" })).status).toBe(200);
        });

        it("a condition with no operator ({field: {}}) is a 400 naming the field, in every search; it matched everything", async () => {
            const q = (filters: unknown) => encodeURIComponent(JSON.stringify(filters));
            const searches: Array<[string, string]> = [
                [`${TEMPLATE}?select_filters=${q({ creator_id: {} })}`, "creator_id"],
                [`/api/v0/bundles/?q=${q({ gpu_name: {} })}`, "gpu_name"],
                [`/api/v1/instances/?select_filters=${q({ label: {} })}`, "label"],
            ];
            for (const [path, field] of searches) {
                const refused = await call(emu, "GET", path);
                expect(refused.status).toBe(400);
                expect(JSON.parse(refused.text)).toMatchObject({ success: false, error: "invalid_args", msg: `filter on ${field} has no operator` });
            }
            expect((await call(emu, "GET", `${TEMPLATE}?select_filters=${q({ creator_id: { eq: emu.demoUser.id } })}`)).status).toBe(200);
        });
    });
});
