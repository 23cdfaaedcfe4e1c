import {
    VastAuthError,
    VastInvalidArgsError,
    VastNotFoundError,
    VastRateLimitError,
    VastRequestRejectedError,
    VastServerError,
    errorFromResponse,
    retryAfterMs,
} from "../../provider/client/errors";
import { errorFromNetwork } from "../../provider/client/errorClassification";
import { redactor, secretValuesIn, serviceMessageOf } from "../../provider/client/redaction";
import { PropertySchema, declarationsOf } from "../../provider/dynamic/properties";
import { apiKeyArgsSchema } from "../../provider/resources/apiKey/apiKeyArgs";
import { instanceArgsSchema } from "../../provider/resources/instance/instanceArgs";
import { sshKeyArgsSchema } from "../../provider/resources/sshKey/sshKeyArgs";
import { templateArgsSchema } from "../../provider/resources/template/templateArgs";
import { workerGroupArgsSchema } from "../../provider/resources/workerGroup/workerGroupArgs";

const build = (status: number, body: unknown, extra: { scope?: string; retryAfterHeader?: string } = {}) =>
    errorFromResponse({ status, body, operation: "show instance", target: "42", redact: (t) => t.replace("SECRET", "[redacted]"), ...extra });

describe("errorFromResponse: one place maps status and body to a kind", () => {
    it.each([
        [401, { error: "auth_error", msg: "Invalid user key" }, VastAuthError],
        [403, { error: "permission_denied", msg: "no" }, VastAuthError],
        // A refusal of the request, not of the key (the vendor's create-instance reference).
        [403, { success: false, error: "invalid_args", msg: "Offer 4242 is not your own" }, VastInvalidArgsError],
        [404, { error: "auth_error", msg: "Invalid user key" }, VastAuthError],
        [200, { success: false, error: "auth_error", msg: "Invalid user key" }, VastAuthError],
        [404, { success: false, error: "no_such_instance", msg: "gone" }, VastNotFoundError],
        [410, { success: false, error: "no_such_ask", msg: "gone" }, VastNotFoundError],
        [200, { success: false, error: "invalid_args", msg: "error 404/3603: no_such_ask" }, VastNotFoundError],
        [429, "API requests too frequent", VastRateLimitError],
        [400, { error: "invalid_args", msg: "bad" }, VastInvalidArgsError],
        [200, { success: false, error: "invalid_args", msg: "bad disk" }, VastInvalidArgsError],
        [500, "<html>oops</html>", VastServerError],
        [503, undefined, VastServerError],
        [409, { msg: "conflict" }, VastRequestRejectedError],
        // not "gone": a retired endpoint, a 404 page that is not the API, a 5xx that mentions not_found
        [410, { success: false, error: "deprecated_endpoint", msg: "use v1" }, VastRequestRejectedError],
        [404, "<html>Not Found</html>", VastRequestRejectedError],
        [404, undefined, VastRequestRejectedError],
        [500, { msg: "lookup failed: not_found" }, VastServerError],
    ])("HTTP %i %j is a %p", (status, body, kind) => {
        expect(build(status, body)).toBeInstanceOf(kind);
    });

    // The show-instance route's not-found must name the instance: anything else is not it gone.
    it.each([
        [{ success: false, error: "no_such_instance", msg: "instance 42 not found" }, VastNotFoundError],
        [{ success: false, error: "not_found", msg: "Instance 42 not found" }, VastNotFoundError],
        [{ success: false, error: "invalid_args", msg: "error 404/3603: no_such_ask" }, VastRequestRejectedError],
        [{ success: false, error: "not_found", msg: "user not found" }, VastRequestRejectedError],
        [{ success: false, error: "not_found" }, VastRequestRejectedError],
    ])("on a route whose not-found is about an instance, HTTP 404 %j is a %p", (body, kind) => {
        expect(errorFromResponse({ status: 404, body, operation: "show instance", target: "42", about: "instance", redact: (t) => t })).toBeInstanceOf(kind);
    });

    it("a route's own gone code reads as not found there only (the SSH key delete's 400 no_ssh_key); elsewhere it stays a refusal", () => {
        const body = { success: false, error: "no_ssh_key", msg: "No ssh key provided" };
        expect(errorFromResponse({ status: 400, body, operation: "delete SSH key", goneCode: "no_ssh_key", redact: (t) => t })).toBeInstanceOf(VastNotFoundError);
        expect(errorFromResponse({ status: 400, body, operation: "create SSH key", redact: (t) => t })).toBeInstanceOf(VastInvalidArgsError);
    });

    it.each([
        [401, { error: "auth_error", msg: "Invalid user key" }, {}, "key_refused"],
        [403, { error: "permission_denied", msg: "no" }, { scope: "instance_write" }, "permission_missing"],
        [429, "API requests too frequent", {}, "rate_limited"],
        [400, { error: "invalid_args", msg: "bad" }, {}, "invalid_request"],
        [500, "<html>oops</html>", {}, "server_error"],
        [409, { msg: "conflict" }, {}, "request_rejected"],
        [410, { success: false, error: "no_such_ask", msg: "gone" }, {}, "not_found"],
    ])("HTTP %i %j carries the code %4$s, and the service's own code apart", (status, body, extra, code) => {
        const error = build(status, body, extra);
        expect(error.code).toBe(code);
        expect(error.serviceCode).toBe(typeof body === "object" ? (body as { error?: string }).error : undefined);
    });

    it.each([
        ["API requests too frequent", undefined],
        ["API requests too frequent endpoint threshold=3.0", 3000],
        ["API requests too frequent: endpoint threshold=0.5", 500],
        [{ detail: "API requests too frequent endpoint threshold=2.0" }, 2000],
        [{ success: false, error: "rate_limit_exceeded", msg: "API requests too frequent endpoint threshold=1.8" }, 1800],
        ["API requests too frequent endpoint threshold=abc", undefined],
    ])("a 429 %j names the endpoint's interval: %p ms", (body, thresholdMs) => {
        expect((build(429, body) as VastRateLimitError).thresholdMs).toBe(thresholdMs);
    });

    it("takes the message from msg, then detail, then error, then the body", () => {
        expect(serviceMessageOf({ msg: "m", detail: "d", error: "e" })).toBe("m");
        expect(serviceMessageOf({ detail: "d", error: "e" })).toBe("d");
        expect(serviceMessageOf({ error: "e" })).toBe("e");
        expect(serviceMessageOf({ other: 1 })).toBe('{"other":1}');
        expect(serviceMessageOf("plain text")).toBe("plain text");
    });

    it("blanks credential fields when the body itself becomes the message", () => {
        const body = { success: false, id: 7, api_key: "acct-key", nested: { key: "new-key" } };
        expect(serviceMessageOf(body)).toBe('{"success":false,"id":7,"api_key":"[redacted]","nested":{"key":"[redacted]"}}');
    });

    it("names the operation, the target and, on a 403, the missing permission", () => {
        const e = build(403, { msg: "denied" }, { scope: "instance_read" }) as VastAuthError;
        expect(e.message).toMatch(/^vastai: show instance 42 failed: HTTP 403 forbidden: denied\. This call needs the "instance_read" permission/);
        expect(e.missingPermission).toBe("instance_read");
        expect(e.status).toBe(403);
    });

    it("redacts the service's text before it becomes the message", () => {
        expect(build(400, { msg: "key SECRET is bad" }).message).toContain("key [redacted] is bad");
    });

    it("keeps Retry-After, in seconds or as a date", () => {
        expect((build(429, "slow", { retryAfterHeader: "3" }) as VastRateLimitError).retryAfterMs).toBe(3000);
        expect(build(429, { detail: "search_quota_exceeded" }, { retryAfterHeader: "7200" }).message).toContain("search_quota_exceeded (the service asks to wait 7200 s before trying again)");
        expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
        expect(retryAfterMs("soon")).toBeUndefined();
    });
});

