import { readTemplateEnvFlags } from "../schemas/envFlags";

/**
 * One error class per kind of failure, all built here. Messages name the operation and what it
 * acted on ("vastai: show instance 42 failed: ..."), and never carry the API key: service text is
 * passed through `redact` before it becomes part of a message.
 */

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
    code?: string;
    /** The service's message, already redacted. */
    serviceMessage?: string;
}

export abstract class VastError extends Error {
    abstract readonly kind: VastErrorKind;
    readonly operation: string;
    readonly target?: string;
    readonly status?: number;
    readonly code?: string;
    readonly serviceMessage?: string;

    constructor(ctx: VastErrorContext, reason: string, options?: { cause?: unknown }) {
        super(`vastai: ${ctx.operation}${ctx.target ? ` ${ctx.target}` : ""} failed: ${reason}`, options);
        this.name = new.target.name;
        this.operation = ctx.operation;
        this.target = ctx.target;
        this.status = ctx.status;
        this.code = ctx.code;
        this.serviceMessage = ctx.serviceMessage;
    }
}

/** 401/403, or an `auth_error` body under any status: the key is wrong, revoked or lacks a scope. */
export class VastAuthError extends VastError {
    readonly kind = "auth";
    /** The permission the route needs, when the refusal was a 403 and the route's scope is known. */
    readonly missingPermission?: string;
    constructor(ctx: VastErrorContext, reason: string, missingPermission?: string) {
        super(ctx, reason);
        this.missingPermission = missingPermission;
    }
}

export class VastNotFoundError extends VastError {
    readonly kind = "not-found";
}

export class VastRateLimitError extends VastError {
    readonly kind = "rate-limited";
    /** From `Retry-After`, when the service sent one (the live one does not). */
    readonly retryAfterMs?: number;
    /** The endpoint's minimum interval, when the answer named it (`endpoint threshold=3.0`, in seconds). */
    readonly thresholdMs?: number;
    constructor(ctx: VastErrorContext, reason: string, retryAfterMs?: number, thresholdMs?: number) {
        super(ctx, reason);
        this.retryAfterMs = retryAfterMs;
        this.thresholdMs = thresholdMs;
    }
}

export class VastInvalidArgsError extends VastError {
    readonly kind = "invalid-args";
}

/** A request this client refused to send (it breaks a documented limit): the service saw nothing, and no offer refused it. */
export class VastRequestNotSentError extends VastInvalidArgsError {}

/** A refusal that fits no other kind: a 409, a 410, `success: false` with an unfamiliar code. */
export class VastRequestRejectedError extends VastError {
    readonly kind = "rejected";
}

export class VastServerError extends VastError {
    readonly kind = "server";
}

/** No HTTP answer: refused, reset, timed out. `sent` is false only when the request never left. */
export class VastNetworkError extends VastError {
    readonly kind = "network";
    readonly sent: boolean;
    readonly errorCode?: string;
    constructor(ctx: VastErrorContext, reason: string, sent: boolean, errorCode?: string) {
        super(ctx, reason);
        this.sent = sent;
        this.errorCode = errorCode;
    }
}

/** The answer was not what the service promises: not JSON, or a required field missing or mistyped. */
export class VastUnexpectedResponseError extends VastError {
    readonly kind = "unexpected-response";
}

/**
 * A create that may or may not have happened: the request was sent and the answer was lost (a
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
    constructor(message: string) {
        super({ operation: "configure" }, message);
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

export interface HttpAnswer {
    status: number;
    /** Parsed JSON when the body was JSON, else the raw text. */
    body: unknown;
    retryAfterHeader?: string;
}

