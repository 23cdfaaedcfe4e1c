import * as http from "http";
import { AddressInfo } from "net";
import * as zlib from "zlib";
import axios, { AxiosError, AxiosInstance } from "axios";
import { httpAdapter } from "../../provider/client/httpAdapter";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor, startEmulator } from "../../testkit/support/fixtures";

/**
 * The client's axios adapter on a plain loopback server that answers as each test says: what it
 * sends, how it reads answers however they are encoded or cut, and the errors the transport reads
 * (transport.ts: a failure's `code` and `syscall` say whether the request may have been acted on).
 */
type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

let server: http.Server | undefined;
let handler: Handler = (_req, _body, res) => res.end();

async function startServer(): Promise<string> {
    server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => handler(req, Buffer.concat(chunks).toString("utf8"), res));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function clientOf(baseURL: string, timeout = 2000): AxiosInstance {
    return axios.create({ baseURL, adapter: httpAdapter, timeout, validateStatus: () => true, responseType: "text", transformResponse: [(d: unknown) => d] });
}

afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server?.closeAllConnections();
    server = undefined;
});

describe("the client's HTTP adapter", () => {
    it("sends the method, path, query, headers and a body with its length (a DELETE's too)", async () => {
        let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | undefined;
        handler = (req, body, res) => {
            seen = { method: req.method, url: req.url, headers: req.headers, body };
            res.end("{}");
        };
        const http = clientOf(await startServer());
        await http.request({ method: "DELETE", url: "/api/v0/instances/7/", params: { q: '{"a": [1]}' }, data: "{}", headers: { Authorization: "Bearer k", "Content-Type": "application/json" } });
        expect(seen).toMatchObject({ method: "DELETE", body: "{}" });
        const sent = new URL(seen!.url!, "http://127.0.0.1");
        expect([sent.pathname, sent.searchParams.get("q")]).toEqual(["/api/v0/instances/7/", '{"a": [1]}']);
        expect(seen!.headers).toMatchObject({ authorization: "Bearer k", "content-type": "application/json", "content-length": "2", "accept-encoding": "gzip, deflate, br" });
        expect(seen!.headers["user-agent"]).toMatch(/^pulumi-vastai /);
    });

    it.each([
        ["gzip", zlib.gzipSync],
        ["deflate", zlib.deflateSync],
        ["deflate", zlib.deflateRawSync],
        ["br", zlib.brotliCompressSync],
    ])("reads an answer in %s", async (encoding, compress) => {
        const text = JSON.stringify({ templates: Array.from({ length: 50 }, (_, i) => ({ id: i, name: `t${i}` })) });
        handler = (_req, _body, res) => {
            res.writeHead(200, { "Content-Encoding": encoding, "Content-Type": "application/json" });
            res.end(compress(Buffer.from(text)));
        };
        const answer = await clientOf(await startServer()).get("/");
        expect(answer.data).toBe(text);
    });

    it("returns a redirect as it came, without following it", async () => {
        const paths: string[] = [];
        handler = (req, _body, res) => {
            paths.push(req.url ?? "");
            res.writeHead(302, { Location: "/elsewhere" });
            res.end();
        };
        const answer = await clientOf(await startServer()).get("/api/v0/users/current/");
        expect(answer.status).toBe(302);
        expect(paths).toEqual(["/api/v0/users/current/"]);
    });

    it("fails an answer cut off before its end, and one whose encoding is spoiled", async () => {
        handler = (_req, _body, res) => {
            res.writeHead(200, { "Content-Length": "100" });
            res.write('{"success": true');
            setTimeout(() => res.socket?.destroy(), 20);
        };
        const base = await startServer();
        await expect(clientOf(base).get("/")).rejects.toBeInstanceOf(AxiosError);

        handler = (_req, _body, res) => {
            res.writeHead(200, { "Content-Encoding": "br" });
            res.end("not brotli at all");
        };
        await expect(clientOf(base).get("/")).rejects.toMatchObject({ code: AxiosError.ERR_BAD_RESPONSE });

        // Its framing whole, the gzip stream in it cut short: not read as the part that came.
        const gzipped = zlib.gzipSync(Buffer.from(JSON.stringify({ success: true, instances: [] })));
        handler = (_req, _body, res) => {
            res.writeHead(200, { "Content-Encoding": "gzip" });
            res.end(gzipped.subarray(0, gzipped.length - 10));
        };
        await expect(clientOf(base).get("/")).rejects.toMatchObject({ code: AxiosError.ERR_BAD_RESPONSE });
    });

    it("drops a byte-order mark before the JSON", async () => {
        handler = (_req, _body, res) => res.end("\uFEFF{\"a\":1}");
        expect((await clientOf(await startServer()).get("/")).data).toBe('{"a":1}');
    });

    it("times out as axios does (ECONNABORTED), whether no answer comes or it stops midway", async () => {
        handler = () => undefined;
        const base = await startServer();
        await expect(clientOf(base, 100).get("/")).rejects.toMatchObject({ code: "ECONNABORTED", message: "timeout of 100ms exceeded" });

        handler = (_req, _body, res) => {
            res.writeHead(200, { "Content-Length": "100" });
            res.write("{");
        };
        await expect(clientOf(base, 100).get("/")).rejects.toMatchObject({ code: "ECONNABORTED" });
    });

    it("keeps Node's code and syscall: refused while connecting is never sent", async () => {
        const base = await startServer();
        await new Promise((resolve) => server!.close(resolve));
        server = undefined;
        const error = await clientOf(base).get("/").catch((e: AxiosError) => e);
        expect(error).toMatchObject({ code: "ECONNREFUSED", cause: { syscall: "connect" } });
    });
});

describe("the client over the adapter", () => {
    let emu: Emulator;
    afterEach(() => emu.stop());

    it("reads the emulator's gzipped answers, and retries a read whose gzipped answer came cut in half", async () => {
        emu = await startEmulator();
        const vast = clientFor(emu);
        for (let i = 0; i < 30; i++) await vast.templates.create({ name: `gzip-${i}`, image: "busybox", docker_login_repo: "", docker_login_user: "", docker_login_pass: "" });
        const raw = await new Promise<http.IncomingMessage>((resolve, reject) =>
            http.get(`${emu.url}/api/v0/template/`, { headers: { Authorization: `Bearer ${emu.demoKey}`, "Accept-Encoding": "gzip" } }, resolve).on("error", reject),
        );
        raw.resume();
        expect(raw.headers["content-encoding"]).toBe("gzip");

        expect((await vast.templates.search({ name: { eq: "gzip-7" } })).map((t) => t.name)).toEqual(["gzip-7"]);
        emu.clearLog();
        emu.faults.add({ method: "GET", path: "/api/v0/template/", fault: { kind: "truncated" }, times: 1 });
        const all = await vast.templates.search({});
        expect(all.filter((t) => t.name?.startsWith("gzip-"))).toHaveLength(30);
        expect(emu.requestsTo("GET", "/api/v0/template/")).toHaveLength(2);
    });
});
