import * as http from "http";

/**
 * One GET outside the client, to see a body exactly as the service sent it (for instance that
 * `users/current` really carries `api_key`, so a test that it never comes out is not vacuous).
 */
export function rawGet(url: string, apiKey: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
        const req = http.get(url, { headers: { Authorization: `Bearer ${apiKey}` } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        });
        req.on("error", reject);
    });
}
