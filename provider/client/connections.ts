import * as http from "http";
import * as https from "https";
import type { Socket } from "net";
import type { EgressProxy } from "./proxy";
import { TunnelAgent } from "./tunnel";

/**
 * Which connection a call goes on. A call keeps its connection open for the next one: over TLS
 * that saves two round trips a call. A kept connection the service has just closed fails the call
 * as a reset, handled as any reset (retryPolicy.ts): a repeatable call is sent again, and a
 * template write or instance create whose outcome is unknown is settled by looking for what it
 * made. Two kinds of call open a connection of their own instead:
 * - endpoints marked `ownConnection` (API key and SSH key creates), whose lost response costs more
 *   than a connection's round trips;
 * - calls in a paced bucket. The pacer spaces calls by when they leave, the service by when they
 *   arrive, and a call that opens a connection arrives two round trips later than one on a kept
 *   connection: after one that opened a connection, a call on a kept one could arrive sooner
 *   than the interval. In a bucket whose calls all open their own, arrivals keep their spacing.
 * Every route the live service has is paced (endpoints.ts), so against it every call opens its
 * own; kept connections serve a client whose pace is scaled to nothing (the emulator at speed).
 */
export type ConnectionKind = "kept" | "own";

/** How long a kept connection may stay idle, ms; less than the 5 s that common servers keep one. */
export const KEPT_CONNECTION_IDLE_MS = 4000;

/** Node lets a kept connection go this long before the time the server's Keep-Alive hint names. */
const HINT_MARGIN_MS = 1000;

/** How a client's https connections are made. */
export interface HttpsRoute {
    /** The egress proxy they tunnel through (proxy.ts), if any: a kept connection is a kept tunnel, an own one a tunnel of its own. */
    proxy?: EgressProxy;
    /** How long a proxy may take to answer CONNECT, ms. */
    proxyTimeoutMs: number;
    /** The certificates the service's must chain to, instead of Node's own list: for tests only. */
    ca?: string;
}

/** Per kind, the agents axios is given (`httpAgent`, `httpsAgent`); one set per client. */
export function connectionAgents(route: HttpsRoute): Record<ConnectionKind, { httpAgent: http.Agent; httpsAgent: https.Agent }> {
    const kept = { keepAlive: true, scheduling: "lifo" as const };
    const own = { keepAlive: false };
    const { proxy, ca } = route;
    const httpsAgent = (options: https.AgentOptions) =>
        proxy ? new TunnelAgent(proxy, route.proxyTimeoutMs, { ...options, ca }) : new https.Agent({ ...options, ca });
    return {
        kept: { httpAgent: idleAtMost(new http.Agent(kept)), httpsAgent: idleAtMost(httpsAgent(kept)) },
        own: { httpAgent: new http.Agent(own), httpsAgent: httpsAgent(own) },
    };
}

/** What Node's agent is, untyped in @types/node: `keepSocketAlive` answers whether the socket may be kept. */
type KeepSocketAlive = (socket: Socket) => boolean;

/**
 * Lets a kept connection go once it has been idle `KEPT_CONNECTION_IDLE_MS`, or sooner when the
 * server's `Keep-Alive: timeout=N` hint says it closes sooner. Not the agent's `timeout` option:
 * Node applies that from the socket's creation, so it would also cut a slow connect short, and a
 * call cut short there reads as sent, its outcome unknown.
 */
function idleAtMost<A extends http.Agent>(agent: A): A {
    const nodeKeep = (agent.keepSocketAlive as unknown as KeepSocketAlive).bind(agent);
    const keep: KeepSocketAlive = (socket) => {
        // Node's part: the idle socket is unref'd (it keeps no process alive), and refused when the hint is too short.
        if (!nodeKeep(socket)) return false;
        const response = (socket as Socket & { _httpMessage?: { res?: http.IncomingMessage } })._httpMessage?.res;
        const hint = /^timeout=(\d+)/.exec(String(response?.headers["keep-alive"] ?? ""))?.[1];
        socket.setTimeout(Math.min(KEPT_CONNECTION_IDLE_MS, hint === undefined ? Infinity : Number(hint) * 1000 - HINT_MARGIN_MS));
        return true;
    };
    (agent as unknown as { keepSocketAlive: KeepSocketAlive }).keepSocketAlive = keep;
    return agent;
}
