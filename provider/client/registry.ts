import * as http from "http";
import * as https from "https";
import { ImageReference } from "../schemas/imageReference";
import { isLoopbackHost } from "./hosts";
import { ProxySetting, proxyFor, proxyFromEnvironment } from "./proxy";
import { TunnelAgent } from "./tunnel";
import { ProviderError } from "../errors/providerError";

/**
 * Whether a container registry has an image, asked as `docker manifest inspect` asks it: the
 * registry HTTP API v2, `HEAD /v2/<name>/manifests/<tag>`, and on a 401 the token its challenge
 * names (`WWW-Authenticate: Bearer realm=…,service=…,scope=…`), anonymously or with a login's
 * Basic credentials, then the HEAD again with it. Why, and what each answer means to a create:
 * docs/design/image-check.md. No credential or token ever reaches an answer's text.
 */

/** Where an image is asked for: the registry's URL, the repository as the registry names it, and the tag or digest. */
export interface RegistryLocation {
    /** The registry as a login names it: `registry-1.docker.io`, `ghcr.io`, `127.0.0.1:5000`. */
    registry: string;
    /** `https://registry-1.docker.io`; `http://` for a registry on this machine. */
    baseUrl: string;
    /** `library/busybox`, `pytorch/pytorch`, `acme/trainer`. */
    repository: string;
    /** The tag (default `latest`) or the digest. */
    manifest: string;
}

/** Docker Hub's registry, where a reference without one goes; the names Docker gives it. */
export const DOCKER_HUB_REGISTRY = "registry-1.docker.io";
const DOCKER_HUB_NAMES = new Set(["docker.io", "index.docker.io", "registry-1.docker.io", "registry.hub.docker.com"]);

/**
 * The registry a reference is pulled from, as Docker reads it: none or `docker.io` is Docker Hub
 * (`registry-1.docker.io`), whose one-component names are official images (`busybox` is
 * `library/busybox`); any other host (`ghcr.io`, `nvcr.io`, `host:port`) is its own registry.
 */
export function registryLocation(ref: ImageReference): RegistryLocation {
    const hub = ref.domain === undefined || DOCKER_HUB_NAMES.has(ref.domain.toLowerCase());
    const registry = hub ? DOCKER_HUB_REGISTRY : ref.domain!.toLowerCase();
    const repository = hub && !ref.path.includes("/") ? `library/${ref.path}` : ref.path;
    const host = registry.replace(/:\d+$/, "");
    return { registry, baseUrl: `${isLoopbackHost(host) ? "http" : "https"}://${registry}`, repository, manifest: ref.digest ?? ref.tag ?? "latest" };
}

