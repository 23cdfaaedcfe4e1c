import { EmuResponse, responseText, fail, notFoundPage } from "./response";
import { Fault } from "./faults";

/**
 * What each fault sends instead of, or in place of, the real response. Faults that send nothing at
 * all (`reset`, `timeout`, `lostResponse` without a status) are the server's: they act on the socket.
 */

/** The answer of a fault where the service never acts on the request; undefined for the others. */
export function responseInstead(fault: Fault, rawBody: string, body: unknown): EmuResponse | undefined {
    switch (fault.kind) {
        case "status":
            return fault.text !== undefined
                ? { status: fault.status, body: fault.text, text: true, headers: fault.headers }
                : { status: fault.status, body: fault.body ?? { success: false, error: "server_error", msg: "Internal error" }, headers: fault.headers };
        case "successFalse":
            return { status: 200, body: { success: false, error: fault.error ?? "server_error", msg: fault.msg ?? "Something went wrong" } };
        case "successIgnored":
            return { status: 200, body: { success: true } };
        case "authError404":
            return fail(404, "auth_error", "Invalid user key");
        case "notFoundPage":
            return fault.shape === "html" ? notFoundPage() : { status: 404, body: { detail: "Not Found" } };
        case "echoRequest":
            // Some services quote the request in a validation error: whatever the body held
            // (a password, a key) comes back in the response.
            return {
                status: fault.status ?? 422,
                body: {
                    detail: [{
                        type: "value_error",
                        loc: ["body"],
                        msg: `Value error, request refused: ${rawBody.trim() === "" ? "null" : rawBody}`,
                        input: body ?? null,
                    }],
                },
            };
        default:
            return undefined;
    }
}

/** The answer sent once the service has acted: spoiled by the fault, or the real one. */
export function responseAfter(fault: Fault | undefined, real: EmuResponse): EmuResponse {
    switch (fault?.kind) {
        case "malformed":
            return { status: 200, body: '{"success": true, "tem', text: true };
        case "truncated": {
            const text = responseText(real);
            return { status: 200, body: text.slice(0, Math.floor(text.length / 2)), text: true, contentType: "application/json" };
        }
        case "lostResponse":
            if (!fault.status) return real;
            return fault.body !== undefined ? { status: fault.status, body: fault.body } : { status: fault.status, body: "<html>Gateway Timeout</html>", text: true };
        default:
            return real;
    }
}
