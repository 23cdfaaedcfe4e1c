import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Instance, SshKey } from "../../provider";
import { Emulator } from "../../testkit/emulator/server";
import { MiniEngine } from "../../testkit/engine/miniEngine";
import { ProviderHost } from "../../testkit/host/providerHost";
import { ConnectProxy } from "../../testkit/proxy/connectProxy";
import { startEmulator } from "../../testkit/support/fixtures";
import { selfSignedCert } from "../../testkit/tls/selfSignedCert";

const LAPTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyProxyHost00000000000000 me@laptop";

/**
 * HTTPS_PROXY as a user sets it, in the environment of Pulumi's dynamic-provider host: the
 * emulator over https, named `vast.test` (a loopback address is never proxied), its certificate
 * trusted through NODE_EXTRA_CA_CERTS, as a corporate CA would be. Not a loopback address, so
 * VASTAI_TIME_SCALE is not honoured: an SSH key's calls are each in a lane of their own, and wait
 * for no pace.
 */
describe("the provider behind an egress proxy, through Pulumi's dynamic-provider host", () => {
    const tls = selfSignedCert();
    const caDir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-ca-"));
    const caFile = path.join(caDir, "ca.pem");
    fs.writeFileSync(caFile, tls.cert);
    let proxy: ConnectProxy;
    let emu: Emulator;
    let host: ProviderHost;
    beforeAll(async () => {
        proxy = await ConnectProxy.start({ credentials: { user: "jo", password: "s3cret-proxy-pass" } });
        emu = await startEmulator({ tls });
        host = await ProviderHost.start({
            env: {
                HTTPS_PROXY: proxy.url.replace("http://", "http://jo:s3cret-proxy-pass@"),
                https_proxy: undefined,
                NO_PROXY: undefined,
                no_proxy: undefined,
                NODE_EXTRA_CA_CERTS: caFile,
            },
        });
        await host.configure({ "vastai:apiKey": emu.demoKey, "vastai:baseUrl": `https://vast.test:${new URL(emu.url).port}` });
    });
    afterAll(async () => {
        await host.stop();
        await emu.stop();
        await proxy.stop();
        fs.rmSync(caDir, { recursive: true, force: true });
    });

    it("creates and deletes an SSH key through CONNECT tunnels; the proxy's password reaches no output", async () => {
        const port = new URL(emu.url).port;
        await new MiniEngine(host).run([{ up: () => new SshKey("laptop", { publicKey: LAPTOP }) }, { destroy: true }]);

        expect(emu.requestsTo("POST", "/api/v0/ssh/")).toHaveLength(1);
        expect(emu.model.sshKeys.size).toBe(0);
        expect(proxy.connects.length).toBeGreaterThan(0);
        expect(proxy.connects.every((c) => c.target === `vast.test:${port}`)).toBe(true);
        expect(host.output.join("\n")).not.toContain("s3cret-proxy-pass");
    });

    it("a connection reset through the proxy after the rent went out is an unknown outcome: looked for, not sent again, one instance in state", async () => {
        const offer = emu.addOffer();
        const rent = `/api/v0/asks/${offer.id}/`;
        emu.faults.add({ method: "PUT", path: rent, fault: { kind: "lostResponse" } });
        const engine = new MiniEngine(host);
        await engine.up(() => new Instance("through-proxy", { offerId: offer.id, image: "busybox", waitForRunning: false }));

        const live = emu.liveInstances().filter((i) => i.offerId === offer.id);
        expect(live).toHaveLength(1);
        expect(engine.get("through-proxy").id).toBe(String(live[0].id));
        expect(emu.requestsTo("PUT", rent)).toHaveLength(1);
        expect(host.output.join("\n")).toMatch(/the answer to create instance on offer \d+ was lost; looking for an instance/);
        await engine.destroy();
        expect(emu.liveInstances().filter((i) => i.offerId === offer.id)).toEqual([]);
    });
});
