import * as net from "net";
import { VastConfigError, VastNetworkError, VastOutcomeUnknownError } from "../../provider/client/errors";
import { VastClient, VastClientOptions } from "../../provider/client/vastClient";
import { Emulator } from "../../testkit/emulator/server";
import { ConnectProxy } from "../../testkit/proxy/connectProxy";
import { selfSignedCert } from "../../testkit/tls/selfSignedCert";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";

/**
 * The client behind an egress proxy (HTTPS_PROXY): the emulator served over https on loopback, a
 * CONNECT proxy in front of it, and the service named `vast.test` (loopback addresses are never
 * proxied; the proxy takes every name to this machine). What the proxy may see, how tunnels follow
 * the connection kinds, and whether a failure before the tunnel reads as not sent.
 */
const tls = selfSignedCert();
const TEMPLATES = "/api/v0/template/";
const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIProxyTestKey00000000000000000000000000000 proxy@test";

let emu: Emulator;
let proxy: ConnectProxy;
beforeEach(async () => {
    emu = await startEmulator({ tls });
    proxy = await ConnectProxy.start();
});
afterEach(async () => {
    await proxy.stop();
    await emu.stop();
});

const port = () => new URL(emu.url).port;

/** A client for the emulator by its name, trusting its certificate, through `proxy` unless told otherwise. */
function behindProxy(options: Partial<VastClientOptions> = {}): VastClient {
    return clientFor(emu, { baseUrl: `https://vast.test:${port()}`, ca: tls.cert, proxy: { url: proxy.url }, ...options });
}

