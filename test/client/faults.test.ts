import {
    VastAuthError,
    VastConfigError,
    VastError,
    VastNetworkError,
    VastOutcomeUnknownError,
    VastRateLimitError,
    VastRequestRejectedError,
    VastServerError,
    VastUnexpectedResponseError,
} from "../../provider/client/errors";
import { VastClient } from "../../provider/client/vastClient";
import { TemplateCreateRequest } from "../../provider/schemas/template";
import { execFileSync, spawnSync } from "child_process";
import { mkdtempSync, readFileSync } from "fs";
import { connect, AddressInfo } from "net";
import { tmpdir } from "os";
import { join } from "path";
import { createServer as createTlsServer } from "tls";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor, eventually, startEmulator } from "../../testkit/support/fixtures";

const SEARCH = "/api/v0/template/";
const template: TemplateCreateRequest = {
    name: "fault-test",
    image: "busybox",
    docker_login_repo: "",
    docker_login_user: "",
    docker_login_pass: "",
};

/** Runs `call`, expecting it to fail; returns the error. */
async function failure(call: Promise<unknown>): Promise<VastError> {
    try {
        await call;
    } catch (e) {
        return e as VastError;
    }
    throw new Error("expected the call to fail");
}

describe("faults: each a typed error or a success after retry", () => {
    let emu: Emulator;
    let vast: VastClient;
    beforeAll(async () => {
        emu = await startEmulator({ dedupeTemplates: false });
    });
    afterAll(() => emu.stop());
    beforeEach(() => {
        emu.clearLog();
        emu.faults.clear();
        vast = clientFor(emu);
    });

    it("a burst of 429s (plain-text body, no Retry-After) is retried to success", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 429, text: "API requests too frequent" }, times: 5 });
        await expect(vast.templates.search()).resolves.toBeInstanceOf(Array);
        expect(emu.requestsTo("GET", SEARCH).map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 200]);
    });

    it("429s beyond the cap become a rate-limit error naming the operation", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 429, text: "API requests too frequent" }, times: 50 });
        const limited = clientFor(emu, { retry: { baseDelayMs: 1, maxDelayMs: 2, rateLimitMaxAttempts: 3 } });
        const error = await failure(limited.templates.search());
        expect(error).toBeInstanceOf(VastRateLimitError);
        expect(error.message).toBe("vastai: search templates failed: HTTP 429 rate limited: API requests too frequent");
        expect(emu.requestsTo("GET", SEARCH)).toHaveLength(3);
    });

    // Before: a call gave up after its tries however soon they came, and stacks sharing a key, each
    // pacing only its own calls, met more 429s than that between them.
    it("429s past the try count are retried while the call is within its rate-limit budget (the provider's clients have one)", async () => {
        emu.clearLog();
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 429, text: "API requests too frequent" }, times: 6 });
        const budgeted = clientFor(emu, { retry: { baseDelayMs: 1, maxDelayMs: 2, rateLimitMaxAttempts: 3, rateLimitBudgetMs: 60_000 } });
        await expect(budgeted.templates.search()).resolves.toBeInstanceOf(Array);
        expect(emu.requestsTo("GET", SEARCH).map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 429, 200]);
    });

    it("honours Retry-After when the service sends it", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 429, text: "slow down", headers: { "Retry-After": "1" } } });
        await vast.templates.search();
        const [first, second] = emu.requestsTo("GET", SEARCH);
        expect(second.at - first.at).toBeGreaterThanOrEqual(950);
    });

    it("a 429 whose Retry-After asks for hours (a spent quota) fails at once, saying how long", async () => {
        emu.clearLog();
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 429, body: { detail: "search_quota_exceeded" }, headers: { "Retry-After": "7200" } } });
        const error = await failure(vast.templates.search());
        expect(error).toBeInstanceOf(VastRateLimitError);
        expect(error.message).toBe("vastai: search templates failed: HTTP 429 rate limited: search_quota_exceeded (the service asks to wait 7200 s before trying again)");
        expect(emu.requestsTo("GET", SEARCH)).toHaveLength(1);
    });

    it("reads the service's clock from its answers' Date header, for comparing the service's timestamps", async () => {
        const client = clientFor(emu);
        expect(client.serviceTime(Date.now())).toBeUndefined();
        const anHourAhead = new Date(Date.now() + 3_600_000).toUTCString();
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 200, body: { success: true, templates: [] }, headers: { Date: anHourAhead } } });
        await client.templates.search();
        const now = Date.now();
        expect(Math.abs(client.serviceTime(now)! - (now + 3_600_000))).toBeLessThan(2_000);
    });

    it("500/502/503/504 on a read are retried to success; past the cap, a server error naming the operation", async () => {
        for (const status of [500, 502, 503]) emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status } });
        await vast.templates.search();
        expect(emu.requestsTo("GET", SEARCH).map((r) => r.status)).toEqual([500, 502, 503, 200]);

        emu.clearLog();
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 500 }, times: 4 });
        const error = await failure(vast.templates.search());
        expect(error).toBeInstanceOf(VastServerError);
        expect(error.message).toMatch(/search templates failed: HTTP 500 server error: Internal error/);
        expect(emu.requestsTo("GET", SEARCH)).toHaveLength(4);
    });

    // Before: every try counted against the cap for 5xx and resets, so a read that met a few 429s
    // (stacks sharing a key) gave up at its first 5xx.
    it("429s do not use up the tries a 5xx gets: after four 429s, three 5xx are still retried to success", async () => {
        emu.clearLog();
        const limited = { kind: "status", status: 429, text: "API requests too frequent" } as const;
        emu.faults.script([limited, limited, limited, limited, { kind: "status", status: 503 }, { kind: "status", status: 502 }, { kind: "status", status: 500 }]);
        await vast.templates.search();
        expect(emu.requestsTo("GET", SEARCH).map((r) => r.status)).toEqual([429, 429, 429, 429, 503, 502, 500, 200]);
    });

    it("a reset connection on a read is retried to success", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "reset" }, times: 2 });
        await vast.templates.search();
        expect(emu.requestsTo("GET", SEARCH).map((r) => r.status)).toEqual([0, 0, 200]);
    });

    it("a read that times out is retried; one that keeps timing out is a network error", async () => {
        // Generous margins: the slow answer is far past the timeout, the normal one far inside it.
        const quick = clientFor(emu, { timeoutMs: 1000 });
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "slow", delayMs: 3000 } });
        await quick.templates.search();
        expect(emu.requestsTo("GET", SEARCH)).toHaveLength(2);

        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "slow", delayMs: 3000 }, times: 10 });
        const error = await failure(clientFor(emu, { timeoutMs: 1000, retry: { maxAttempts: 2, baseDelayMs: 1 } }).templates.search());
        expect(error).toBeInstanceOf(VastNetworkError);
        expect(error.message).toMatch(/search templates failed: timed out/);
    });

    it("a malformed body on a read is retried; one that stays malformed is an unexpected-response error", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "malformed" } });
        await vast.templates.search();
        expect(emu.requestsTo("GET", SEARCH)).toHaveLength(2);
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "malformed" }, times: 4 });
        const error = await failure(vast.templates.search());
        expect(error).toBeInstanceOf(VastUnexpectedResponseError);
        expect(error.message).toMatch(/search templates failed: unexpected answer: HTTP 200 body is not a JSON object \(not shown: /);
    });

    // Before: the first 120 characters were quoted, redacted only of the key and credential fields;
    // a read's redaction cannot know an env value, which an instance or template record carries.
    it("an unreadable record is never quoted: it may hold env values the program keeps secret", async () => {
        const token = "hf_cut_short_in_a_broken_answer_0123";
        const cut = `{"instances": {"id": 5, "extra_env": [["HF_TOKEN", "${token}"`;
        emu.faults.add({ method: "GET", path: "/api/v0/instances/5/", fault: { kind: "status", status: 200, text: cut }, times: 4 });
        const error = await failure(vast.instances.show(5));
        expect(error).toBeInstanceOf(VastUnexpectedResponseError);
        expect(error.message).toContain("not shown");
        expect(error.message).not.toContain(token);
    });

    it("a body missing a required field names the path and the field", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 200, body: { templates: [{ id: 5, name: "x" }] } }, times: 4 });
        const error = await failure(vast.templates.search());
        expect(error).toBeInstanceOf(VastUnexpectedResponseError);
        expect(error.message).toMatch(/GET \/api\/v0\/template\/: templates\.0\.hash_id: Invalid input: expected string, received undefined/);
    });

    it("an extra field in an answer never breaks a read", async () => {
        emu.faults.add({
            method: "GET",
            path: SEARCH,
            fault: { kind: "status", status: 200, body: { templates: [{ id: 5, hash_id: "abc", brand_new_field: { x: 1 } }] } },
        });
        const [t] = await vast.templates.search();
        expect(t).toMatchObject({ id: 5, hash_id: "abc", brand_new_field: { x: 1 } });
    });

    it("HTTP 200 with success:false is an error with the service's message", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "successFalse", error: "quota_exceeded", msg: "too many templates" } });
        const error = await failure(vast.templates.search());
        expect(error).toBeInstanceOf(VastRequestRejectedError);
        expect(error.message).toBe("vastai: search templates failed: HTTP 200 with success=false rejected: too many templates");
        expect(error.serviceCode).toBe("quota_exceeded");
    });

    it("401: the key is refused, and the message says how to fix it without showing the key", async () => {
        const wrongKey = "not-a-real-key-123456";
        const error = await failure(clientFor(emu, { apiKey: wrongKey }).account.currentUser());
        expect(error).toBeInstanceOf(VastAuthError);
        expect(error.status).toBe(401);
        expect(error.message).toMatch(/show current user failed: HTTP 401 unauthorized: Invalid user key\. The API key was refused/);
        expect(error.message).not.toContain(wrongKey);
    });

    it("403: a scoped key without the route's permission gets an error naming that permission", async () => {
        const readOnly = emu.createKey({ api: { user_read: {} } });
        const scoped = clientFor(emu, { apiKey: readOnly.key });
        await expect(scoped.templates.search()).resolves.toBeInstanceOf(Array);

        const error = await failure(scoped.templates.create(template));
        expect(error).toBeInstanceOf(VastAuthError);
        expect((error as VastAuthError).missingPermission).toBe("user_write");
        expect(error.message).toMatch(/create template "fault-test" failed: HTTP 403 forbidden: .*needs the "user_write" permission/);
        expect(emu.model.templates.size).toBe(2); // only the seeded ones
    });

    it("404 with an auth_error body is an auth error, not a missing instance", async () => {
        const { instanceId } = await vast.instances.create(emu.addOffer().id, { image: "busybox" });
        emu.faults.add({ method: "GET", path: `/api/v0/instances/${instanceId}/`, fault: { kind: "authError404" } });
        const error = await failure(vast.instances.show(instanceId));
        expect(error).toBeInstanceOf(VastAuthError);
        expect(error.status).toBe(404);
        expect(error.message).toMatch(new RegExp(`show instance ${instanceId} failed: HTTP 404 unauthorized`));

        const revoked = emu.createKey();
        emu.revokeKey(revoked.key, 404);
        const revokedError = await failure(clientFor(emu, { apiKey: revoked.key }).instances.destroy(instanceId));
        expect(revokedError).toBeInstanceOf(VastAuthError);
        expect(emu.liveInstances().map((i) => i.id)).toContain(instanceId);
    });

    describe("creates are never re-sent blindly", () => {
        const TEMPLATE_POST = { method: "POST", path: "/api/v0/template/" };

        it.each([
            ["a 502", { kind: "status" as const, status: 502 }],
            ["a 500", { kind: "status" as const, status: 500 }],
            ["a reset", { kind: "reset" as const }],
            ["a lost answer (created, then reset)", { kind: "lostResponse" as const }],
            ["a lost answer (created, then 504)", { kind: "lostResponse" as const, status: 504 }],
            ["a malformed answer (created)", { kind: "malformed" as const }],
        ])("%s on create gives an outcome-unknown error after exactly one request", async (_name, fault) => {
            emu.faults.add({ ...TEMPLATE_POST, fault });
            const error = await failure(vast.templates.create(template));
            expect(error).toBeInstanceOf(VastOutcomeUnknownError);
            expect(error.message).toMatch(/create template "fault-test" failed: the request was sent but its outcome is unknown/);
            expect(emu.requestsTo("POST", "/api/v0/template/")).toHaveLength(1);
        });

        it("a create that timed out after the service acted is outcome-unknown, and what it made can be found", async () => {
            emu.faults.add({ method: "PUT", path: /^\/api\/v0\/asks\/\d+\/$/, fault: { kind: "slow", delayMs: 1500 } });
            const offer = emu.addOffer();
            const error = await failure(
                clientFor(emu, { timeoutMs: 300 }).instances.create(offer.id, { image: "busybox", label: "find-me-7" }),
            );
            expect(error).toBeInstanceOf(VastOutcomeUnknownError);
            const found = await eventually(async () => {
                const matches = await vast.instances.listAll({ label: { eq: "find-me-7" } });
                return matches.length > 0 ? matches : undefined;
            });
            expect(found).toHaveLength(1);
            expect(emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`)).toHaveLength(1);
        });

        it("a 429 on create is retried: the service did not act on it", async () => {
            emu.faults.add({ ...TEMPLATE_POST, fault: { kind: "status", status: 429, text: "API requests too frequent" }, times: 2 });
            const { template: created } = await vast.templates.create(template);
            expect(created.id).toEqual(expect.any(Number));
            expect(emu.requestsTo("POST", "/api/v0/template/").map((r) => r.status)).toEqual([429, 429, 200]);
        });

        it("a refused connection on create is retried, not outcome-unknown: nothing was sent", async () => {
            const stopped = await startEmulator();
            await stopped.stop();
            const tries: string[] = [];
            const unreachable = clientFor(stopped, {
                retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
                log: (line) => tries.push(line),
            });
            const error = await failure(unreachable.templates.create(template));
            expect(tries).toEqual([1, 2, 3].map((n) => expect.stringMatching(new RegExp(`POST /api/v0/template/ -> ECONNREFUSED .*\\(try ${n}\\)`))));
            expect(error).toBeInstanceOf(VastNetworkError);
            expect(error).not.toBeInstanceOf(VastOutcomeUnknownError);
            expect((error as VastNetworkError).sent).toBe(false);
            expect(error.message).toMatch(/create template "fault-test" failed: network error \(ECONNREFUSED\)/);
            // Most often a wrong base URL: the message says which setting to check.
            expect(error.message).toMatch(/nothing listens there; check the base URL \(vastai:baseUrl, or VAST_URL/);
        });
    });

    // Before: a certificate the client refuses (a TLS-intercepting proxy, a clock far off) failed the
    // handshake, before any byte of the request left, yet read as sent: a template create then
    // looked for minutes for what it could not have made, and said to look in the console.
    // The certificate is made at test time with openssl (Debian's machines have it); without it the case cannot be set up.
    const withOpenssl = spawnSync("openssl", ["version"]).status === 0 ? it : it.skip;
    withOpenssl("a create whose TLS handshake fails on the certificate is not sent: a network error, not outcome-unknown", async () => {
        // A TLS front for the emulator with a certificate no one trusts: a request it let through would reach the emulator.
        const dir = mkdtempSync(join(tmpdir(), "vastai-tls-"));
        execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdio: "ignore" });
        const front = createTlsServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (tlsSocket) => {
            const upstream = connect(Number(new URL(emu.url).port), "127.0.0.1");
            tlsSocket.pipe(upstream).pipe(tlsSocket);
        });
        await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
        try {
            const tries: string[] = [];
            const untrusted = clientFor(emu, {
                baseUrl: `https://127.0.0.1:${(front.address() as AddressInfo).port}`,
                retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 },
                log: (line) => tries.push(line),
            });
            const error = await failure(untrusted.templates.create(template));
            expect(error).toBeInstanceOf(VastNetworkError);
            expect(error).not.toBeInstanceOf(VastOutcomeUnknownError);
            expect((error as VastNetworkError).sent).toBe(false);
            expect(error.message).toMatch(/create template "fault-test" failed: network error \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
            expect(tries).toHaveLength(2);
            expect(emu.requestsTo("POST", "/api/v0/template/")).toHaveLength(0);
        } finally {
            await new Promise((resolve) => front.close(resolve));
        }
    });

    describe("the key never travels over plain http to another host", () => {
        it.each(["http://console.vast.ai", "http://10.1.2.3:8080", "http://example.com/api/v0"])("refuses %s", (baseUrl) => {
            expect(() => new VastClient({ apiKey: "secret-key-abc", baseUrl })).toThrow(VastConfigError);
            expect(() => new VastClient({ apiKey: "secret-key-abc", baseUrl })).toThrow(/refusing to send the API key/);
        });

        it.each(["https://console.vast.ai", "http://127.0.0.1:1234", "http://localhost:9", "http://[::1]:80"])("accepts %s", (baseUrl) => {
            expect(() => new VastClient({ apiKey: "k", baseUrl })).not.toThrow();
        });
    });

    it("no error message ever holds the key, even when the service echoes it", async () => {
        emu.faults.add({ method: "GET", path: SEARCH, fault: { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: `bad key ${emu.demoKey}` } } });
        const error = await failure(vast.templates.search());
        expect(error.message).not.toContain(emu.demoKey);
        expect(error.message).toContain("[redacted]");
        expect(JSON.stringify(error)).not.toContain(emu.demoKey);
    });
});
