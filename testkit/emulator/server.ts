import * as http from "http";
import * as https from "https";
import { AddressInfo, Socket } from "net";
import * as zlib from "zlib";
import { EmuResponse, responseText, fail, invalidArgs, notFoundPage } from "./response";
import { authenticate, authorize } from "./auth";
import { responseAfter, responseInstead } from "./faultResponses";
import { FaultBook } from "./faults";
import { instanceView } from "./handlers/instances";
import { statusAt } from "./instanceStatus";
import { applyEdit } from "./handlers/templates";
import { volumeView } from "./handlers/offers";
import { EmulatorState, isObject, withoutNulls } from "./handlers/context";
import { EmuInstance, EmuKey, EmuOffer, EmuUser, EmuVolume, EmuVolumeOffer, EmulatorModel, OfferListing, OfferScript, Scopes, VolumeOfferOptions } from "./model";
import { EmulatorOptions, ResolvedOptions, resolveOptions } from "./options";
import { RateLimiter } from "./rateLimiter";
import { seedMarketplace } from "./marketplace";
import { findRoute } from "./routes";
import { autoscale } from "./autoscaler";

export type { EmulatorOptions } from "./options";

export interface LoggedRequest {
    at: number;
    method: string;
    path: string;
    query: Record<string, string>;
    body: unknown;
    /** The emulator's id of the key used, when it was a known one; never the key itself. */
    keyId?: number;
    route?: string;
    status?: number;
    fault?: string;
    /** Turned away by the rate limiter (not by an injected fault): the client sends the same call again. */
    rateLimited?: boolean;
    /** Which connection it came on, numbered from 1 as they open: a client that keeps connections sends several on one. */
    connection: number;
}

/**
 * A stand-in for the Vast.ai REST service on 127.0.0.1: the contract's paths and the live ones
 * from docs/live-service.md, scoped keys, per-endpoint rate limits, instance status that moves on a
 * clock, scriptable faults and a request log for tests.
 */
export class Emulator implements EmulatorState {
    readonly model = new EmulatorModel();
    readonly faults = new FaultBook();
    readonly requests: LoggedRequest[] = [];
    readonly rateLimiter: RateLimiter;
    readonly options: ResolvedOptions;
    /** A full-access account with machines and offers. */
    readonly demoUser: EmuUser;
    /** Another account, owning public templates the demo user can see. */
    readonly otherUser: EmuUser;
    url = "";

    private server?: http.Server;
    private sockets = new Set<Socket>();
    private connectionNumbers = new WeakMap<Socket, number>();
    private connectionCount = 0;

    constructor(options: EmulatorOptions = {}) {
        this.options = resolveOptions(options);
        this.rateLimiter = new RateLimiter(this.options.rateLimitScale, this.options.rateLimitNamesThreshold, this.options.rateLimitCountsRejections);
        this.demoUser = this.model.addUser({ email: "demo@example.com" });
        this.otherUser = this.model.addUser({ email: "other@example.com" });
        this.seed();
    }

    /** The demo account's full-access key. */
    get demoKey(): string {
        return this.demoUser.apiKey;
    }

    static async start(options: EmulatorOptions = {}): Promise<Emulator> {
        const emu = new Emulator(options);
        await emu.listen(options.port ?? 0);
        return emu;
    }

