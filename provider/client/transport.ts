import axios, { AxiosInstance } from "axios";
import { createHash } from "crypto";
import { z } from "zod";
import { ConnectionKind, connectionAgents } from "./connections";
import { httpAdapter } from "./httpAdapter";
import { isLoopbackHost } from "./hosts";
import { ProxySetting, proxyFor, proxyFromEnvironment } from "./proxy";
import { Endpoint, endpointPath } from "./endpoints";
import {
    HttpResponse,
    STACK_SETTING_HINTS,
    SettingHints,
    VastConfigError,
    VastError,
    VastOutcomeUnknownError,
    VastRateLimitError,
    VastUnexpectedResponseError,
    errorFromResponse,
    isOkStatus,
} from "./errors";
import { errorFromNetwork, isFailure } from "./errorClassification";
import { redactor, secretValuesIn } from "./redaction";
import { Pacer, sharedPacer } from "./pacer";
import { describeIssues } from "./zodIssues";
import { DEFAULT_RETRY, RetryOptions, decideRetry } from "./retryPolicy";
import { safeParse } from "../schemas/parse";

export interface TransportOptions {
    apiKey: string;
    /** `https://console.vast.ai`, or the emulator's loopback address. */
    baseUrl: string;
    /** Per request; the pacer's wait does not count. */
    timeoutMs?: number;
    retry?: Partial<RetryOptions>;
    /** Multiplies every minimum interval: 1 at live speed; the emulator's tests run faster. */
    paceScale?: number;
    pacer?: Pacer;
    /** One line per HTTP exchange: method, path, status, time. Never headers, bodies or the key. */
    log?: (line: string) => void;
    /** What a refused key or a wrong address tells the person to change; the stack's settings unless given. */
    settingHints?: SettingHints;
    /**
     * The egress proxy and the hosts reached without it (proxy.ts); `false` for none. Unless given,
     * `HTTPS_PROXY` and `NO_PROXY` from the environment, read once, when the client is made.
     */
    proxy?: ProxySetting | false;
    /** For tests: the certificates (PEM) an https service's must chain to, instead of Node's own list. */
    ca?: string;
}

export interface CallRequest {
    params?: Record<string, string | number>;
    query?: Record<string, string | number | undefined>;
    body?: unknown;
    /** What the call acts on, for messages: "instance 42". */
    target?: string;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
/**
 * How long an egress proxy may take to open a tunnel (half a call's timeout when that is shorter):
 * a proxy that does not answer CONNECT fails the call as not sent, before the call's own timeout
 * would read it as sent with its outcome unknown.
 */
const PROXY_CONNECT_TIMEOUT_MS = 10_000;

/** A 429 on an endpoint with no documented interval teaches the pacer at least this, at live speed. */
const LEARNED_INTERVAL_FLOOR_MS = 1000;
const LEARNED_INTERVAL_MAX_FACTOR = 4;

/** The key goes over TLS, or over plain http only to this machine (the emulator). */
export function assertSafeBaseUrl(baseUrl: string): URL {
    let url: URL;
    try {
        url = new URL(baseUrl);
    } catch {
        throw new VastConfigError(`baseUrl ${JSON.stringify(baseUrl)} is not a URL (expected e.g. https://console.vast.ai)`);
    }
    if (url.protocol === "https:") return url;
    if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return url;
    throw new VastConfigError(
        `refusing to send the API key to ${url.protocol}//${url.host}: use https://, or plain http:// only to a loopback address`,
    );
}

/**
 * A response that names what the call made (`Endpoint.createdInResponse`): read as a response,
 * whatever its `success`. Where the field alone says so (no message to match), whatever its status
 * too: a 4xx naming a new instance is not a refusal, and read as one it would leave a billed
 * instance outside state.
 */
function namesWhatItCreated(endpoint: Endpoint, response: HttpResponse): boolean {
    const made = endpoint.createdInResponse;
    if (made === undefined) return false;
    const body = response.body;
    if (typeof body !== "object" || body === null) return false;
    const { [made.field]: what, error, msg } = body as Record<string, unknown>;
    if (what == null) return false;
    if (made.msg === undefined) return true;
    return isOkStatus(response.status) && error == null && typeof msg === "string" && made.msg.test(msg.trim());
}

/**
 * The core of the client: one place for the wire. It paces, sends with the key, maps failures to
 * typed errors, retries under the one policy and checks the response against a schema.
 */
export class Transport {
    readonly #apiKey: string;
    readonly #http: AxiosInstance;
    readonly #connections: ReturnType<typeof connectionAgents>;
    readonly #keyHash: string;
    readonly baseUrl: string;
    private readonly retry: RetryOptions;
    private readonly paceScale: number;
    private readonly pacer: Pacer;
    private readonly log?: (line: string) => void;
    private readonly hints: SettingHints;
    #writesSent = 0;
    #writesOnTheWay = 0;
    /** The service's clock minus this machine's, ms, from the last response's `Date` header. */
    #serviceClockOffsetMs: number | undefined;