export interface ErrorFactoryInput extends HttpAnswer {
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

/**
 * Body fields that hold a credential wherever they appear: `users/current` carries the account's
 * `api_key`, a key's create answer its `key`. `redact` only knows the key the call was made with,
 * which is not the account's key when a scoped key is in use.
 */
const CREDENTIAL_FIELDS = new Set(["api_key", "key", "instance_api_key", "docker_login_pass", "image_login"]);

/**
 * Body fields whose values the program may have marked secret (the engine keeps `env` secret in
 * state): every environment value, an instance's as a map and a template's in its `-e NAME=value`
 * flags, and the free text a secret is put in (the start script, the container's arguments, where
 * `--api-key ...` goes, a readme, a description). Blanked in messages, like credentials, since this
 * provider cannot tell which of them the program marked; every property declared
 * `mayHoldCredentials` sends one of them (test/unit/errors.test.ts). An environment value only
 * beside its name, as an echo of the request quotes it (`NAME=value`, `"NAME": "value"`): a value
 * alone may be an ordinary word (`None`, `error`) of the service's own message, which callers read.
 * An SSH key's `ssh_key` too: a private key pasted for the public one must not reach a message.
 * A description, or one of an instance's `args`, shorter than SHORT_TEXT_CHARS only as an echo
 * quotes it (`"desc": "..."`, `"bash"`): it may be an ordinary word of the service's own message.
 */
const ENV_FIELDS = new Set(["env", "extra_env"]);
const SECRET_BEARING_FIELDS = new Set(["onstart", "args", "args_str", "readme", "desc", "ssh_key"]);
const SHORT_TEXT_FIELDS = new Set(["desc", "args"]);
const SHORT_TEXT_CHARS = 16;

/** How an echo of the request may quote a short `desc` or one of `args` (see SHORT_TEXT_FIELDS). */
function shortTextEchoForms(field: string, value: string): string[] {
    const json = JSON.stringify(value);
    return field === "args" ? [json, `'${value}'`] : [`"${field}":${json}`, `"${field}": ${json}`, `'${field}': '${value}'`, `${field}=${value}`];
}

/** How an echo of the request may quote an environment variable: in a flag string, in JSON, in a Python repr. */
function envEchoForms(name: string, value: string): string[] {
    const json = JSON.stringify(value);
    return [`${name}=${value}`, `${name}="${value}"`, `${name}='${value}'`, `"${name}":${json}`, `"${name}": ${json}`, `'${name}': '${value}'`];
}

/** `text` as it stands inside a JSON string. */
function jsonEscaped(text: string): string {
    return JSON.stringify(text).slice(1, -1);
}

/** Shorter values are not blanked by value: they would blank ordinary words of a message (an environment value is blanked with its name, whatever its length). */
const MIN_SECRET_CHARS = 4;

/**
 * The credentials a request carries (`docker_login_pass`, `image_login` and its `-p` token, a
 * key) and the values it may carry secrets in (ENV_FIELDS, SECRET_BEARING_FIELDS), wherever they sit in
 * the body. A service that echoes the request in an error would otherwise put them in a message:
 * these are blanked by value, whatever field quotes them.
 */
export function secretValuesIn(body: unknown): string[] {
    const found: string[] = [];
    const walk = (value: unknown, field?: string) => {
        if (field && ENV_FIELDS.has(field)) {
            const vars = typeof value === "string" ? Object.entries(readTemplateEnvFlags(value)) : value && typeof value === "object" ? Object.entries(value) : [];
            for (const [name, v] of vars) if (typeof v === "string" && v !== "") found.push(...envEchoForms(name, v));
        } else if (typeof value === "string") {
            if (field && SECRET_BEARING_FIELDS.has(field)) {
                found.push(...(SHORT_TEXT_FIELDS.has(field) && value.length < SHORT_TEXT_CHARS ? shortTextEchoForms(field, value) : [value]));
            }
            if (field && CREDENTIAL_FIELDS.has(field)) {
                found.push(value);
                // `-u user -p token registry` (or `--password=token`, quoted): the token alone may be quoted too.
                const token = field === "image_login" ? /(?:^|\s)(?:-p|--password)(?:\s+|=)(["']?)([^\s"']+)\1/.exec(value)?.[2] : undefined;
                if (token) found.push(token);
            }
        } else if (Array.isArray(value)) value.forEach((v) => walk(v, field)); // an instance's `args`: each one
        else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => walk(v, k));
    };
    walk(body);
    return found.filter((s) => s.length >= MIN_SECRET_CHARS);
}

/**
 * Blanks each of `secrets` (longest first) and credential fields by name. Each also as it stands
 * in a JSON string, and in JSON text quoted inside one (an echo whose message quotes the request's
 * JSON): a secret with a quote, a backslash or a line break reads differently in each.
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
    const forms = [...new Set(secrets.filter(Boolean).flatMap((s) => [s, jsonEscaped(s), jsonEscaped(jsonEscaped(s))]))].sort((a, b) => b.length - a.length);
    return (text) => scrubCredentials(forms.reduce((t, s) => t.split(s).join("[redacted]"), text));
}

/**
 * Blanks credential fields in text that is not parsed JSON (a truncated body, an HTML page quoting
 * one): `"api_key": "..."`, `key='...'`, `api_key=...`.
 */
export function scrubCredentials(text: string): string {
    const names = [...CREDENTIAL_FIELDS].join("|");
    return text
        .replace(new RegExp(`((?:["']?)\\b(?:${names})\\b["']?\\s*[:=]\\s*)(["'])(?:\\\\.|(?!\\2).)*\\2?`, "g"), "$1$2[redacted]$2")
        .replace(new RegExp(`(\\b(?:${names})\\b\\s*[:=]\\s*)(?!["'\\[])[^\\s,&;}\\]<"']+`, "g"), "$1[redacted]");
}

function bodyText(body: unknown): string {
    return JSON.stringify(body, (field, value) => (CREDENTIAL_FIELDS.has(field) && typeof value === "string" ? "[redacted]" : value));
}

/** The service's message: `msg`, then `detail`, then `error`, then the body itself (credentials blanked). */
export function serviceMessageOf(body: unknown): string {
    if (body && typeof body === "object" && !Array.isArray(body)) {
        const b = body as Record<string, unknown>;
        for (const key of ["msg", "detail", "error"]) {
            const value = b[key];
            if (typeof value === "string" && value.trim() !== "") return value.trim();
        }
        return bodyText(body);
    }
    if (typeof body === "string") return scrubCredentials(body.trim());
    return body === undefined ? "" : bodyText(body);
}

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

/**
 * An error made of a 2xx answer whose body said `success: false`: the service's words, which some
 * callers read as what they are (a search that found nothing, a start queued).
 */
export function saidUnsuccessful(e: unknown): e is VastError {
    return e instanceof VastError && isOkStatus(e.status);
}

/**
 * Whether an answer is a failure: any non-2xx status, or a 2xx whose body says `success: false`
 * (many endpoints answer that way).
 */
export function isFailure(answer: HttpAnswer): boolean {
    if (!isOkStatus(answer.status)) return true;
    const b = answer.body;
    return !!b && typeof b === "object" && (b as Record<string, unknown>).success === false;
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
 * The interval a 429 names, ms: the live service's answer is "API requests too frequent" alone or
 * followed by "endpoint threshold=<seconds>" (plain text, or in `detail`/`msg`). Undefined when not named.
 */
export function rateLimitThresholdMs(serviceMessage: string): number | undefined {
    const m = /threshold\s*=\s*(\d+(?:\.\d+)?)/i.exec(serviceMessage);
    const seconds = m ? Number(m[1]) : NaN;
    return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** Builds the error for a failed HTTP answer. The one place that maps status and body to a kind. */
export function errorFromAnswer(input: ErrorFactoryInput): VastError {
    const { status, body, operation, target, scope, about, goneCode, redact, hints = STACK_SETTING_HINTS } = input;
    const code = errorCodeOf(body);
    const serviceMessage = truncate(redact(serviceMessageOf(body)));
    const ctx: VastErrorContext = { operation, target, status, code, serviceMessage };
    const said = serviceMessage ? `: ${serviceMessage}` : "";
    const statusText = isOkStatus(status) ? `HTTP ${status} with success=false` : `HTTP ${status}`;
    // The service's own words: a JSON body whose code or message says what is missing. On a route
    // that says what its not-found names, one is about it only when it names it: a `no_such_*`
    // naming anything else, or a `not_found` whose words never name it ("user not found"), is
    // about something else.
    const words = `${code ?? ""} ${serviceMessage}`;
    const noSuch = !!body && typeof body === "object" && (/no_such_\w|not_found/i.test(words) || (goneCode !== undefined && code === goneCode));
    const named = [...words.matchAll(/no_such_(\w+)/gi)].map(([, what]) => what.toLowerCase());
    const namesIt = about !== undefined && (named.length > 0 ? named.every((what) => what === about) : new RegExp(`\\b${about}s?\\b`, "i").test(words));
    const namesOther = noSuch && about !== undefined && !namesIt;

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
    // "Gone" drops a resource from state, so it is read only from the service's own words: a
    // `not_found` or `no_such_*` code or message. A retired endpoint, a 404 page that is not the
    // API's (a wrong base URL, a proxy), or a bare `{"detail": "Not Found"}` is not a resource that is gone.
    if (code === "deprecated_endpoint") {
        return new VastRequestRejectedError(ctx, `${statusText} the service retired this endpoint${said}; update pulumi-vastai`);
    }
    if (namesOther) {
        const other = named.length > 0 ? `names something other than this ${about}` : `does not say this ${about} is what is missing`;
        return new VastRequestRejectedError(ctx, `${statusText} ${other}${said}`);
    }
    if (noSuch) return new VastNotFoundError(ctx, `${statusText} not found${said}`);
    if (status === 404 || status === 410) {
        return new VastRequestRejectedError(
            ctx,
            `${statusText} without saying what is missing${said}: this is not the API's own answer; check ${hints.baseUrl}`,
        );
    }
    if (status === 400 || status === 422 || code === "invalid_args") {
        return new VastInvalidArgsError(ctx, `${statusText} invalid arguments${said}`);
    }
    return new VastRequestRejectedError(ctx, `${statusText} rejected${said}`);
}

/** No tunnel through the egress proxy was opened (tunnel.ts): the request never left this machine. */
export const PROXY_TUNNEL_FAILED = "ERR_PROXY_TUNNEL";

/**
 * Connection-level failures where the request is known not to have reached the service: no
 * connection (to the service, or through the proxy), or a TLS handshake that refused the service's
 * certificate (checked before any byte of the request is written). Any other TLS failure (EPROTO)
 * may come later, after sending.
 */
const NOT_SENT_CODES = new Set([
    "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", PROXY_TUNNEL_FAILED,
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
