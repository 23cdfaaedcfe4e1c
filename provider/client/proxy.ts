import { isIP } from "net";
import { VastConfigError } from "./errors";
import { bareHost, isLoopbackHost } from "./hosts";

/**
 * Which egress proxy a client goes through, as the vendor CLI (python requests) and Go's net/http
 * read it: `HTTPS_PROXY` names the proxy, `NO_PROXY` the hosts reached without it. Only https
 * base URLs are proxied (plain http goes only to this machine), and a loopback one never is.
 */
export interface ProxySetting {
    /** `http://host:port`, or `http://user:password@host:port` for a proxy that asks for credentials. */
    url?: string;
    /** Comma-separated hosts reached directly: `name` (and its subdomains), `.name` (subdomains only), `*` (all), each with an optional `:port`. */
    noProxy?: string;
}

/**
 * The setting the environment gives: `HTTPS_PROXY` before `https_proxy`, `NO_PROXY` before
 * `no_proxy` (as Go reads them); an empty value counts as unset. `HTTP_PROXY` is not read: the
 * service is reached over https only.
 */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv = process.env): ProxySetting {
    const first = (...names: string[]) => names.map((name) => env[name]).find((value) => value !== undefined && value.trim() !== "");
    return { url: first("HTTPS_PROXY", "https_proxy"), noProxy: first("NO_PROXY", "no_proxy") };
}

/** A proxy as the tunnel uses it. Its URL, which may hold a password, goes no further than `proxyFor`. */
export interface EgressProxy {
    host: string;
    port: number;
    /** The `Proxy-Authorization` header the URL's credentials make (Basic), sent with CONNECT only. */
    authorization?: string;
}

/**
 * The proxy a call to `target` goes through, or undefined when it goes directly. The proxy URL is
 * checked only when it is used: a malformed `HTTPS_PROXY` does not stop calls to this machine.
 */
export function proxyFor(target: URL, setting: ProxySetting): EgressProxy | undefined {
    if (!setting.url || target.protocol !== "https:") return undefined;
    if (isLoopbackHost(target.hostname) || bypasses(target, setting.noProxy ?? "")) return undefined;
    const url = proxyUrl(setting.url);
    return { host: bareHost(url.hostname), port: Number(url.port || 80), authorization: basicCredentials(url) };
}

/** The proxy's address as messages name it: never the credentials its URL may carry. */
export function proxyAddress(proxy: EgressProxy): string {
    return `${proxy.host.includes(":") ? `[${proxy.host}]` : proxy.host}:${proxy.port}`;
}

const EXPECTED = "expected http://host:port, or http://user:password@host:port for a proxy that asks for credentials";

/** The proxy URL checked: a plain http proxy (the tunnel through it carries TLS of its own). The value is never quoted: it may hold a password. */
function proxyUrl(text: string): URL {
    let url: URL;
    // No scheme (`proxy.corp:3128`) is http, as curl, python requests (the vendor CLI) and Go read it.
    const written = text.trim();
    try {
        url = new URL(written.includes("://") ? written : `http://${written}`);
    } catch {
        throw new VastConfigError(`HTTPS_PROXY is not a URL (${EXPECTED})`);
    }
    if (url.protocol !== "http:" || url.hostname === "") {
        throw new VastConfigError(`HTTPS_PROXY must name a plain http:// proxy: the tunnel through it carries TLS of its own (${EXPECTED})`);
    }
    if ((url.pathname !== "/" && url.pathname !== "") || url.search !== "" || url.hash !== "") {
        throw new VastConfigError(`HTTPS_PROXY has a path or query; a proxy is only a host and port (${EXPECTED})`);
    }
    return url;
}

/** `Basic ...` from the URL's `user:password`, each undone from its URL encoding (`%40` for `@`). */
function basicCredentials(url: URL): string | undefined {
    if (url.username === "" && url.password === "") return undefined;
    let pair: string;
    try {
        pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    } catch {
        throw new VastConfigError(`HTTPS_PROXY's user or password is not URL-encoded: a % not followed by two hex digits (${EXPECTED}, each URL-encoded)`);
    }
    return `Basic ${Buffer.from(pair).toString("base64")}`;
}

/** Whether `NO_PROXY` names the target, by Go's rules (but no CIDR ranges). */
function bypasses(target: URL, noProxy: string): boolean {
    const host = bareHost(target.hostname);
    const port = target.port || "443";
    return noProxy.split(",").some((raw) => {
        const entry = raw.trim().toLowerCase();
        if (entry === "*") return true;
        const { name, entryPort } = splitPort(entry);
        if (name === "" || (entryPort !== undefined && entryPort !== port)) return false;
        // `*.name` reads as `.name`.
        const wanted = bareHost(name).replace(/^\*\./, ".");
        // An address matches itself alone: `1.2.3` is no domain of `10.1.2.3`.
        if (isIP(host)) return host === wanted;
        return wanted.startsWith(".") ? host.endsWith(wanted) : host === wanted || host.endsWith(`.${wanted}`);
    });
}

/** `name:port`, `[v6]:port` or a bare name or address (an IPv6 one has colons of its own). */
function splitPort(entry: string): { name: string; entryPort?: string } {
    const m = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(entry);
    return m ? { name: m[1], entryPort: m[2] } : { name: entry };
}
