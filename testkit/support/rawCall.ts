import * as http from "http";
import { Emulator } from "../emulator/server";

/** What a plain HTTP client gets back: the status, the content type, the text, and the text read as JSON when it is. */
export interface RawReply {
    status: number;
    contentType: string;
    text: string;
    /** The body parsed as JSON, or the text itself when it is not JSON. */
    json: any;
}

export interface RawOptions {
    /** A string is sent as it is; anything else as JSON. */
    body?: unknown;
    /** The key sent as a Bearer token; the demo key when not given, none when null. */
    key?: string | null;
    headers?: Record<string, string>;
    /** When the client gives up. */
    timeoutMs?: number;
}

/**
 * One request to the emulator as any client would send it, with Node's `http`: for tests of the
 * emulator itself (and the vendor requests' replay), which must not lean on the provider's client.
 */
export function rawRequest(emu: Emulator, method: string, path: string, options: RawOptions = {}): Promise<RawReply> {
    const { body, key = emu.demoKey, timeoutMs } = options;
    return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
        const headers: Record<string, string | number> = { ...options.headers };
        if (key !== null) headers.Authorization = `Bearer ${key}`;
        if (payload !== undefined) Object.assign(headers, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) });
        const req = http.request(`${emu.url}${path}`, { method, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => {
                const text = Buffer.concat(chunks).toString("utf8");
                let json: unknown;
                try {
                    json = JSON.parse(text);
                } catch {
                    json = text;
                }
                resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text, json });
            });
        });
        if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error("client timeout")));
        req.on("error", reject);
        req.end(payload);
    });
}

/** `rawRequest` with the demo key. */
export function rawCall(emu: Emulator, method: string, path: string, body?: unknown, timeoutMs?: number): Promise<RawReply> {
    return rawRequest(emu, method, path, { body, timeoutMs });
}
