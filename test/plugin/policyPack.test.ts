import * as fs from "fs";
import * as os from "os";
import * as pulumi from "@pulumi/pulumi";
import { Instance, Template } from "../../provider";
import { PluginResource } from "../../testkit/host/pluginResource";
import { PolicyPackHost } from "../../testkit/policy/policyPackHost";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * The guardrails pack judges a stack the same whichever door its resources came through: the
 * dynamic classes (`pulumi-nodejs:dynamic/vastai:Instance`) or the plugin (`vastai:index:Instance`).
 * One program, declared both ways, gets the same violations.
 */
type Path = "dynamic" | "plugin";

const budgetProgram = (path: Path) => (): pulumi.Resource[] => {
    const trainer = { offer: { filters: { gpu_name: { eq: "RTX 4090" } }, maxPricePerHour: 1.5 }, image: "busybox" };
    const worker = { offer: { filters: { gpu_name: { eq: "RTX 4090" } }, type: "bid" as const }, price: 1, image: "busybox" };
    const open = { name: "open", image: "busybox", private: false };
    if (path === "dynamic") return [new Instance("trainer", trainer), new Instance("worker", worker), new Template("open", open)];
    return [new PluginResource("instance", "trainer", trainer), new PluginResource("instance", "worker", worker), new PluginResource("template", "open", open)];
};

describe.each<Path>(["dynamic", "plugin"])("the policy pack, resources through the %s path", (path) => {
    let stack: TestStack;
    let pack: PolicyPackHost;
    let dir: string;
    beforeAll(async () => {
        dir = fs.mkdtempSync(`${os.tmpdir()}/vastai-policy-`);
        [stack, pack] = await Promise.all([startStack({ host: { plugin: path === "plugin" } }), PolicyPackHost.start({ packDir: `${REPO_ROOT}/policy` })]);
        stack.engine.policyPack = pack;
    });
    afterAll(async () => {
        await Promise.all([stack.stop(), pack.stop()]);
        fs.rmSync(dir, { recursive: true, force: true });
    });

    it("finds the same budget and private-template violations", async () => {
        const config = `${dir}/config.json`;
        fs.writeFileSync(config, JSON.stringify({ "vastai-stack-budget": { maxPricePerHour: 2.4 } }));
        await pack.configure(config);
        await stack.engine.preview(budgetProgram(path));
        const found = stack.engine.policyDiagnostics.map((d) => [d.policyName, d.enforcementLevel, d.message.replace(/^[^\n]*\n/, "")]);
        expect(found).toEqual(
            expect.arrayContaining([
                ["vastai-stack-budget", "mandatory", expect.stringContaining("the stack's worst case is $2.5/hour")],
                ["vastai-stack-budget", "mandatory", expect.stringContaining('Instance "trainer" $1.5/hour (offer.maxPricePerHour)')],
                ["vastai-private-templates", "mandatory", expect.stringContaining('Template "open"')],
            ]),
        );
        expect(found.map(([policy]) => policy).sort()).toEqual(["vastai-private-templates", "vastai-stack-budget"]);
    });
});