    constructor(options: TransportOptions) {
        if (!options.apiKey) throw new VastConfigError("no API key given to the client");
        const url = assertSafeBaseUrl(options.baseUrl);
        this.#apiKey = options.apiKey;
        this.#keyHash = createHash("sha256").update(options.apiKey).digest("hex").slice(0, 16);
        this.baseUrl = url.toString().replace(/\/+$/, "");
        this.retry = { ...DEFAULT_RETRY, ...options.retry };
        this.paceScale = options.paceScale ?? 1;
        this.pacer = options.pacer ?? sharedPacer;
        this.log = options.log;
        this.hints = options.settingHints ?? STACK_SETTING_HINTS;
        const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        const proxy = options.proxy === false ? undefined : proxyFor(url, options.proxy ?? proxyFromEnvironment());
        this.#connections = connectionAgents({ proxy, proxyTimeoutMs: Math.min(PROXY_CONNECT_TIMEOUT_MS, timeout / 2), ca: options.ca });
        this.#http = axios.create({
            baseURL: this.baseUrl,
            timeout,
            // Sends as given and follows no redirect (which could carry the key elsewhere).
            adapter: httpAdapter,
            validateStatus: () => true,
            responseType: "text",
            // Bodies go out as the JSON text made in `send`, and answers are parsed there (a malformed
            // one is our typed error rather than axios' guess): axios' transforms have nothing to do.
            transformRequest: [],
            transformResponse: [],
        });
        // Each request names all its headers (`send`): axios' defaults (Accept, a POST's
        // Content-Type) would only be merged into every request to be overwritten.
        this.#http.defaults.headers = {} as AxiosInstance["defaults"]["headers"];
    }

    /**
     * Makes service text safe for a message: every occurrence of this client's key, and credential
     * fields (another key's `api_key`, a new key's `key`) even in text that is not valid JSON.
     */
    redact = (text: string): string => redactor([this.#apiKey])(text);

    /** See `VastClient.serviceTime`. */
    serviceTime(localMs: number): number | undefined {
        return this.#serviceClockOffsetMs === undefined ? undefined : localMs + this.#serviceClockOffsetMs;
    }

    /** See `VastClient.writeMark`. */
    writeMark(): number | undefined {
        return this.#writesOnTheWay > 0 ? undefined : this.#writesSent;
    }

    async call<S extends z.ZodType>(endpoint: Endpoint, request: CallRequest, schema: S): Promise<z.infer<S>> {
        if (endpoint.method === "GET") return this.attempts(endpoint, request, schema);
        // Counted from before its turn in the pacer to its end, retries included: see `writeMark`.
        this.#writesSent++;
        this.#writesOnTheWay++;
        try {
            return await this.attempts(endpoint, request, schema);
        } finally {
            this.#writesOnTheWay--;
        }
    }

    private async attempts<S extends z.ZodType>(endpoint: Endpoint, request: CallRequest, schema: S): Promise<z.infer<S>> {
        const path = endpointPath(endpoint, request.params);
        const bucket = `${endpoint.method} ${endpoint.path} ${this.#keyHash}`;
        const intervalMs = endpoint.minIntervalMs * this.paceScale;
        const ctx = { operation: endpoint.operation, target: request.target };
        // Services echo requests in their errors: what was sent as a credential is blanked by value
        // too. Built when a message needs it, not for every call that succeeds.
        let redactSecrets: ((text: string) => string) | undefined;
        const redact = (text: string) => (redactSecrets ??= redactor([this.#apiKey, ...secretValuesIn(request.body)]))(text);

        const callStartedAt = Date.now();
        // Counted apart: see decideRetry.
        const failed = { rateLimited: 0, other: 0 };
        for (let attempt = 1; ; attempt++) {
            const leftAt = await this.pacer.wait(bucket, intervalMs);
            const started = Date.now();
            let error: VastError;
            try {
                const connection: ConnectionKind = endpoint.ownConnection || this.pacer.intervalOf(bucket, intervalMs) > 0 ? "own" : "kept";
                const response = await this.send(endpoint, path, request, connection);
                this.log?.(`${endpoint.method} ${path} -> ${response.status} in ${Date.now() - started} ms (try ${attempt})`);
                if (!isFailure(response) || namesWhatItCreated(endpoint, response)) return this.parse(endpoint, ctx, response, schema, redact);
                error = errorFromResponse({ ...response, ...ctx, scope: endpoint.scope, about: endpoint.about, goneCode: endpoint.goneCode, redact, hints: this.hints });
            } catch (e) {
                if (e instanceof VastUnexpectedResponseError) error = e;
                else if (e instanceof VastError) throw e;
                else {
                    const err = e as { code?: string; message?: string; syscall?: string; cause?: { syscall?: string } };
                    this.log?.(`${endpoint.method} ${path} -> ${err.code ?? "error"} in ${Date.now() - started} ms (try ${attempt})`);
                    error = errorFromNetwork(ctx, err.code, redact(String(err.message ?? e)), err.syscall ?? err.cause?.syscall, this.hints);
                }
            }

            if (error instanceof VastRateLimitError) {
                const floor = LEARNED_INTERVAL_FLOOR_MS * this.paceScale;
                const maxMs = Math.max(intervalMs, floor) * LEARNED_INTERVAL_MAX_FACTOR;
                this.pacer.penalize(bucket, { leftAt, intervalMs, floorMs: floor, maxMs, thresholdMs: error.thresholdMs });
            }
            const sort = error instanceof VastRateLimitError ? "rateLimited" : "other";
            const decision = decideRetry(error, ++failed[sort], endpoint.idempotent, this.retry, Date.now() - callStartedAt);
            if (!decision.retry) {
                if (decision.error instanceof VastOutcomeUnknownError) decision.error.sentAt = started;
                throw decision.error;
            }
            await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
        }
    }

    private async send(endpoint: Endpoint, path: string, request: CallRequest, connection: ConnectionKind): Promise<HttpResponse> {
        const reply = await this.#http.request<string>({
            method: endpoint.method,
            url: path,
            params: request.query,
            data: request.body === undefined ? undefined : JSON.stringify(request.body),
            ...this.#connections[connection],
            headers: {
                Authorization: `Bearer ${this.#apiKey}`,
                Accept: "application/json",
                ...(request.body === undefined ? {} : { "Content-Type": "application/json" }),
            },
        });
        const text = typeof reply.data === "string" ? reply.data : "";
        let body: unknown = text;
        try {
            body = text.trim() === "" ? undefined : JSON.parse(text);
        } catch {
            // Not JSON: 429s come as plain text. Whether that is acceptable is decided by the caller.
        }
        // HTTP dates are whole seconds: the offset reads up to a second (and the response's travel) low.
        const serviceDate = Date.parse(String(reply.headers["date"] ?? ""));
        if (!Number.isNaN(serviceDate)) this.#serviceClockOffsetMs = serviceDate - Date.now();
        const retryAfter = reply.headers["retry-after"];
        return { status: reply.status, body, retryAfterHeader: typeof retryAfter === "string" ? retryAfter : undefined };
    }

    /** The answer checked against its schema; an unreadable one is a `VastUnexpectedResponseError` for the retry policy. */
    private parse<S extends z.ZodType>(
        endpoint: Endpoint,
        ctx: { operation: string; target?: string },
        response: HttpResponse,
        schema: S,
        redact: (text: string) => string,
    ): z.infer<S> {
        // An empty 2xx body is read as `{}`: the schema then says which field is missing, if any.
        const body = response.body === undefined ? {} : response.body;
        const readable = (typeof body === "object" && body !== null) || (endpoint.respondsWithText && typeof body === "string");
        if (!readable) {
            // Responses that carry a credential are never quoted, however they are spoiled.
            const shown = endpoint.carriesCredentials ? "not shown: this answer may carry credentials or secret env values" : JSON.stringify(redact(String(response.body ?? "")).slice(0, 120));
            throw new VastUnexpectedResponseError(
                { ...ctx, status: response.status },
                `unexpected answer: HTTP ${response.status} body is not a JSON object (${shown})`,
            );
        }
        const parsed = safeParse(schema, body);
        if (parsed.success) return parsed.data;
        throw new VastUnexpectedResponseError(
            { ...ctx, status: response.status },
            `unexpected answer from ${endpoint.method} ${endpoint.path}: ${describeIssues(parsed.error, "(body)")}`,
        );
    }
}
