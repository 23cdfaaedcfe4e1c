import * as http from "http";

/**
 * The plain HTTP client the benchmark compares with: the same minimum calls as the bare dynamic
 * provider, made directly from the benchmark's process at the same concurrency, with no Pulumi
 * host in the way.
 */
export function plainCall(baseUrl: string, apiKey: string, method: string, path: string, body?: unknown): Promise<any> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
        const req = http.request(
            new URL(path, baseUrl),
            {
                method,
                headers: {
                    Authorization: `Bearer ${apiKey}`,
                    ...(text === undefined ? {} : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text) }),
                },
            },
            (res) => {
                const chunks: Buffer[] = [];
                res.on("data", (c: Buffer) => chunks.push(c));
                res.on("end", () => {
                    const raw = Buffer.concat(chunks).toString("utf8");
                    if ((res.statusCode ?? 0) >= 300) reject(new Error(`${method} ${path}: HTTP ${res.statusCode} ${raw}`));
                    else resolve(raw === "" ? {} : JSON.parse(raw));
                });
            },
        );
        req.on("error", reject);
        req.end(text);
    });
}

/** The plain client's calls for one resource, per operation; the same requests `bareProvider` makes. */
export interface PlainResource {
    kind: "template" | "instance";
    id?: string;
    hashId?: string;
    fields: Record<string, string | number>;
}

export async function plainStep(baseUrl: string, apiKey: string, op: "create" | "update" | "refresh" | "delete", r: PlainResource): Promise<void> {
    const call = (method: string, path: string, body?: unknown) => plainCall(baseUrl, apiKey, method, path, body);
    const f = r.fields;
    if (r.kind === "template") {
        if (op === "create") {
            const answer = await call("POST", "/api/v0/template/", {
                name: f.name, image: f.image, tag: f.tag, docker_login_repo: "", docker_login_user: "", docker_login_pass: "",
            });
            r.id = String(answer.template.id);
            r.hashId = answer.template.hash_id;
        } else if (op === "update") {
            r.hashId = (await call("PUT", "/api/v0/template/", { hash_id: r.hashId, name: f.name, image: f.image, tag: f.tag })).template.hash_id;
        } else if (op === "refresh") {
            await call("GET", `/api/v0/template/?select_filters=${encodeURIComponent(JSON.stringify({ id: { eq: Number(r.id) } }))}`);
        } else {
            await call("DELETE", "/api/v0/template/", { template_id: Number(r.id) });
        }
        return;
    }
    if (op === "create") r.id = String((await call("PUT", `/api/v0/asks/${f.offerId}/`, { image: f.image, label: f.label })).new_contract);
    else if (op === "update") await call("PUT", `/api/v0/instances/${r.id}/`, { label: f.label });
    else if (op === "refresh") await call("GET", `/api/v0/instances/${r.id}/`);
    else await call("DELETE", `/api/v0/instances/${r.id}/`, {});
}
