import * as http from "http";
import * as https from "https";
import * as zlib from "zlib";
import axios, { AxiosAdapter, AxiosError, AxiosResponse } from "axios";

/**
 * The client's axios adapter: one request over Node's `http`/`https` with the agent, body, headers
 * and timeout axios hands it, and the response's text back. Axios' own Node adapter also follows
 * redirects, goes through proxies, streams uploads and downloads, limits rates and sizes: the
 * transport needs none of it (a string body, a text response), and wants no redirect followed (it
 * could carry the key elsewhere; the API uses none) and no proxy of axios' (an egress proxy,
 * `HTTPS_PROXY`, is the https agent's: tunnel.ts). That general machinery cost every `pulumi up`
 * a few ms the first time in each provider process and a little on every call after: at 20
 * instances, 2–5 % of the whole run (`npm run bench`).
 *
 * What the transport reads from a failure is kept as axios' adapter gives it (transport.ts,
 * `errorFromNetwork`): Node's own error with its `code` and `syscall` (ECONNREFUSED before
 * anything was sent, ECONNRESET after), `ECONNABORTED` for a timeout, `ERR_BAD_RESPONSE` for an
 * answer cut off or not decodable. Responses are asked for compressed (as axios did) and undone here.
 */
export const httpAdapter: AxiosAdapter = (config) =>
    new Promise<AxiosResponse<string>>((resolve, reject) => {
        const url = new URL(axios.getUri(config));
        const secure = url.protocol === "https:";
        const body = typeof config.data === "string" ? Buffer.from(config.data) : undefined;
        const headers: http.OutgoingHttpHeaders = {
            ...config.headers.toJSON(true),
            "Accept-Encoding": "gzip, deflate, br",
            "User-Agent": USER_AGENT,
            ...(body ? { "Content-Length": body.length } : {}),
        };
        let settled = false;
        let headersTimer: NodeJS.Timeout | undefined;
        const fail = (error: AxiosError) => {
            clearTimeout(headersTimer);
            if (settled) return;
            settled = true;
            reject(error);
        };
        const request = (secure ? https : http).request(
            url,
            { method: config.method?.toUpperCase(), headers, agent: secure ? config.httpsAgent : config.httpAgent },
            (response) => {
                clearTimeout(headersTimer);
                const chunks: Buffer[] = [];
                response.on("data", (chunk: Buffer) => chunks.push(chunk));
                response.on("aborted", () => fail(new AxiosError("stream has been aborted", AxiosError.ERR_BAD_RESPONSE, config, request)));
                response.on("error", (e) => fail(AxiosError.from(e, undefined, config, request)));
                // Closed before its end, with neither event above: never left waiting.
                response.on("close", () => response.complete || fail(new AxiosError("stream has been aborted", AxiosError.ERR_BAD_RESPONSE, config, request)));
                response.on("end", () => {
                    if (settled) return;
                    let text: string;
                    try {
                        // A byte-order mark is not part of the JSON (axios dropped it too).
                        text = decoded(Buffer.concat(chunks), response.headers["content-encoding"]).toString("utf8").replace(/^\uFEFF/, "");
                    } catch (e) {
                        return fail(AxiosError.from(e as Error, AxiosError.ERR_BAD_RESPONSE, config, request));
                    }
                    settled = true;
                    resolve({ data: text, status: response.statusCode ?? 0, statusText: response.statusMessage ?? "", headers: response.headers, config, request });
                });
            },
        );
        request.on("error", (e) => fail(AxiosError.from(e, undefined, config, request)));
        if (config.timeout && config.timeout > 0) {
            // As axios' own adapter: a wall clock until the response's headers (Node's socket timeout
            // may not fire while a connect hangs), and the socket's idle time throughout.
            const timedOut = () => {
                fail(new AxiosError(`timeout of ${config.timeout}ms exceeded`, AxiosError.ECONNABORTED, config, request));
                request.destroy();
            };
            headersTimer = setTimeout(timedOut, config.timeout);
            request.setTimeout(config.timeout, timedOut);
        }
        request.end(body);
    });

/** A response's body as sent, undone from the encoding its `Content-Encoding` names. */
function decoded(raw: Buffer, encoding: string | undefined): Buffer {
    if (raw.length === 0) return raw;
    switch (encoding?.trim().toLowerCase()) {
        case "gzip":
        case "x-gzip":
            // A stream cut short throws (it is not read as the part that came), as deflate and br do.
            return zlib.gunzipSync(raw);
        case "deflate":
            // Servers differ: zlib-wrapped (as the RFC says) or raw deflate.
            return raw[0] === 0x78 ? zlib.inflateSync(raw) : zlib.inflateRawSync(raw);
        case "br":
            return zlib.brotliDecompressSync(raw);
        default:
            return raw;
    }
}

const USER_AGENT = `pulumi-vastai (node ${process.version})`;
