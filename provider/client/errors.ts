/**
 * The client's error classes, one per kind of failure, and the one factory that maps a failed HTTP
 * response (status and body) to its class. Messages name the operation and what it acted on
 * ("vastai: show instance 42 failed: ..."), and never carry the API key: service text goes through
 * the caller's `redact` (redaction.ts) before it becomes part of a message. Whether a failure left
 * the request unsent, and whether it is retried: errorClassification.ts, retryPolicy.ts.
 */
import { ErrorCode } from "../errors/codes";
import { ProviderError } from "../errors/providerError";
import { WORDING_RULES, notFoundVerdict } from "./notFound";
import { serviceMessageOf } from "./redaction";

export type VastErrorKind =
    | "auth"
    | "not-found"
    | "rate-limited"
    | "invalid-args"
    | "rejected"
    | "server"
    | "network"
    | "unexpected-response"
    | "outcome-unknown"
    | "config";

export interface VastErrorContext {
    /** What was being done, in words: "create template", "show instance". */
    operation: string;
    /** What it was done to: "instance 42", "offer 7", "template \"base\"". */
    target?: string;
    status?: number;
    /** The service's own error code (`auth_error`, `invalid_args`, ...), when it sent one. */
    serviceCode?: string;
    /** The service's message, already redacted. */
    serviceMessage?: string;
}

/** A failed request: its kind, and its stable `code` (docs/errors.md), which says more than the kind where the factory knows more. */
export abstract class VastError extends ProviderError {
    abstract readonly kind: VastErrorKind;
    readonly operation: string;
    readonly target?: string;
    readonly status?: number;
    /** The service's own error code (`auth_error`, `no_such_ask`), when it sent one. */
    readonly serviceCode?: string;
    readonly serviceMessage?: string;

    constructor(code: ErrorCode, ctx: VastErrorContext, reason: string, options?: { cause?: unknown }) {
        super(code, `vastai: ${ctx.operation}${ctx.target ? ` ${ctx.target}` : ""} failed: ${reason}`, options);
        this.operation = ctx.operation;
        this.target = ctx.target;
        this.status = ctx.status;
        this.serviceCode = ctx.serviceCode;
        this.serviceMessage = ctx.serviceMessage;
    }
}

/** 401/403, or an `auth_error` body under any status: the key is wrong, revoked or lacks a scope. */
export class VastAuthError extends VastError {
    readonly kind = "auth";
    /** The permission the route needs, when the refusal was a 403 and the route's scope is known. */
    readonly missingPermission?: string;
    constructor(ctx: VastErrorContext, reason: string, missingPermission?: string) {
        super(missingPermission ? "permission_missing" : "key_refused", ctx, reason);
        this.missingPermission = missingPermission;
    }
}

export class VastNotFoundError extends VastError {
    readonly kind = "not-found";
    constructor(ctx: VastErrorContext, reason: string, code: ErrorCode = "not_found") {
        super(code, ctx, reason);
    }
}

export class VastRateLimitError extends VastError {
    readonly kind = "rate-limited";
    /** From `Retry-After`, when the service sent one (the live one does not). */
    readonly retryAfterMs?: number;
    /** The endpoint's minimum interval, when the response named it (`endpoint threshold=3.0`, in seconds). */
    readonly thresholdMs?: number;
    constructor(ctx: VastErrorContext, reason: string, retryAfterMs?: number, thresholdMs?: number) {
        super("rate_limited", ctx, reason);
        this.retryAfterMs = retryAfterMs;
        this.thresholdMs = thresholdMs;
    }
}

export class VastInvalidArgsError extends VastError {
    readonly kind = "invalid-args";
    constructor(ctx: VastErrorContext, reason: string, code: ErrorCode = "invalid_request") {
        super(code, ctx, reason);
    }
}

/** A request this client refused to send (it breaks a documented limit): the service saw nothing, and no offer refused it. */
export class VastRequestNotSentError extends VastInvalidArgsError {
    constructor(ctx: VastErrorContext, reason: string) {
        super(ctx, reason, "request_over_limit");
    }
}

/** A refusal that fits no other kind: a 409, a 410, `success: false` with an unfamiliar code. */
export class VastRequestRejectedError extends VastError {
    readonly kind = "rejected";
    constructor(ctx: VastErrorContext, reason: string, code: ErrorCode = "request_rejected", options?: { cause?: unknown }) {
        super(code, ctx, reason, options);
    }
}