/** A login's registry as compared with a location's: no scheme or path, lower case, Docker Hub by one name. */
export function sameRegistry(loginRegistry: string, location: RegistryLocation): boolean {
    const name = loginRegistry.trim().replace(/^[a-z]+:\/\//i, "").replace(/\/.*$/, "").toLowerCase();
    return (DOCKER_HUB_NAMES.has(name) ? DOCKER_HUB_REGISTRY : name) === location.registry;
}

/**
 * What the registry said: `found`; `missing` (404: no such repository or tag); `denied` (401/403
 * after the token, or the token itself refused), with whether a login was sent; `unanswered` (no
 * connection, a timeout, a 5xx or 429, an answer that is no registry's), and why.
 */
export type ManifestAnswer =
    | { kind: "found" }
    | { kind: "missing"; status: number }
    | { kind: "denied"; status: number; withLogin: boolean; at: "token" | "manifest" }
    | { kind: "unanswered"; why: string };

export interface ManifestQuestion {
    /** A registry login (user and password or token); sent to the token realm only, as Basic. */
    login?: { user: string; password: string };
    /** Each request's limit, ms. */
    timeoutMs: number;
    /** The egress proxy, as the Vast client reads it (`HTTPS_PROXY`, `NO_PROXY`). */
    proxy?: ProxySetting;
}

/** The manifest types `docker manifest inspect` accepts: Docker's and OCI's, single images and lists. */
export const MANIFEST_ACCEPT = [
    "application/vnd.docker.distribution.manifest.v2+json",
    "application/vnd.docker.distribution.manifest.list.v2+json",
    "application/vnd.oci.image.manifest.v1+json",
    "application/vnd.oci.image.index.v1+json",
    "application/vnd.docker.distribution.manifest.v1+prettyjws",
].join(", ");

const USER_AGENT = `pulumi-vastai (node ${process.version})`;

/** Whether the registry has the manifest at `location`. Never throws: a failure to ask is `unanswered`. */
export async function askManifest(location: RegistryLocation, question: ManifestQuestion): Promise<ManifestAnswer> {
    const manifestUrl = new URL(`${location.baseUrl}/v2/${location.repository}/manifests/${location.manifest}`);
    try {
        const first = await send("HEAD", manifestUrl, {}, question);
        if (first.status !== 401) return manifestAnswer(first.status, question.login !== undefined);
        const challenge = parseChallenge(first.headers["www-authenticate"]);
        if (challenge?.scheme === "basic") {
            if (!question.login) return { kind: "denied", status: 401, withLogin: false, at: "manifest" };
            const again = await send("HEAD", manifestUrl, { Authorization: basic(question.login) }, question);
            return manifestAnswer(again.status, true);
        }
        if (challenge?.scheme !== "bearer" || !challenge.params.realm) return { kind: "unanswered", why: "it answered 401 without a Bearer challenge this check can follow" };
        const token = await fetchToken(challenge.params, location, question);
        if (token.kind !== "token") return token.answer;
        const again = await send("HEAD", manifestUrl, { Authorization: `Bearer ${token.token}` }, question);
        return manifestAnswer(again.status, question.login !== undefined);
    } catch (e) {
        return { kind: "unanswered", why: (e as Error).message };
    }
}

function manifestAnswer(status: number, withLogin: boolean): ManifestAnswer {
    if (status >= 200 && status < 300) return { kind: "found" };
    if (status === 404) return { kind: "missing", status };
    if (status === 401 || status === 403) return { kind: "denied", status, withLogin, at: "manifest" };
    return { kind: "unanswered", why: `it answered ${status}${http.STATUS_CODES[status] ? ` ${http.STATUS_CODES[status]}` : ""}` };
}

/** The token the challenge's realm gives for pulling the repository, or the answer that ends the question. */
async function fetchToken(
    params: Record<string, string>,
    location: RegistryLocation,
    question: ManifestQuestion,
): Promise<{ kind: "token"; token: string } | { kind: "answer"; answer: ManifestAnswer }> {
    let realm: URL;
    try {
        realm = new URL(params.realm);
    } catch {
        return { kind: "answer", answer: { kind: "unanswered", why: "its token realm is not a URL" } };
    }
    if (realm.protocol !== "https:" && !(realm.protocol === "http:" && isLoopbackHost(realm.hostname))) {
        return { kind: "answer", answer: { kind: "unanswered", why: "its token realm is not https" } };
    }
    if (params.service) realm.searchParams.set("service", params.service);
    realm.searchParams.set("scope", params.scope || `repository:${location.repository}:pull`);
    const headers: Record<string, string> = question.login ? { Authorization: basic(question.login) } : {};
    const response = await send("GET", realm, headers, question);
    if (response.status === 401 || response.status === 403) {
        return { kind: "answer", answer: { kind: "denied", status: response.status, withLogin: question.login !== undefined, at: "token" } };
    }
    if (response.status !== 200) return { kind: "answer", answer: { kind: "unanswered", why: `its token realm ${realm.host} answered ${response.status}` } };
    let token: unknown;
    try {
        const body = JSON.parse(response.body) as { token?: unknown; access_token?: unknown };
        token = body.token ?? body.access_token;
    } catch {
        // below
    }
    if (typeof token !== "string" || token === "") return { kind: "answer", answer: { kind: "unanswered", why: "its token realm answered without a token" } };
    return { kind: "token", token };
}

/** `Bearer realm="…",service="…",scope="…"` (or `Basic realm="…"`): the scheme, lower case, and its parameters. */
export function parseChallenge(header: string | string[] | undefined): { scheme: string; params: Record<string, string> } | undefined {
    const text = Array.isArray(header) ? header[0] : header;
    const m = text === undefined ? null : /^\s*([A-Za-z]+)\s*(.*)$/.exec(text);
    if (!m) return undefined;
    const params: Record<string, string> = {};
    for (const p of m[2].matchAll(/([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) params[p[1].toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, "$1") : p[3];
    return { scheme: m[1].toLowerCase(), params };
}

function basic(login: { user: string; password: string }): string {
    return `Basic ${Buffer.from(`${login.user}:${login.password}`).toString("base64")}`;
}

/** The most of a token answer read: tokens are a few KB. */
const BODY_LIMIT = 256 * 1024;

/**
 * One request: through the egress proxy for an https registry that is not bypassed, directly
 * otherwise; no redirect followed (it could carry the login elsewhere); a wall-clock limit. Its
 * errors name the host and what went wrong, never a header.
 */
function send(method: "HEAD" | "GET", url: URL, headers: Record<string, string>, question: ManifestQuestion): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    const proxy = proxyFor(url, question.proxy ?? proxyFromEnvironment());
    const agent = proxy ? new TunnelAgent(proxy, question.timeoutMs, { keepAlive: false }) : undefined;
    const request = (url.protocol === "https:" ? https : http).request;
    return new Promise((resolve, reject) => {
        let done = false;
        const finish = (error: Error | undefined, value?: { status: number; headers: http.IncomingHttpHeaders; body: string }) => {
            if (done) return;
            done = true;
            clearTimeout(limit);
            agent?.destroy();
            if (error) reject(error);
            else resolve(value!);
        };
        const req = request(url, { method, agent, headers: { Accept: MANIFEST_ACCEPT, "User-Agent": USER_AGENT, ...headers } }, (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on("data", (chunk: Buffer) => {
                size += chunk.length;
                if (size <= BODY_LIMIT) chunks.push(chunk);
            });
            res.on("end", () => finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
            res.on("error", (e) => finish(new ProviderError("network_error", `${url.host}: the answer was cut short (${e.message})`)));
        });
        const limit = setTimeout(() => {
            req.destroy();
            finish(new ProviderError("network_error", `${url.host} did not answer within ${Math.round(question.timeoutMs)} ms`));
        }, question.timeoutMs);
        // Node's own words (`connect ECONNREFUSED 127.0.0.1:5000`, `getaddrinfo ENOTFOUND ghcr.io`), or the tunnel's.
        req.on("error", (e) => finish(new ProviderError("network_error", `${url.host}: ${e.message}`)));
        req.end();
    });
}