async function failureOf(call: Promise<unknown>): Promise<VastNetworkError> {
    const error = await call.then(
        () => undefined,
        (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VastNetworkError);
    return error as VastNetworkError;
}

describe("the client behind an egress proxy", () => {
    it("goes through a CONNECT tunnel: the proxy sees the service's name and port, never the key or the request", async () => {
        const vast = behindProxy();
        await expect(vast.templates.search({ name: { eq: "proxied" } })).resolves.toBeDefined();

        expect(proxy.connects).toEqual([{ target: `vast.test:${port()}`, headers: expect.objectContaining({ host: `vast.test:${port()}` }) }]);
        expect(proxy.connects[0].headers).not.toHaveProperty("authorization");
        expect(proxy.connects[0].headers).not.toHaveProperty("proxy-authorization");
        const tunnelled = Buffer.concat(proxy.tunnelled).toString("latin1");
        expect(tunnelled.length).toBeGreaterThan(0);
        for (const clear of [emu.demoKey, "Bearer", "Authorization", TEMPLATES, "proxied"]) expect(tunnelled).not.toContain(clear);
        expect(emu.requestsTo("GET", TEMPLATES)).toHaveLength(1);
    });

    it("kept connections keep one tunnel over several calls; a call on its own connection opens a tunnel of its own", async () => {
        const vast = behindProxy();
        for (let i = 0; i < 3; i++) await vast.templates.search({});
        expect(proxy.tunnels).toBe(1);
        expect(new Set(emu.requestsTo("GET", TEMPLATES).map((r) => r.connection)).size).toBe(1);

        await vast.sshKeys.create(PUBLIC_KEY);
        await vast.templates.search({});
        expect(proxy.tunnels).toBe(2);
        const [created] = emu.requestsTo("POST", "/api/v0/ssh/");
        expect(emu.requests.filter((r) => r.connection === created.connection)).toHaveLength(1);
    });

    it("sends the URL's credentials, undone from URL encoding, as the CONNECT's Basic authorization", async () => {
        await proxy.stop();
        proxy = await ConnectProxy.start({ credentials: { user: "corp\\jo", password: "p@ss:w/rd" } });
        const url = proxy.url.replace("http://", "http://corp%5Cjo:p%40ss%3Aw%2Frd@");
        await expect(behindProxy({ proxy: { url } }).templates.search({})).resolves.toBeDefined();
        expect(proxy.connects[0].headers["proxy-authorization"]).toBe(`Basic ${Buffer.from("corp\\jo:p@ss:w/rd").toString("base64")}`);
        expect(Buffer.concat(proxy.tunnelled).toString("latin1")).not.toContain("p@ss");
    });

    it("a CONNECT answered 407 is final at once: one CONNECT, and the message names HTTPS_PROXY's credentials without quoting them", async () => {
        await proxy.stop();
        proxy = await ConnectProxy.start({ credentials: { user: "jo", password: "right" } });
        const url = proxy.url.replace("http://", "http://jo:hunter22@");
        const log: string[] = [];
        const error = await failureOf(behindProxy({ proxy: { url }, log: (line) => log.push(line) }).templates.create({ name: "t", image: "busybox", docker_login_repo: "", docker_login_user: "", docker_login_pass: "" }));

        expect(error).toMatchObject({ sent: false, errorCode: "ERR_PROXY_AUTH" });
        expect(error.message).toContain(`through the proxy 127.0.0.1:${new URL(proxy.url).port} (HTTPS_PROXY)`);
        expect(error.message).toMatch(/answered CONNECT with 407 Proxy Authentication Required: the user and password HTTPS_PROXY gives are refused; give the proxy's in HTTPS_PROXY as http:\/\/user:password@host:port/);
        expect(`${error.message}\n${log.join("\n")}`).not.toMatch(/hunter22|jo:/);
        expect(proxy.connects).toHaveLength(1);
        expect(emu.requests).toEqual([]);
    });

    it("a CONNECT answered 407 with no credentials given: final at once, saying HTTPS_PROXY gives none; an instance create is neither sent nor looked for", async () => {
        await proxy.stop();
        proxy = await ConnectProxy.start({ credentials: { user: "jo", password: "right" } });
        const offer = emu.addOffer();
        const error = await failureOf(behindProxy().instances.create(offer.id, { image: "busybox" }));
        expect(error).toMatchObject({ sent: false, errorCode: "ERR_PROXY_AUTH" });
        expect(error.message).toContain("HTTPS_PROXY gives no user and password");
        expect(proxy.connects).toHaveLength(1);
        expect(emu.requests).toEqual([]);
    });

    it.each([403, 502])("a CONNECT answered %p: not sent, and an instance create is tried again, never looked for", async (status) => {
        proxy.refuseWith = status;
        const offer = emu.addOffer();
        const error = await failureOf(behindProxy().instances.create(offer.id, { image: "busybox" }));
        expect(error).toMatchObject({ sent: false, errorCode: "ERR_PROXY_TUNNEL" });
        expect(error.message).toContain(`answered CONNECT with ${status}`);
        expect(proxy.connects.length).toBe(4);
        expect(emu.requests).toEqual([]);
    });

    it("the proxy down: not sent, so an instance create is tried again; the message names the proxy, not the base URL", async () => {
        const { port: proxyPort } = new URL(proxy.url);
        await proxy.stop();
        const offer = emu.addOffer();
        const log: string[] = [];
        const error = await failureOf(behindProxy({ log: (line) => log.push(line) }).instances.create(offer.id, { image: "busybox" }));
        expect(error).toMatchObject({ sent: false, errorCode: "ERR_PROXY_TUNNEL" });
        expect(error.message).toMatch(new RegExp(`through the proxy 127.0.0.1:${proxyPort} \\(HTTPS_PROXY\\): connect ECONNREFUSED`));
        expect(error.message).not.toMatch(/check the base URL/);
        expect(log.filter((line) => line.includes("-> ERR_PROXY_TUNNEL"))).toHaveLength(4);
        expect(emu.liveInstances()).toEqual([]);
    });

    it("a proxy that closes during CONNECT: not sent", async () => {
        const closing = net.createServer((socket) => socket.once("data", () => socket.destroy())).unref();
        await new Promise<void>((resolve) => closing.listen(0, "127.0.0.1", resolve));
        const url = `http://127.0.0.1:${(closing.address() as net.AddressInfo).port}`;
        try {
            const error = await failureOf(behindProxy({ proxy: { url } }).templates.search({}));
            expect(error).toMatchObject({ sent: false, errorCode: "ERR_PROXY_TUNNEL" });
        } finally {
            closing.close();
        }
    });

    it("a proxy that never finishes answering CONNECT: the tunnel's own time limit (half the call's) fails the call as not sent", async () => {
        // A header line every 20 ms and never the end: a socket idle timer would never fire.
        const trickling = net
            .createServer((socket) => {
                socket.unref();
                socket.once("data", () => {
                    socket.write("HTTP/1.1 200 Connection established\r\n");
                    const drip = setInterval(() => socket.write("X-Wait: 1\r\n"), 20).unref();
                    socket.on("close", () => clearInterval(drip));
                    socket.on("error", () => clearInterval(drip));
                });
            })
            .unref();
        await new Promise<void>((resolve) => trickling.listen(0, "127.0.0.1", resolve));
        const url = `http://127.0.0.1:${(trickling.address() as net.AddressInfo).port}`;
        try {
            const error = await failureOf(behindProxy({ proxy: { url }, timeoutMs: 400, retry: { maxAttempts: 1 } }).templates.search({}));
            expect(error).toMatchObject({ sent: false, errorCode: "ERR_PROXY_TUNNEL" });
            expect((error as Error).message).toContain("no answer to CONNECT within 200 ms");
        } finally {
            trickling.close();
        }
    });

    it("a host NO_PROXY names is reached directly: the proxy sees nothing", async () => {
        // This machine cannot resolve vast.test: the direct call fails as a name not found.
        const error = await failureOf(behindProxy({ proxy: { url: proxy.url, noProxy: ".test" } }).templates.search({}));
        expect(error.sent).toBe(false);
        expect(["ENOTFOUND", "EAI_AGAIN"]).toContain(error.errorCode);
        expect(proxy.connects).toEqual([]);
    });

    it("a loopback address is never proxied", async () => {
        const vast = clientFor(emu, { ca: tls.cert, proxy: { url: proxy.url } });
        await expect(vast.templates.search({})).resolves.toBeDefined();
        expect(proxy.connects).toEqual([]);
    });

    it("reads HTTPS_PROXY and NO_PROXY from the environment when the client is made; `proxy: false` reads nothing", async () => {
        const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };
        try {
            process.env.HTTPS_PROXY = proxy.url;
            process.env.NO_PROXY = "other.example";
            const fromEnvironment = behindProxy({ proxy: undefined });
            const none = behindProxy({ proxy: false });
            process.env.HTTPS_PROXY = "http://127.0.0.1:1";
            await expect(fromEnvironment.templates.search({})).resolves.toBeDefined();
            expect(proxy.tunnels).toBe(1);
            await expect(none.templates.search({})).rejects.toMatchObject({ sent: false });
            expect(proxy.tunnels).toBe(1);
        } finally {
            for (const [name, value] of Object.entries(saved)) {
                if (value === undefined) delete process.env[name];
                else process.env[name] = value;
            }
        }
    });

    // Before: the test kit's proxy wrote a 502 into the open TLS tunnel, which the client read as a
    // protocol error and blamed on the base URL.
    it("a reset after the create went out, passed on by the proxy: outcome unknown, sent once, nothing blamed on the base URL", async () => {
        const offer = emu.addOffer();
        emu.faults.add({ method: "PUT", path: `/api/v0/asks/${offer.id}/`, fault: { kind: "lostResponse" } });
        const error = await behindProxy().instances.create(offer.id, { image: "busybox" }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(VastOutcomeUnknownError);
        expect((error as Error).message).toContain("ECONNRESET");
        expect((error as Error).message).not.toMatch(/base URL/);
        expect(emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`)).toHaveLength(1);
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toHaveLength(1);
    });

    it("an invalid proxy URL is a config error when the client is made", () => {
        expect(() => behindProxy({ proxy: { url: "https://jo:hunter22@proxy.corp:3128" } })).toThrow(VastConfigError);
        expect(() => behindProxy({ proxy: { url: "https://jo:hunter22@proxy.corp:3128" } })).toThrow(/^(?!.*hunter22).*HTTPS_PROXY must name a plain http:\/\/ proxy/);
    });
});
