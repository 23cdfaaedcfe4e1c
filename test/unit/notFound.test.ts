import { errorFromResponse } from "../../provider/client/errors";
import { WORDING_RULES, notFoundVerdict } from "../../provider/client/notFound";

/**
 * "Gone" drops a resource from state, so it is read from the service's error fields, with the two
 * wording rules of provider/client/notFound.ts; each has its cases here. The factory's code for
 * each verdict is checked below them.
 */
const verdict = (body: Record<string, unknown> | string, about?: string, goneCode?: string) =>
    notFoundVerdict({
        body,
        serviceCode: typeof body === "object" ? (body.error as string | undefined) : undefined,
        serviceMessage: typeof body === "object" ? String(body.msg ?? body.detail ?? "") : body,
        about,
        goneCode,
    });

describe("not found, from the service's error fields", () => {
    it.each([
        [{ error: "no_such_instance", msg: "instance 42 not found" }, "instance", "gone"],
        [{ error: "not_found", msg: "no template with id 5" }, "template", "gone"],
        [{ error: "not_found", msg: "x" }, undefined, "gone"],
        [{ error: "no_ssh_key", msg: "No ssh key provided" }, undefined, undefined],
        [{ error: "invalid_args", msg: "bad disk" }, "instance", undefined],
        [{ detail: "Not Found" }, "instance", undefined],
        ["<html>404 Not Found</html>", "instance", undefined],
        ["no_such_instance", "instance", undefined],
        // A `not_found` only in the words of another field is not the service's code.
        [{ error: "server_error", msg: "lookup failed: not_found" }, "instance", undefined],
    ] as const)("%j on a route about %s: %s", (body, about, expected) => {
        expect(verdict(body as never, about)).toBe(expected);
    });

    it("a route's own gone code is gone there only (the SSH key delete's no_ssh_key)", () => {
        expect(verdict({ error: "no_ssh_key", msg: "No ssh key provided" }, undefined, "no_ssh_key")).toBe("gone");
        expect(verdict({ error: "no_ssh_key", msg: "No ssh key provided" })).toBeUndefined();
    });
});

describe("wording rule: a no_such_* code said inside the message", () => {
    it("reads the code the live service puts in an invalid_args message", () => {
        expect(WORDING_RULES.namedMissing("invalid_args", "error 404/3603: no_such_ask  Instance type by id 7 is not available.")).toEqual(["ask"]);
        expect(verdict({ error: "invalid_args", msg: "error 404/3603: no_such_ask" })).toBe("gone");
    });

    it("a no_such_* naming something other than the route's resource names another", () => {
        expect(verdict({ error: "invalid_args", msg: "error 404/3603: no_such_ask" }, "instance")).toBe("names-other");
        expect(verdict({ error: "no_such_instance", msg: "no_such_ask" }, "instance")).toBe("names-other");
    });

    it("finds the code as a word only", () => {
        expect(WORDING_RULES.namedMissing(undefined, "see docs#no_such_ask")).toEqual(["ask"]);
        expect(WORDING_RULES.namedMissing(undefined, "nono_such_ask")).toEqual([]);
    });
});

describe("wording rule: which resource a not_found names", () => {
    it("is about the route's resource when its message names it, in either number and any case", () => {
        expect(WORDING_RULES.messageNames("Instance 42 not found", "instance")).toBe(true);
        expect(WORDING_RULES.messageNames("no instances match", "instance")).toBe(true);
        expect(WORDING_RULES.messageNames("user not found", "instance")).toBe(false);
        expect(WORDING_RULES.messageNames("instanceless", "instance")).toBe(false);
        expect(verdict({ error: "not_found", msg: "user not found" }, "instance")).toBe("names-other");
        expect(verdict({ error: "not_found" }, "instance")).toBe("names-other");
    });
});

describe("the code of each verdict", () => {
    const build = (status: number, body: unknown, about?: string) => errorFromResponse({ status, body, operation: "show instance", target: "42", about, redact: (t) => t });
    it.each([
        [404, { success: false, error: "no_such_instance", msg: "gone" }, "instance", "not_found"],
        [404, { success: false, error: "not_found", msg: "user not found" }, "instance", "not_about_it"],
        [404, { detail: "Not Found" }, "instance", "not_the_api"],
        [404, "<html>Not Found</html>", undefined, "not_the_api"],
        [410, { success: false, error: "deprecated_endpoint", msg: "use v1" }, undefined, "endpoint_retired"],
        [404, { error: "auth_error", msg: "Invalid user key" }, "instance", "key_refused"],
    ] as const)("HTTP %i %j (about %s) is %s", (status, body, about, code) => {
        expect(build(status, body, about).code).toBe(code);
    });
});