describe("a request echoed in an error: what a program may mark secret is blanked", () => {
    // Every property declared secret or `mayHoldCredentials` is sent in a field the client blanks
    // by value: the declaration is the one place that says so, and this holds the client to it.
    const schemas: Record<string, PropertySchema> = {
        template: templateArgsSchema,
        instance: instanceArgsSchema,
        sshKey: sshKeyArgsSchema,
        apiKey: apiKeyArgsSchema,
        workerGroup: workerGroupArgsSchema,
    };
    const sent = Object.entries(schemas).flatMap(([resource, schema]) =>
        declarationsOf(schema)
            .filter((d) => d.wire !== undefined && (d.secret === true || d.mayHoldCredentials === true))
            .map((d) => [`${resource}.${d.name}`, d.wire!] as const),
    );
    it.each(sent)("%s (sent as %s)", (_property, wire) => {
        const value = "probe_secret_value_9";
        const body = {
            name: "n",
            [wire]: wire === "env" ? { PROBE: value } : wire === "args" ? ["--token", value] : `-u bot -p ${value} ${value}`,
        };
        const echoed = JSON.stringify({ detail: [{ msg: "invalid", input: body }] });
        expect(redactor(secretValuesIn(body))(echoed)).not.toContain(value);
    });

    // Before: a worker group's launch_args were not read for secrets: an echo quoting one env value or its onstart showed it.
    it("a worker group's env values and onstart, inside its launch_args, as an echo quotes them alone", () => {
        const body = { launch_args: `--disk 16 --env '-e HF_TOKEN=hf_PROBElaunch123 -e MODEL="qwen 8b"' --onstart-cmd "curl -H 'x: tok_PROBEonstart9' h"` };
        const message = 'invalid env: HF_TOKEN=hf_PROBElaunch123; onstart "curl -H \'x: tok_PROBEonstart9\' h" refused';
        const redacted = redactor(secretValuesIn(body))(message);
        for (const probe of ["hf_PROBElaunch123", "tok_PROBEonstart9"]) expect(redacted).not.toContain(probe);
    });

    // Before: a value with a quote, a backslash or a line break was matched only as written, not as
    // JSON quotes it, nor as JSON text quoted inside a message (the echo below has both).
    it("values with quotes, backslashes or line breaks, as JSON quotes them, and as a message quoting that JSON does", () => {
        const pem = "-----BEGIN KEY-----\nMIIEPROBEpem\n-----END KEY-----";
        const body = { env: { K: 'a"PROBE_SECRET_789', SSH_PRIV: pem, WIN: "C:\\PROBEpath" }, onstart: 'export HF_TOKEN="hf_PROBEonstart"; run' };
        const raw = JSON.stringify(body);
        const echoed = JSON.stringify({ detail: [{ msg: `Value error, request refused: ${raw}`, input: body }] });
        const redacted = redactor(secretValuesIn(body))(echoed);
        for (const probe of ["PROBE_SECRET_789", "MIIEPROBEpem", "PROBEpath", "hf_PROBEonstart"]) expect(redacted).not.toContain(probe);
    });

    // Before: a short description or argument was blanked wherever it stood, the service's own
    // words too ("none found for given hash id" lost "found" to a desc "found").
    it("a short description or argument is blanked as an echo quotes it, not where it is a word of the service's message", () => {
        const body = { desc: "found", args: ["bash", "-c", "python serve.py --token tok_PROBE_long_args"] };
        const message = `none found for given hash id; bash exited. Request: ${JSON.stringify(body)}`;
        const redacted = redactor(secretValuesIn(body))(message);
        expect(redacted).toMatch(/^none found for given hash id; bash exited\. Request: /);
        expect(redacted).not.toContain('"found"');
        expect(redacted).not.toContain('"bash"');
        expect(redacted).not.toContain("tok_PROBE_long_args");
    });

    it("a description, and an environment value shorter than a word, with its name", () => {
        const body = { desc: "internal note 42", env: "-e PIN=q7z -p 8080:8080" };
        const redacted = redactor(secretValuesIn(body))(`422: ${JSON.stringify(body)}`);
        expect(redacted).not.toContain("internal note 42");
        expect(redacted).not.toContain("PIN=q7z");
    });
});

describe("errorFromNetwork: whether the request may have reached the service", () => {
    const ctx = { operation: "create instance" };
    it.each([
        ["ECONNREFUSED", undefined, false],
        ["ENOTFOUND", "getaddrinfo", false],
        ["CERT_HAS_EXPIRED", undefined, false],
        // Unreachable while connecting: nothing went out. On a connection already made (the route
        // lost with the request's bytes unacknowledged), it may have: a create is then looked for.
        ["EHOSTUNREACH", "connect", false],
        ["EHOSTUNREACH", "write", true],
        ["ENETUNREACH", undefined, true],
        ["ECONNRESET", "read", true],
        ["EPROTO", undefined, true],
        // No tunnel through the egress proxy: the request was never written (tunnel.ts).
        ["ERR_PROXY_TUNNEL", undefined, false],
    ])("%s (%s): sent %p", (code, syscall, sent) => {
        expect(errorFromNetwork(ctx, code, "detail", syscall).sent).toBe(sent);
    });
});
