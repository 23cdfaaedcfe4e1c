import { VastConfigError } from "../../provider/client/errors";
import { ProxySetting, proxyAddress, proxyFor, proxyFromEnvironment } from "../../provider/client/proxy";

const PROXY = "http://proxy.corp:3128";
const via = (target: string, setting: ProxySetting) => proxyFor(new URL(target), setting);

describe("which proxy a call goes through (HTTPS_PROXY, NO_PROXY)", () => {
    it("reads HTTPS_PROXY before https_proxy and NO_PROXY before no_proxy; an empty value is unset; HTTP_PROXY is not read", () => {
        expect(proxyFromEnvironment({ HTTPS_PROXY: "http://a:1", https_proxy: "http://b:2", NO_PROXY: "x", no_proxy: "y" })).toEqual({ url: "http://a:1", noProxy: "x" });
        expect(proxyFromEnvironment({ HTTPS_PROXY: " ", https_proxy: "http://b:2", no_proxy: "y" })).toEqual({ url: "http://b:2", noProxy: "y" });
        expect(proxyFromEnvironment({ HTTP_PROXY: "http://a:1" })).toEqual({ url: undefined, noProxy: undefined });
    });

    it("proxies an https service; the proxy's port is 80 unless named", () => {
        expect(via("https://console.vast.ai", { url: PROXY })).toEqual({ host: "proxy.corp", port: 3128, authorization: undefined });
        expect(via("https://console.vast.ai", { url: "http://proxy.corp" })).toMatchObject({ port: 80 });
        expect(proxyAddress(via("https://console.vast.ai", { url: "http://[fd00::1]:3128" })!)).toBe("[fd00::1]:3128");
    });

    it("never proxies plain http, a loopback address or no proxy at all", () => {
        expect(via("https://console.vast.ai", {})).toBeUndefined();
        for (const target of ["http://127.0.0.1:8787", "https://127.0.0.1:8787", "https://127.1.2.3", "https://localhost:9", "https://[::1]:443"]) {
            expect(via(target, { url: PROXY })).toBeUndefined();
        }
    });

    it.each([
        ["console.vast.ai", true],
        ["vast.ai", true], // a name: itself and its subdomains
        ["ai", true],
        ["st.ai", false], // not a part of a name
        [".vast.ai", true], // subdomains only
        ["*.vast.ai", true],
        [".console.vast.ai", false],
        ["*", true],
        ["console.vast.ai:443", true], // the port the URL implies
        ["console.vast.ai:8443", false],
        ["other.example, CONSOLE.VAST.AI ", true], // a list; case and spaces do not count
        [",,", false],
    ])("NO_PROXY=%p for https://console.vast.ai: direct %p", (noProxy, direct) => {
        expect(via("https://console.vast.ai", { url: PROXY, noProxy }) === undefined).toBe(direct);
    });

    it("NO_PROXY's subdomains-only form leaves the domain itself proxied; an address and a v6 one with a port match", () => {
        expect(via("https://vast.ai", { url: PROXY, noProxy: ".vast.ai" })).toBeDefined();
        expect(via("https://10.1.2.3:8443", { url: PROXY, noProxy: "10.1.2.3:8443" })).toBeUndefined();
        expect(via("https://10.1.2.3", { url: PROXY, noProxy: "1.2.3,.1.2.3" })).toBeDefined();
        expect(via("https://[fd00::2]:8443", { url: PROXY, noProxy: "[fd00::2]:8443" })).toBeUndefined();
        expect(via("https://[fd00::2]:8443", { url: PROXY, noProxy: "fd00::2" })).toBeUndefined();
    });

    it("credentials in the URL become the CONNECT's Basic authorization, undone from URL encoding", () => {
        const proxy = via("https://console.vast.ai", { url: "http://corp%5Cjo:p%40ss%3Aw%2Frd@proxy.corp:3128" });
        expect(proxy?.authorization).toBe(`Basic ${Buffer.from("corp\\jo:p@ss:w/rd").toString("base64")}`);
    });

    it("a proxy written without a scheme is a plain http one, as curl, python requests and Go read it", () => {
        expect(via("https://console.vast.ai", { url: "proxy.corp:3128" })).toEqual({ host: "proxy.corp", port: 3128, authorization: undefined });
        expect(via("https://console.vast.ai", { url: "jo:pw@10.0.0.5:8080" })).toMatchObject({ host: "10.0.0.5", port: 8080, authorization: `Basic ${Buffer.from("jo:pw").toString("base64")}` });
    });

    it.each([
        ["https://jo:hunter22@proxy.corp:3128", /plain http:\/\/ proxy/],
        ["socks5://jo:hunter22@proxy.corp:1080", /plain http:\/\/ proxy/],
        ["http://jo:hunter22@proxy corp:3128", /not a URL/],
        ["http://jo:hunter22@proxy.corp:3128/path", /path or query/],
        ["http://jo:hunter22%zz@proxy.corp:3128", /URL-encoded/],
    ])("HTTPS_PROXY=%p is a config error naming HTTPS_PROXY and what is expected, never the credentials", (url, why) => {
        let error: unknown;
        try {
            via("https://console.vast.ai", { url });
        } catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(VastConfigError);
        const message = (error as Error).message;
        expect(message).toMatch(why);
        expect(message).toMatch(/HTTPS_PROXY/);
        expect(message).toContain("expected http://host:port");
        expect(message).not.toMatch(/hunter22|jo:/);
    });

    it("a malformed HTTPS_PROXY does not stop calls that do not use it", () => {
        expect(via("http://127.0.0.1:8787", { url: "nonsense" })).toBeUndefined();
        expect(via("https://console.vast.ai", { url: "nonsense", noProxy: "vast.ai" })).toBeUndefined();
    });
});
