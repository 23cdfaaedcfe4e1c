import * as http from "http";
import { AddressInfo, Socket, connect } from "net";

/** What the proxy saw of one CONNECT: its target (`host:port`) and headers. */
export interface SeenConnect {
    target: string;
    headers: http.IncomingHttpHeaders;
}

export interface ConnectProxyOptions {
    /** Demand these credentials (Basic), answering 407 without them. */
    credentials?: { user: string; password: string };
}

/**
 * A tiny egress proxy on 127.0.0.1 for the client's tests: it answers CONNECT only, records each
 * (target and headers) and every byte the client sent through its tunnels, can demand Basic
 * credentials and can refuse every tunnel with a status; a reset of the service's connection is
 * passed on as a reset. It stands in for the proxy's DNS too:
 * every tunnel goes to this machine, at the port the CONNECT names, whatever the host.
 */
export class ConnectProxy {
    readonly connects: SeenConnect[] = [];
    /** What clients wrote into tunnels; for a TLS tunnel, nothing readable. */
    readonly tunnelled: Buffer[] = [];
    /** Answer every CONNECT with this status instead of opening the tunnel. */
    refuseWith?: number;
    url = "";
    private refused = 0;
    private readonly server = http.createServer((_req, res) => res.writeHead(405).end());
    private readonly sockets = new Set<Socket>();

    private constructor(private readonly options: ConnectProxyOptions) {}

    static async start(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
        const proxy = new ConnectProxy(options);
        await proxy.listen();
        return proxy;
    }

    /** The tunnels opened so far (CONNECTs answered 200). */
    get tunnels(): number {
        return this.connects.length - this.refused;
    }

    private async listen(): Promise<void> {
        this.server.on("connect", (req: http.IncomingMessage, client: Socket, head: Buffer) => {
            this.track(client);
            const target = req.url ?? "";
            this.connects.push({ target, headers: req.headers });
            const status = this.refuseWith ?? (this.authorized(req.headers) ? undefined : 407);
            if (status !== undefined) {
                this.refused++;
                const challenge = status === 407 ? 'Proxy-Authenticate: Basic realm="test"\r\n' : "";
                client.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ""}\r\n${challenge}Content-Length: 0\r\n\r\n`);
                return;
            }
            const upstream = this.track(connect(Number(target.slice(target.lastIndexOf(":") + 1)), "127.0.0.1"));
            let tunnelOpen = false;
            upstream.once("connect", () => {
                tunnelOpen = true;
                client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
                client.on("data", (chunk: Buffer) => this.tunnelled.push(chunk));
                if (head.length > 0) this.tunnelled.push(head);
                upstream.write(head);
                client.pipe(upstream).pipe(client);
            });
            // A 502 only while no tunnel is open; inside one, a response of the proxy's own would
            // land in the middle of the client's TLS: the reset is passed on, as a proxy does.
            upstream.once("error", () => (tunnelOpen ? client.resetAndDestroy() : client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")));
            client.once("error", () => upstream.destroy());
            client.once("close", () => upstream.destroy());
            upstream.once("close", () => client.destroy());
        });
        await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
        this.server.unref();
        this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    }

    private authorized(headers: http.IncomingHttpHeaders): boolean {
        const wanted = this.options.credentials;
        if (!wanted) return true;
        return headers["proxy-authorization"] === `Basic ${Buffer.from(`${wanted.user}:${wanted.password}`).toString("base64")}`;
    }

    /** Left open by a client or not, a socket keeps no test process alive, and `stop` ends it. */
    private track(socket: Socket): Socket {
        this.sockets.add(socket);
        socket.unref();
        socket.once("close", () => this.sockets.delete(socket));
        return socket;
    }

    async stop(): Promise<void> {
        for (const socket of this.sockets) socket.destroy();
        await new Promise<void>((resolve) => this.server.close(() => resolve()));
    }
}
