import * as http from "http";
import * as https from "https";
import * as net from "net";
import type { Duplex } from "stream";
import * as tls from "tls";
import { PROXY_AUTH_REQUIRED, PROXY_TUNNEL_FAILED } from "./errorClassification";
import { isOkStatus } from "./errors";
import { EgressProxy, proxyAddress } from "./proxy";

/**
 * An https agent whose connections go through a tunnel of an egress proxy (`HTTPS_PROXY`): each
 * opens with `CONNECT host:port` to the proxy, and TLS to the service is spoken inside it, so the
 * proxy sees the service's name and port and nothing else (not the API key, not a body). Pooling,
 * keep-alive and idle handling are the https agent's own, as for a direct connection.
 *
 * Until the tunnel is up no byte of the request has left: every failure up to then (the proxy
 * unreachable, closing, or answering CONNECT with anything but 2xx) has the code
 * `PROXY_TUNNEL_FAILED`, read as not sent (errorClassification.ts); a 407 has `PROXY_AUTH_REQUIRED`,
 * not sent and final, since no retry brings the credentials. Its message names the proxy by host and
 * port, never by the credentials its URL may carry.
 */
export class TunnelAgent extends https.Agent {
    readonly #proxy: EgressProxy;
    readonly #connectTimeoutMs: number;

    /** `connectTimeoutMs`: how long the proxy may take to open the tunnel, shorter than a call's timeout (transport.ts). */
    constructor(proxy: EgressProxy, connectTimeoutMs: number, options: https.AgentOptions) {
        super(options);
        this.#proxy = proxy;
        this.#connectTimeoutMs = connectTimeoutMs;
    }

    // Node's agent takes a connection given to the callback (and none returned), as its docs say.
    override createConnection(options: tls.ConnectionOptions, done: (error: Error | null, socket?: Duplex) => void): undefined {
        const host = options.host ?? "localhost";
        const target = `${net.isIPv6(host) ? `[${host}]` : host}:${options.port ?? 443}`;
        const proxy = this.#proxy;
        const tunnelFailed = (why: string, cause?: unknown, code = PROXY_TUNNEL_FAILED) =>
            Object.assign(new Error(`no tunnel to ${target} through the proxy ${proxyAddress(proxy)} (HTTPS_PROXY): ${why}`, { cause }), { code });
        let settled = false;
        let limit: NodeJS.Timeout | undefined;
        const settle = (error: Error | null, socket?: Duplex) => {
            clearTimeout(limit);
            if (settled) return;
            settled = true;
            done(error, socket);
        };

        const connect = http.request({
            host: proxy.host,
            port: proxy.port,
            method: "CONNECT",
            path: target,
            agent: false,
            headers: { Host: target, ...(proxy.authorization ? { "Proxy-Authorization": proxy.authorization } : {}) },
        });
        connect.once("connect", (response, socket, head) => {
            const status = response.statusCode ?? 0;
            if (!isOkStatus(status)) {
                socket.destroy();
                // Node's name for the status, not the proxy's words, which could quote what it was sent.
                const named = `${status} ${http.STATUS_CODES[status] ?? ""}`.trimEnd();
                if (status === 407) {
                    const given = proxy.authorization ? "the user and password HTTPS_PROXY gives are refused" : "HTTPS_PROXY gives no user and password";
                    const how = "give the proxy's in HTTPS_PROXY as http://user:password@host:port, each URL-encoded";
                    return settle(tunnelFailed(`it answered CONNECT with ${named}: ${given}; ${how}`, undefined, PROXY_AUTH_REQUIRED));
                }
                return settle(tunnelFailed(`it answered CONNECT with ${named}`));
            }
            // A proxy sends nothing of the tunnel before the client's first TLS bytes; kept if one does.
            if (head.length > 0) socket.unshift(head);
            const servername = options.servername || (net.isIP(host) ? undefined : host);
            settle(null, tls.connect({ ...options, socket, servername }));
        });
        // A wall clock, not the socket's idle time: a proxy that trickles bytes never lets an idle
        // timer fire. Shorter than the call's timeout, so a silent proxy fails the call as not sent
        // (a create is tried again) rather than as a call whose response never came.
        limit = setTimeout(() => connect.destroy(new Error(`no answer to CONNECT within ${this.#connectTimeoutMs} ms`)), this.#connectTimeoutMs);
        connect.once("error", (e) => settle(tunnelFailed(e.message, e)));
        connect.end();
        return undefined;
    }
}