export class VastServerError extends VastError {
    readonly kind = "server";
    constructor(ctx: VastErrorContext, reason: string) {
        super("server_error", ctx, reason);
    }
}

/** No HTTP response: refused, reset, timed out. `sent` is false only when the request never left. */
export class VastNetworkError extends VastError {
    readonly kind = "network";
    readonly sent: boolean;
    readonly errorCode?: string;
    constructor(ctx: VastErrorContext, reason: string, sent: boolean, errorCode?: string) {
        super("network_error", ctx, reason);
        this.sent = sent;
        this.errorCode = errorCode;
    }
}

/** The answer was not what the service promises: not JSON, or a required field missing or mistyped. */
export class VastUnexpectedResponseError extends VastError {
    readonly kind = "unexpected-response";
    constructor(ctx: VastErrorContext, reason: string) {
        super("unexpected_response", ctx, reason);
    }
}

/**
 * A create that may or may not have happened: the request was sent and the response was lost (a
 * timeout, a reset, a 5xx). It is never re-sent blindly; the caller looks for what it may have
 * created, using what it put in the request (a label, a name), before trying again.
 */
export class VastOutcomeUnknownError extends VastError {
    readonly kind = "outcome-unknown";
    /**
     * When the request whose outcome is unknown left this machine (ms, this machine's clock), after
     * any wait its turn in the pacer took: what it may have made is no older than that. Set by the
     * transport.
     */
    sentAt?: number;
    constructor(readonly underlying: VastError) {
        super(
            "outcome_unknown",
            underlying,
            `the request was sent but its outcome is unknown (${underlying.message.replace(/^vastai: .*? failed: /, "")}); ` +
                "it was not sent again, to avoid creating a duplicate",
            { cause: underlying },
        );
    }
}

/**
 * Bad or missing configuration (no key, a URL the key may not go to, a key of another account than
 * the resource's); raised before the request it concerns is made. A `VastError` like every other
 * failure, so one `catch` covers them all.
 */
export class VastConfigError extends VastError {
    readonly kind = "config";
    constructor(message: string, code: ErrorCode = "config_invalid") {
        super(code, { operation: "configure" }, message);
        // Said as it is, not as "configure failed: ...": the message is what to set.
        this.message = `vastai: ${message}`;
    }
}

/**
 * What a message tells the person to change, in the settings they set: the stack's, or those of
 * whoever built the client (the command line reads its own environment and flags).
 */
export interface SettingHints {
    /** What to do about a refused key: "set vastai:apiKey or VAST_API_KEY to a valid key". */
    key: string;
    /** Where the service's address is set: "vastai:baseUrl, or VAST_URL". */
    baseUrl: string;
}

/** The stack's settings (docs: Configuration), which the provider and the program's functions read. */
export const STACK_SETTING_HINTS: SettingHints = {
    key: "set vastai:apiKey or VAST_API_KEY to a valid key",
    baseUrl: "vastai:baseUrl, or VAST_URL",
};

export interface HttpResponse {
    status: number;
    /** Parsed JSON when the body was JSON, else the raw text. */
    body: unknown;
    retryAfterHeader?: string;
}

export interface ErrorFactoryInput extends HttpResponse {
    operation: string;
    target?: string;
    /** The permission the route needs, if known (docs/live-service.md "Scopes per route"). */
    scope?: string;
    /** What the route's own not-found names (`Endpoint.about`): a `no_such_*` naming anything else is not about it. */
    about?: string;
    /** The code the route answers for a target it does not have, besides `not_found`/`no_such_*` (`Endpoint.goneCode`). */
    goneCode?: string;
    redact: (text: string) => string;
    /** STACK_SETTING_HINTS unless the client was given others. */
    hints?: SettingHints;
}

const MAX_MESSAGE_CHARS = 500;

function errorCodeOf(body: unknown): string | undefined {
    if (body && typeof body === "object" && !Array.isArray(body)) {
        const code = (body as Record<string, unknown>).error;
        if (typeof code === "string" && /^[a-z_]+$/i.test(code)) return code;
    }
    return undefined;
}

