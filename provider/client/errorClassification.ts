/**
 * Reading a failure: whether a response is one, and whether a network failure left the request
 * unsent (so any call may be sent again) or may have reached the service (see retryPolicy.ts).
 */
import { SettingHints, STACK_SETTING_HINTS, HttpResponse, VastError, VastNetworkError, isOkStatus } from "./errors";

/**
 * An error made of a 2xx response whose body said `success: false`: the service's words, which some
 * callers read as what they are (a search that found nothing, a start queued).
 */
export function saidUnsuccessful(e: unknown): e is VastError {
    return e instanceof VastError && isOkStatus(e.status);
}

/**
 * Whether a response is a failure: any non-2xx status, or a 2xx whose body says `success: false`
 * (many endpoints answer that way).
 */
export function isFailure(response: HttpResponse): boolean {
    if (!isOkStatus(response.status)) return true;
    const b = response.body;
    return !!b && typeof b === "object" && (b as Record<string, unknown>).success === false;
}

/** No tunnel through the egress proxy was opened (tunnel.ts): the request never left this machine. */
export const PROXY_TUNNEL_FAILED = "ERR_PROXY_TUNNEL";
/** The proxy refused the tunnel for want of credentials (407): not sent, and no retry brings them. */
export const PROXY_AUTH_REQUIRED = "ERR_PROXY_AUTH";

/**
 * Connection-level failures where the request is known not to have reached the service: no
 * connection (to the service, or through the proxy), or a TLS handshake that refused the service's
 * certificate (checked before any byte of the request is written). Any other TLS failure (EPROTO)
 * may come later, after sending.
 */
const NOT_SENT_CODES = new Set([
    "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", PROXY_TUNNEL_FAILED, PROXY_AUTH_REQUIRED,
    "CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "CERT_REVOKED", "CERT_UNTRUSTED", "CERT_SIGNATURE_FAILURE", "DEPTH_ZERO_SELF_SIGNED_CERT",
    "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_GET_ISSUER_CERT", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Of those, the ones a connection already made can also meet (the route lost while the request's bytes were unacknowledged): not sent only when met connecting. */
const NOT_SENT_WHEN_CONNECTING = new Set(["EHOSTUNREACH", "ENETUNREACH"]);

/** Failures that most often mean the base URL is wrong, and what to check. */
function addressHint(errorCode: string | undefined, hints: SettingHints): string {
    const check = `; check the base URL (${hints.baseUrl}; https://console.vast.ai by default)`;
    if (errorCode === "ECONNREFUSED") return `: nothing listens there${check}`;
    if (errorCode === "ENOTFOUND") return `: no such host${check}`;
    // TLS spoken to a plain-http server (`wrong version number`), or the other way round.
    if (errorCode === "EPROTO") return `; if the server speaks plain http (the emulator does), the base URL must start with http://${check}`;
    return "";
}

/** `syscall`: the system call that failed (`connect`, `write`, `read`), when the error says. */
export function errorFromNetwork(
    ctx: { operation: string; target?: string },
    errorCode: string | undefined,
    detail: string,
    syscall?: string,
    hints: SettingHints = STACK_SETTING_HINTS,
): VastNetworkError {
    const sent = !(errorCode && NOT_SENT_CODES.has(errorCode) && (!NOT_SENT_WHEN_CONNECTING.has(errorCode) || syscall === "connect"));
    const reason = errorCode === "ECONNABORTED" || errorCode === "ETIMEDOUT" ? "timed out" : "network error";
    return new VastNetworkError(ctx, `${reason} (${errorCode ?? "unknown"}): ${detail}${addressHint(errorCode, hints)}`, sent, errorCode);
}