    async listen(port: number): Promise<void> {
        const handler: http.RequestListener = (req, res) => void this.handle(req, res);
        const tls = this.options.tls;
        const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
        server.keepAliveTimeout = this.options.keepAliveTimeoutMs;
        server.on("connection", (socket: Socket) => {
            this.sockets.add(socket);
            // A kept connection left open by a client must not keep a test process alive.
            if (!this.options.keepProcessAlive) socket.unref();
            socket.on("close", () => this.sockets.delete(socket));
        });
        // Numbered as requests see them: over https, the TLS socket on the TCP one.
        server.on(tls ? "secureConnection" : "connection", (socket: Socket) => this.connectionNumbers.set(socket, ++this.connectionCount));
        await new Promise<void>((resolve, reject) => {
            server.once("error", reject);
            server.listen(port, "127.0.0.1", () => resolve());
        });
        if (!this.options.keepProcessAlive) server.unref();
        this.server = server;
        this.url = `${tls ? "https" : "http"}://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }

    async stop(): Promise<void> {
        const server = this.server;
        if (!server) return;
        this.server = undefined;
        for (const socket of this.sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
    }

    // ---- for tests: shaping the world ---------------------------------------------------------

    /** A new key for the demo user (or `userId`); scoped when `permissions` is given. */
    createKey(permissions?: Scopes, userId = this.demoUser.id): EmuKey {
        return this.model.addKey(userId, "test key", permissions);
    }

    revokeKey(key: string, response: 401 | 404 = this.options.revokedKeyStatus): void {
        const record = this.model.keys.get(key);
        if (record) record.revokedStatus = response;
    }

    /**
     * An offer on one of the demo user's machines, ending in `script.status` (default running). Given
     * a list, successive instances on the offer take successive scripts, the last one for the rest:
     * `[{ status: "exited" }, { status: "running" }]` fails once, then starts. `listing` sets what a
     * search shows of it (GPU, count, reliability, `verified`...); the rest follows its machine.
     */
    addOffer(
        script: OfferScript | OfferScript[] = { status: "running" },
        dphTotal?: number,
        machineId?: number,
        listing?: Partial<OfferListing>,
    ): EmuOffer {
        const scripts = Array.isArray(script) ? script : [script];
        return this.model.addOffer({ script: scripts[scripts.length - 1], upcoming: scripts.slice(0, -1), dphTotal, machineId, listing });
    }

    /** An edit made outside Pulumi, as in the web console: new fields, new hash. */
    consoleEditTemplate(templateId: number, changes: Record<string, unknown>): void {
        const template = this.model.templates.get(templateId);
        if (!template) throw new Error(`no template ${templateId}`);
        applyEdit(template, changes, Date.now());
    }

    /**
     * A freeze from the web console: the instance paused with its memory kept, its GPUs still billed
     * (`actual_status` and `intended_status` `frozen`; with `intendedShown`, `intended_status` says
     * that instead: which of the two the live service sets is not documented).
     */
    consoleFreezeInstance(id: number, options: { intendedShown?: string } = {}): void {
        const instance = this.model.instances.get(id);
        if (!instance || instance.destroyed) throw new Error(`no live instance ${id}`);
        instance.stateChange = { to: "frozen", at: Date.now(), from: statusAt(instance, Date.now(), this.options.instanceTimings), ...options };
    }

    /**
     * The container of a running instance ends on its own, as a crashed worker's does: it reads
     * `exited` from now on (the autoscaler then releases and replaces a serverless worker).
     */
    exitInstance(id: number, statusMsg = "Container exited with code 1"): void {
        const instance = this.model.instances.get(id);
        if (!instance || instance.destroyed) throw new Error(`no live instance ${id}`);
        instance.script = { status: "exited", statusMsg };
    }

    /** One pass of the serverless autoscaler now (it also runs before every request). */
    autoscale(): void {
        autoscale(this, Date.now());
    }

    /** Instances not destroyed, of the demo user unless told otherwise. */
    liveInstances(userId = this.demoUser.id): EmuInstance[] {
        return [...this.model.instances.values()].filter((i) => !i.destroyed && i.ownerId === userId);
    }

    /**
     * A volume offer: local, on `machineId` (default the first machine, the demo user's, where
     * `addOffer`'s offers are too), or with `network: true` a network volume offer on a storage
     * cluster (`clusterId`, default a new one). `diskSpace` GB in all (default 500), `storageCost`
     * USD/GB/month (default the machine's listed volume price); the rest of what a search shows
     * (`geolocation`, `verified`, `reliability`...) follows the machine unless given.
     */
    addVolumeOffer(options: VolumeOfferOptions = {}): EmuVolumeOffer {
        return this.model.addVolumeOffer(options);
    }

    /** Volumes not deleted, of the demo user unless told otherwise, in id order. */
    liveVolumes(userId = this.demoUser.id): EmuVolume[] {
        return [...this.model.volumes.values()].filter((v) => !v.deleted && v.ownerId === userId).sort((a, b) => a.id - b.id);
    }

    /** A volume as the listing shows it (deleted ones too). */
    volumeView(id: number): Record<string, unknown> | undefined {
        const volume = this.model.volumes.get(id);
        return volume && volumeView(volume, this.model.volumeOffers.get(volume.offerId), this.model.volumeUsers(id));
    }

    instanceView(id: number): Record<string, unknown> | undefined {
        const instance = this.model.instances.get(id);
        return instance && instanceView(instance, Date.now(), this.options.instanceTimings);
    }

    /**
     * Logged requests with this method whose path matches, but for those the rate limiter turned
     * away: a client sends those again, and at test speed a busy machine can squeeze any interval.
     */
    requestsTo(method: string, path: string | RegExp): LoggedRequest[] {
        return this.requests.filter(
            (r) => !r.rateLimited && r.method === method && (typeof path === "string" ? r.path.replace(/\/$/, "") === path.replace(/\/$/, "") : path.test(r.path)),
        );
    }

    clearLog(): void {
        this.requests.length = 0;
    }

    // ---- the service -------------------------------------------------------------------------

    private seed(): void {
        const m1 = this.model.addMachine(this.demoUser.id);
        this.model.addMachine(this.demoUser.id, {
            gpu_name: "A100 SXM4",
            gpu_ram: 80 * 1024 ** 3,
            num_gpus: 8,
            gpu_occupancy: "D D R R I I x x",
            timeout: 3600,
            hosting_type: 0,
            listed: false,
        });
        for (let i = 0; i < 3; i++) this.model.addOffer({ machineId: m1.id });
        seedMarketplace(this.model, this.model.addUser({ email: "host@example.com" }).id);
        this.model.addTemplate(this.otherUser.id, {
            name: "PyTorch (public)",
            image: "pytorch/pytorch",
            tag: "2.3.0-cuda12.1-cudnn8-runtime",
            env: "-p 8888:8888 -e JUPYTER_TOKEN=changeme",
            runtype: "jupyter",
            recommended_disk_space: 32,
            private: false,
            docker_login_repo: "",
            docker_login_user: "",
            docker_login_pass: "",
        }, { recommended: true, count_created: 1200 });
        this.model.addTemplate(this.otherUser.id, {
            name: "someone else's private template",
            image: "secret/image",
            tag: "latest",
            private: true,
            docker_login_repo: "",
            docker_login_user: "",
            docker_login_pass: "",
        });
    }

    private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
        const url = new URL(req.url ?? "/", "http://emulator");
        const method = req.method ?? "GET";
        const raw = await readBody(req);
        const entry: LoggedRequest = {
            at: Date.now(),
            method,
            path: url.pathname,
            connection: this.connectionNumbers.get(req.socket) ?? 0,
            // The vendor clients also put the key in the query (`api_key`): never kept in the log.
            query: Object.fromEntries([...url.searchParams].map(([k, v]) => [k, k === "api_key" ? "<redacted>" : v])),
            body: undefined,
        };
        this.requests.push(entry);
        await this.travel();
        // Taken before anything else, so a scripted position counts every request.
        const fault = this.faults.take(method, url.pathname);
        if (fault) entry.fault = fault.kind;

        let body: unknown;
        let bodyIsJson = true;
        if (raw.trim() !== "") {
            try {
                body = JSON.parse(raw);
            } catch {
                bodyIsJson = false;
            }
        }
        // The vendor CLI puts the key in some bodies too (`show endpoints`, `get endpt-logs`).
        entry.body = isObject(body) && "api_key" in body ? { ...body, api_key: "<redacted>" } : body;

        // Faults where the service never acts on the request.
        switch (fault?.kind) {
            case "reset":
                return this.hangUp(req, entry);
            case "timeout":
                if (!fault.acted) return this.hold(req, entry, fault.holdMs);
                break;
            case "slow":
                // Unref'd, as a held request's timer: a slow answer still pending keeps no test process alive.
                await new Promise((resolve) => setTimeout(resolve, fault.delayMs).unref());
                break;
            default: {
                const instead = fault && responseInstead(fault, raw, bodyIsJson ? body : raw);
                if (instead) return this.send(res, entry, instead);
            }
        }

        const response = bodyIsJson
            ? this.dispatch(method, url, body, req.headers.authorization, entry)
            : invalidArgs("body is not valid JSON");

        // Faults where it acted, and its response is lost or spoiled.
        if (fault?.kind === "timeout") return this.hold(req, entry, fault.holdMs);
        if (fault?.kind === "lostResponse" && fault.twice) this.twinCreated(response, entry);
        if (fault?.kind === "lostResponse" && !fault.status) return this.hangUp(req, entry);
        if (fault?.kind === "lateResponse") await new Promise((resolve) => setTimeout(resolve, fault.delayMs).unref());
        await this.travel();
        this.send(res, entry, responseAfter(fault, response));
    }

    /**
     * What a create's `response` made, made once more (see the `lostResponse` fault's `twice`): an
     * instance, on another offer of its machine; or a volume, the same on the same offer while it
     * fits there (a create that would not fit would have been refused).
     */
    private twinCreated(response: EmuResponse, entry: LoggedRequest): void {
        if (entry.route === "volume-create" || entry.route === "network-volume-create") return this.twinVolume(response, entry);
        const made = this.model.instances.get((response.body as { new_contract?: number })?.new_contract ?? NaN);
        if (!made) return;
        const offer = this.model.addOffer({ machineId: made.machineId });
        offer.freeAt = Infinity;
        const twin = { ...structuredClone(made), id: this.model.newInstanceId(), offerId: offer.id, createdAt: made.createdAt + 1 };
        this.model.instances.set(twin.id, twin);
    }

    private twinVolume(response: EmuResponse, entry: LoggedRequest): void {
        if (response.status !== 200) return;
        const name = (response.body as { volume_name?: unknown })?.volume_name;
        const ownerId = entry.keyId === undefined ? undefined : this.model.findKeyById(entry.keyId)?.userId;
        // The newest of that name is the one this create made: ids only grow, and nothing ran between.
        const made = [...this.model.volumes.values()].filter((v) => !v.deleted && v.name === name && v.ownerId === ownerId).pop();
        const offer = made && this.model.volumeOffers.get(made.offerId);
        if (!made || !offer || this.model.volumeOfferFree(offer) < made.size) return;
        const { id: _id, deleted: _deleted, ...fields } = made;
        this.model.addVolume({ ...fields, createdAt: made.createdAt + 1 });
    }

    /** Half of `latencyMs`: a request on its way in, or a response on its way out. */
    private async travel(): Promise<void> {
        if (this.options.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.options.latencyMs / 2));
    }

    /** Reset the connection (TCP RST) without answering. */
    private hangUp(req: http.IncomingMessage, entry: LoggedRequest): void {
        entry.status = 0;
        // Over https the request's socket is TLS, over the TCP socket Node keeps as `_parent`.
        const tcp = ((req.socket as Socket & { _parent?: Socket })._parent ?? req.socket) as Socket;
        try {
            tcp.resetAndDestroy();
        } catch {
            req.socket.destroy();
        }
    }

    /**
     * Never answer: keep the connection open until the client gives up or `holdMs` passes. The
     * timer is unref'd and `stop()` destroys every socket, so a held one keeps no test alive.
     */
    private hold(req: http.IncomingMessage, entry: LoggedRequest, holdMs = 30000): void {
        entry.status = 0;
        const socket = req.socket;
        const timer = setTimeout(() => socket.destroy(), holdMs);
        timer.unref();
        socket.once("close", () => clearTimeout(timer));
    }

    private dispatch(method: string, url: URL, body: unknown, authorization: string | undefined, entry: LoggedRequest): EmuResponse {
        const found = findRoute(method, url.pathname);
        // No such path: the web server's page, not the API's JSON (that is for a missing resource).
        if (found === undefined) return notFoundPage();
        if (found === "wrong-method") return fail(405, "method_not_allowed", `${method} is not allowed on ${url.pathname}`);
        const { route, params } = found;
        entry.route = route.name;
        // The engine acts on the emulator's clock: whatever was due happens before the request is seen.
        autoscale(this, Date.now());
        const interval = this.options.intervalOverrides[route.name] ?? route.intervalMs;
        // The live service reads a field sent as null as not set; its own clients send every unset field so.
        const context = { emu: this, params, query: url.searchParams, body: withoutNulls(body), now: Date.now() };
        if ("public" in route) return this.rateLimiter.check(`${route.name} anonymous`, interval) ?? route.handler(context);

        const caller = authenticate(authorization, this.model, url.searchParams.get("api_key"));
        if ("status" in caller) return caller;
        entry.keyId = caller.key.id;
        const refused = authorize(caller, route.scope, this.options.scopeRefusalStatus);
        if (refused) return refused;

        const limited = this.rateLimiter.check(`${route.name} ${caller.key.id}`, interval);
        if (limited) {
            entry.rateLimited = true;
            return limited;
        }

        return route.handler({ ...context, caller });
    }

    private send(res: http.ServerResponse, entry: LoggedRequest, response: EmuResponse): void {
        entry.status = response.status;
        if (res.destroyed || res.writableEnded) return;
        const text = Buffer.from(responseText(response));
        // As the web servers in front of APIs do: a longer answer goes gzipped to a client that takes it.
        const gzip = text.length >= GZIP_FROM_BYTES && /\bgzip\b/.test(String(res.req.headers["accept-encoding"] ?? ""));
        const sent = gzip ? zlib.gzipSync(text) : text;
        res.writeHead(response.status, {
            "Content-Type": response.contentType ?? (response.text ? "text/plain; charset=utf-8" : "application/json"),
            "Content-Length": sent.length,
            ...(gzip ? { "Content-Encoding": "gzip" } : {}),
            ...response.headers,
        });
        res.end(sent);
    }
}

/** Responses this long or longer are gzipped for a client whose `Accept-Encoding` names gzip. */
const GZIP_FROM_BYTES = 1024;

function readBody(req: http.IncomingMessage): Promise<string> {
    return new Promise((resolve) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        req.on("error", () => resolve(""));
    });
}
