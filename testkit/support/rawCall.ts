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

/**
 * One request to the emulator as any client would send it, with Node's `http` and the demo key:
 * for tests of the emulator itself, which must not lean on the provider's client. A body that is
 * a string is sent as it is; `timeoutMs` is when the client gives up.
 */
export function rawCall(emu: Emulator, method: string, path: string, body?: unknown, timeoutMs?: number): Promise<RawReply> {
    return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
        const req = http.request(
            `${emu.url}${path}`,
            {
                method,
                headers: {
                    Authorization: `Bearer ${emu.demoKey}`,
                    ...(payload !== undefined ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) } : {}),
                },
            },
            (res) => {
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
            },
        );
        if (timeoutMs !== undefined) req.setTimeout(timeoutMs, () => req.destroy(new Error("client timeout")));
        req.on("error", reject);
        req.end(payload);
    });
}
