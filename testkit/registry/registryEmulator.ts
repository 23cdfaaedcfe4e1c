import { createHash, randomBytes } from "crypto";
import * as http from "http";
import { AddressInfo, Socket } from "net";

/**
 * A stand-in container registry on 127.0.0.1, speaking as much of the registry HTTP API v2 as
 * `docker manifest inspect` uses: `HEAD`/`GET /v2/<name>/manifests/<tag or digest>`, each refused
 * 401 with a Bearer challenge (`WWW-Authenticate: Bearer realm=…,service=…,scope=…`) until it
 * carries a token from `GET /token`. Public repositories get a token anonymously; a private one
 * only with its Basic credentials (an anonymous token answers 401 there, and for a repository it
 * does not have, as Docker Hub does). `silent` makes it take connections and never answer.
 * Requests are logged without their credentials or tokens.
 */
export interface RegistryRepository {
    tags: string[];
    /** Only these credentials get a token that pulls it. */
    login?: { user: string; password: string };
}

export interface RegistryRequest {
    method: string;
    path: string;
    query: Record<string, string>;
    /** Which credentials came, never their value. */
    authorization?: "basic" | "bearer";
    status?: number;
}

export const REGISTRY_SERVICE = "registry.test";

export class RegistryEmulator {
    readonly requests: RegistryRequest[] = [];
    /** Take connections and answer nothing: a registry that does not answer. */
    silent = false;
    /** `host:port`, as an image reference names it. */
    host = "";
    private readonly tokens = new Map<string, Set<string>>();
    private readonly server = http.createServer((req, res) => this.handle(req, res));
    private readonly sockets = new Set<Socket>();

    private constructor(readonly repositories: Record<string, RegistryRepository>) {}

    static async start(repositories: Record<string, RegistryRepository>): Promise<RegistryEmulator> {
        const registry = new RegistryEmulator(repositories);
        registry.server.on("connection", (socket: Socket) => {
            registry.sockets.add(socket);
            socket.unref();
            socket.on("close", () => registry.sockets.delete(socket));
        });
        await new Promise<void>((resolve, reject) => {
            registry.server.once("error", reject);
            registry.server.listen(0, "127.0.0.1", () => resolve());
        });
        registry.server.unref();
        registry.host = `127.0.0.1:${(registry.server.address() as AddressInfo).port}`;
        return registry;
    }

    /** `127.0.0.1:<port>/<repository>:<tag>`. */
    image(repository: string, tag: string): string {
        return `${this.host}/${repository}:${tag}`;
    }

    /** The manifest requests logged, with their method. */
    manifestRequests(): RegistryRequest[] {
        return this.requests.filter((r) => r.path.includes("/manifests/"));
    }

    async stop(): Promise<void> {
        for (const socket of this.sockets) socket.destroy();
        await new Promise<void>((resolve) => this.server.close(() => resolve()));
    }

    private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
        const url = new URL(req.url ?? "/", `http://${this.host}`);
        const header = req.headers.authorization ?? "";
        const entry: RegistryRequest = {
            method: req.method ?? "GET",
            path: url.pathname,
            query: Object.fromEntries(url.searchParams),
            authorization: header.startsWith("Basic ") ? "basic" : header.startsWith("Bearer ") ? "bearer" : undefined,
        };
        this.requests.push(entry);
        if (this.silent) return; // the socket stays open; the client's timeout ends it
        const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) => {
            entry.status = status;
            const text = JSON.stringify(body);
            res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
            res.end(req.method === "HEAD" ? undefined : text);
        };
        if (url.pathname === "/token") return this.token(url, header, answer);
        const m = /^\/v2\/(.+)\/manifests\/([^/]+)$/.exec(url.pathname);
        if (url.pathname === "/v2/" || m) {
            const repository = m?.[1];
            const granted = header.startsWith("Bearer ") ? this.tokens.get(header.slice(7)) : undefined;
            if (!granted || (repository !== undefined && !granted.has(repository))) {
                const scope = repository === undefined ? "" : `,scope="repository:${repository}:pull"`;
                const challenge = `Bearer realm="http://${this.host}/token",service="${REGISTRY_SERVICE}"${scope}`;
                return answer(401, errors("UNAUTHORIZED", "authentication required"), { "WWW-Authenticate": challenge });
            }
            if (!m) return answer(200);
            const repo = this.repositories[m[1]];
            const ref = m[2];
            const tag = repo?.tags.find((t) => t === ref || digestOf(m[1], t) === ref);
            if (!tag) return answer(404, errors("MANIFEST_UNKNOWN", "manifest unknown"));
            const manifest = { schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json", manifests: [] };
            return answer(200, manifest, { "Content-Type": manifest.mediaType, "Docker-Content-Digest": digestOf(m[1], tag) });
        }
        answer(404, errors("NOT_FOUND", "not found"));
    }

    /** A token for the scope's repository: pull granted when it is public, or private and the Basic credentials are its own. */
    private token(url: URL, header: string, answer: (status: number, body?: unknown) => void): void {
        const repository = /^repository:(.+):pull$/.exec(url.searchParams.get("scope") ?? "")?.[1];
        const repo = repository === undefined ? undefined : this.repositories[repository];
        let basic: { user: string; password: string } | undefined;
        if (header.startsWith("Basic ")) {
            const [user, ...rest] = Buffer.from(header.slice(6), "base64").toString("utf8").split(":");
            basic = { user, password: rest.join(":") };
            // A login the registry does not know is refused at the token, whatever the scope.
            const known = Object.values(this.repositories).some((r) => r.login && r.login.user === basic!.user && r.login.password === basic!.password);
            if (!known) return answer(401, errors("UNAUTHORIZED", "incorrect username or password"));
        }
        const pulls = repo !== undefined && repository !== undefined && (!repo.login || (basic?.user === repo.login.user && basic.password === repo.login.password));
        const token = randomBytes(16).toString("hex");
        this.tokens.set(token, new Set(pulls ? [repository!] : []));
        answer(200, { token, access_token: token, expires_in: 300 });
    }
}

function errors(code: string, message: string): unknown {
    return { errors: [{ code, message, detail: null }] };
}

/** A stable digest per repository and tag, as a registry names a manifest. */
export function digestOf(repository: string, tag: string): string {
    return `sha256:${createHash("sha256").update(`${repository}:${tag}`).digest("hex")}`;
}