function truncate(text: string): string {
    return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

/** A 2xx status. */
export function isOkStatus(status: number | undefined): boolean {
    return status !== undefined && status >= 200 && status < 300;
}

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
    if (!header) return undefined;
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const at = Date.parse(header);
    return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The interval a 429 names, ms: the live service's response is "API requests too frequent" alone or
 * followed by "endpoint threshold=<seconds>" (plain text, or in `detail`/`msg`). Undefined when not named.
 */
export function rateLimitThresholdMs(serviceMessage: string): number | undefined {
    const m = /threshold\s*=\s*(\d+(?:\.\d+)?)/i.exec(serviceMessage);
    const seconds = m ? Number(m[1]) : NaN;
    return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** Builds the error for a failed HTTP response. The one place that maps status and body to a kind. */
export function errorFromResponse(input: ErrorFactoryInput): VastError {
    const { status, body, operation, target, scope, about, goneCode, redact, hints = STACK_SETTING_HINTS } = input;
    const code = errorCodeOf(body);
    const serviceMessage = truncate(redact(serviceMessageOf(body)));
    const ctx: VastErrorContext = { operation, target, status, serviceCode: code, serviceMessage };
    const said = serviceMessage ? `: ${serviceMessage}` : "";
    const statusText = isOkStatus(status) ? `HTTP ${status} with success=false` : `HTTP ${status}`;
    const notFound = notFoundVerdict({ body, serviceCode: code, serviceMessage, about, goneCode });

    // A revoked key has been seen answering 404 with `auth_error`: that is an auth failure, not "gone".
    // A 403 that says `invalid_args` refuses the request, not the key (create instance: "Offer X is
    // not your own"): read as invalid arguments below, so a search moves on to another offer.
    const refusesRequest = status === 403 && code === "invalid_args";
    if ((status === 401 || status === 403 || code === "auth_error") && !refusesRequest) {
        if (status === 403 && scope) {
            return new VastAuthError(
                ctx,
                `${statusText} forbidden${said}. This call needs the "${scope}" permission; ` +
                    `use a key that has it (a scoped key without "${scope}" is refused here)`,
                scope,
            );
        }
        // A 401 may be a scope refusal too: the contract (§5.4) and the vendor's authentication page
        // both say a scoped key lacking the route's permission gets "401 or 403", and nothing in a
        // 401 tells the two apart. So the route's permission is named as the other cause (not set
        // as `missingPermission`, which says the refusal was certainly about it).
        const orScope = status === 401 && scope ? `, or it is a scoped key without the "${scope}" permission this call needs` : "";
        return new VastAuthError(
            ctx,
            `${statusText} unauthorized${said}. The API key was refused: it is wrong, expired or revoked${orScope} ` +
                `(${hints.key})`,
        );
    }
    if (status === 429) {
        const waitMs = retryAfterMs(input.retryAfterHeader);
        const asked = waitMs === undefined ? "" : ` (the service asks to wait ${Math.ceil(waitMs / 1000)} s before trying again)`;
        return new VastRateLimitError(ctx, `${statusText} rate limited${said}${asked}`, waitMs, rateLimitThresholdMs(serviceMessage));
    }
    if (status >= 500) {
        return new VastServerError(ctx, `${statusText} server error${said}`);
    }
    // "Gone" is the service's own error fields' to say (notFound.ts); a retired endpoint is not a resource that is gone.
    if (code === "deprecated_endpoint") {
        return new VastRequestRejectedError(ctx, `${statusText} the service retired this endpoint${said}; update pulumi-vastai`, "endpoint_retired");
    }
    if (notFound === "names-other") {
        const other = WORDING_RULES.namedMissing(code, serviceMessage).length > 0 ? `names something other than this ${about}` : `does not say this ${about} is what is missing`;
        return new VastRequestRejectedError(ctx, `${statusText} ${other}${said}`, "not_about_it");
    }
    if (notFound === "gone") return new VastNotFoundError(ctx, `${statusText} not found${said}`);
    if (status === 404 || status === 410) {
        return new VastRequestRejectedError(
            ctx,
            `${statusText} without saying what is missing${said}: this is not the API's own answer; check ${hints.baseUrl}`,
            "not_the_api",
        );
    }
    if (status === 400 || status === 422 || code === "invalid_args") {
        return new VastInvalidArgsError(ctx, `${statusText} invalid arguments${said}`);
    }
    return new VastRequestRejectedError(ctx, `${statusText} rejected${said}`);
}
