import * as pulumi from "@pulumi/pulumi";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { HostCallError, ProviderHost } from "../../testkit/host/providerHost";
import { registerAsProgram } from "../../testkit/host/programMocks";

/**
 * Self-test of the machinery every resource test stands on: a minimal dynamic resource, defined
 * here, goes check → create → diff → delete through Pulumi's real dynamic-provider host, with the
 * `__provider` text obtained exactly as a program produces it. Its provider writes each step to a
 * file, so the test sees that code inside the host ran.
 */
const markerProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds: any, news: any) {
        const failures = typeof news.size === "number" ? [] : [{ property: "size", reason: "expected a number" }];
        return { inputs: news, failures };
    },
    async create(inputs: any) {
        require("fs").appendFileSync(inputs.markerFile, `created ${inputs.size}\n`);
        if (inputs.failInit) {
            throw Object.assign(new Error("created but never became ready"), {
                id: `marker-${inputs.size}`,
                properties: { ...inputs, ready: false },
                reasons: ["still loading"],
            });
        }
        return { id: `marker-${inputs.size}`, outs: { ...inputs, ready: true } };
    },
    async diff(_id: string, olds: any, news: any) {
        const replaces = olds.size !== news.size ? ["size"] : [];
        return { changes: replaces.length > 0, replaces };
    },
    async delete(id: string, props: any) {
        require("fs").appendFileSync(props.markerFile, `deleted ${id}\n`);
    },
};

class Marker extends pulumi.dynamic.Resource {
    constructor(name: string, args: { size: pulumi.Input<number>; markerFile: string; failInit?: boolean }) {
        super(markerProvider, name, args, {}, "harness", "Marker");
    }
}

describe("harness: a dynamic resource through Pulumi's own host", () => {
    let host: ProviderHost;
    let markerFile: string;
    beforeAll(async () => {
        host = await ProviderHost.start();
        await host.configure({});
    });
    afterAll(() => host.stop());
    beforeEach(() => {
        markerFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "harness-")), "marker.log");
    });

    it("runs check → create → diff → delete with the __provider text a program sends", async () => {
        const [reg] = await registerAsProgram(() => new Marker("m1", { size: 3, markerFile }));
        expect(reg.type).toBe("pulumi-nodejs:dynamic/harness:Marker");
        expect(typeof reg.inputs.__provider).toBe("string");
        expect(reg.inputs.__provider).toMatch(/exports\.handler/);
        const urn = host.urn(reg.type, reg.name);

        const checked = await host.check(urn, {}, reg.inputs);
        expect(checked.failures).toEqual([]);
        expect(checked.inputs.__provider).toBe(reg.inputs.__provider);

        const created = await host.create(urn, checked.inputs);
        expect(created.id).toBe("marker-3");
        expect(created.properties).toMatchObject({ size: 3, ready: true, __provider: reg.inputs.__provider });

        expect(await host.diff(created.id, urn, created.properties, checked.inputs)).toEqual({
            changes: "none",
            replaces: [],
            deleteBeforeReplace: false,
        });
        const bigger = await host.check(urn, checked.inputs, { ...reg.inputs, size: 4 });
        expect(await host.diff(created.id, urn, created.properties, bigger.inputs)).toMatchObject({ changes: "some", replaces: ["size"] });

        await host.delete(created.id, urn, created.properties);
        expect(fs.readFileSync(markerFile, "utf8")).toBe("created 3\ndeleted marker-3\n");
    });

    it("reports check failures with the property that failed", async () => {
        const [reg] = await registerAsProgram(() => new Marker("m2", { size: 1, markerFile }));
        const checked = await host.check(host.urn(reg.type, reg.name), {}, { ...reg.inputs, size: "big" });
        expect(checked.failures).toEqual([{ property: "size", reason: "expected a number" }]);
    });

    it("carries a create that failed after creating (init failure) with its id, as the engine records it", async () => {
        const [reg] = await registerAsProgram(() => new Marker("m3", { size: 5, markerFile, failInit: true }));
        const urn = host.urn(reg.type, reg.name);
        const error = await host.create(urn, reg.inputs).catch((e) => e);
        expect(error).toBeInstanceOf(HostCallError);
        expect(error.message).toMatch(/created but never became ready/);
        expect(error.initFailure).toMatchObject({ id: "marker-5", properties: { ready: false }, reasons: ["still loading"] });
    });
});
