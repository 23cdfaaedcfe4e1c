import * as path from "path";
import { Instance, templatesFromFiles } from "pulumi-vastai";
import { Emulator } from "../../testkit/emulator/server";
import { MiniEngine, Program, UpSummary } from "../../testkit/engine/miniEngine";
import { followHost, renderDrift, renderOutputs, renderPlan, renderPolicies, renderStep, renderSummary, snapshotOutputs } from "../../testkit/engine/render";
import { ProviderHost } from "../../testkit/host/providerHost";
import { PluginResource } from "../../testkit/host/pluginResource";
import { PolicyPackHost } from "../../testkit/policy/policyPackHost";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { clientFor } from "../../testkit/support/fixtures";
import { quickstart } from "../quickstart/program";

/**
 * The main job on the built-in default: the Vast.ai emulator on 127.0.0.1 stands in for the
 * service, Pulumi's own dynamic-provider host runs the provider, and a small engine drives the
 * quickstart program (examples/quickstart, what the root Pulumi.yaml runs) as the Pulumi CLI would:
 * preview and `up`, an edit, a change made behind the program's back that `refresh` shows, the
 * `up` that puts it back, more templates from files, and `destroy`. Every command runs the
 * package's policy pack (policy/) with examples/quickstart/policy-config.json. It prints what the CLI prints.
 */
const TIME_SCALE = 0.05;
const POLICY_CONFIG = "examples/quickstart/policy-config.json";
const STACK = "dev";
const print = (line = "") => console.log(line);

async function main(): Promise<void> {
    // The emulator's clock at the same pace: limits, boot times, and the moment a freed offer takes to return.
    const emu = await Emulator.start({
        rateLimitScale: TIME_SCALE,
        instanceTimings: { loadingAfterMs: 200, runningAfterMs: 600 },
        offerReturnAfterMs: 5000 * TIME_SCALE,
    });
    const [host, pack] = await Promise.all([
        ProviderHost.start({ cwd: REPO_ROOT, project: "vastai-quickstart", stack: STACK, env: { VASTAI_TIME_SCALE: String(TIME_SCALE) } }),
        PolicyPackHost.start({ packDir: path.join(REPO_ROOT, "policy"), configFile: path.join(REPO_ROOT, POLICY_CONFIG), project: "vastai-quickstart", stack: STACK }),
    ]);
    // The host's lines (the provider's progress while an instance boots, warnings, stderr) as they come.
    const hostLines = followHost(host, print);
    try {
        print(`emulator: ${emu.url} (live rate limits at ${TIME_SCALE}x time)`);
        print(`policy pack: ${pack.pack}; every command below runs with --policy-pack policy --policy-pack-config ${POLICY_CONFIG}`);
        // What `pulumi config set --secret vastai:apiKey` and `vastai:baseUrl` give the provider.
        await host.configure({ "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url });
        const engine = new MiniEngine(host);
        engine.policyPack = pack;
        // As the CLI, unchanged resources are not listed.
        engine.onStep = (event) => {
            hostLines.flush();
            if (event.op !== "same") print(renderStep(event));
        };
        const sshPublicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOfTheQuickstartExample demo@laptop";
        const program = (imageTag: string) => () => quickstart({ imageTag, sshPublicKey }).resources;
        // examples/quickstart/index.ts exports these.
        const stackOutputs = () => {
            const trainer = engine.get("trainer").outputs;
            const gpu = engine.get("gpu").outputs;
            const datasets = engine.get("datasets").outputs;
            return {
                templateHashId: trainer.hashId,
                instanceId: gpu.instanceId,
                gpu: `${gpu.numGpus} × ${gpu.gpuName} at $${gpu.dphTotal}/hour (offer ${gpu.rentedOfferId})`,
                status: gpu.actualStatus,
                sshCommand: `ssh -p ${gpu.sshPort} root@${gpu.sshHost}`,
                datasets: `volume ${datasets.volumeId}, ${datasets.sizeGb} GB on machine ${datasets.machineId} at $${datasets.storageCostPerGbMonth}/GB-month, at /data`,
            };
        };
        const timed = async (work: () => Promise<UpSummary>) => {
            const started = Date.now();
            const summary = await work();
            hostLines.flush();
            return { summary, seconds: (Date.now() - started) / 1000 };
        };
        const up = async (command: string, next: Program) => {
            print(`\n$ ${command}`);
            print(`Previewing update (${STACK}):`);
            renderPlan(await engine.preview(next)).forEach((l) => print(l));
            print();
            renderPolicies(pack.pack, engine.policyDiagnostics).forEach((l) => print(l));
            print(`\nUpdating (${STACK}):`);
            const { summary, seconds } = await timed(() => engine.up(next));
            print();
            renderOutputs(stackOutputs()).forEach((l) => print(l));
            print();
            renderPolicies(pack.pack, engine.policyDiagnostics).forEach((l) => print(l));
            print();
            renderSummary(summary, seconds).forEach((l) => print(l));
        };

        await up("pulumi up --yes", program("2.3.0-cuda12.1-cudnn8-runtime"));

        // A second GPU would take the stack's worst case past its budget: the policy pack says so in
        // the preview, and `pulumi up`, which previews first, would stop before renting anything.
        print(`\n$ pulumi preview   # with a second GPU of up to $0.9/hour`);
        print(`Previewing update (${STACK}):`);
        const second = () => ({
            ...program("2.3.0-cuda12.1-cudnn8-runtime")(),
            eval: new Instance("eval", { offer: { filters: { gpu_name: { eq: "RTX 4090" } }, maxPricePerHour: 0.9 }, image: "pytorch/pytorch", disk: 32 }),
        });
        renderPlan(await engine.preview(second)).forEach((l) => print(l));
        print();
        renderPolicies(pack.pack, engine.policyDiagnostics).forEach((l) => print(l));

        const edited = program("2.4.0-cuda12.4-cudnn9-runtime");
        await up("pulumi config set imageTag 2.4.0-cuda12.4-cudnn9-runtime && pulumi up --yes", edited);

        // Someone renames the instance in the console; the program does not know.
        const gpuId = Number(engine.get("gpu").id);
        await clientFor(emu).instances.label(gpuId, "renamed-in-console");
        print(`\n# meanwhile, in the web console: instance ${gpuId} relabelled "renamed-in-console"`);
        print(`\n$ pulumi refresh --yes`);
        print(`Refreshing (${STACK}):`);
        const before = snapshotOutputs(engine);
        const refreshed = await timed(() => engine.refresh());
        renderDrift(before, engine).forEach((l) => print(l));
        print();
        renderSummary(refreshed.summary, refreshed.seconds).forEach((l) => print(l));
        await up("pulumi up --yes   # puts the label back", edited);

        const files = path.join(REPO_ROOT, "examples", "templates-from-files", "templates");
        await up("pulumi up --yes   # with the templates of examples/templates-from-files added", () => ({
            ...edited(),
            ...templatesFromFiles(files, { secrets: { "private-inference": { dockerLoginPass: "demo-registry-token" } } }),
        }));

        print(`\n$ pulumi destroy --yes`);
        print(`Previewing destroy (${STACK}):`);
        renderPlan([...engine.state.values()].reverse().map((e) => ({ op: "delete", name: e.name, type: e.type, because: [] }))).forEach((l) => print(l));
        print(`\nDestroying (${STACK}):`);
        const destroyed = await timed(async () => ({ create: [], import: [], update: [], replace: [], same: [], delete: await engine.destroy() }));
        print();
        renderSummary(destroyed.summary, destroyed.seconds).forEach((l) => print(l));

        const templates = [...emu.model.templates.values()].filter((t) => !t.deleted && t.creator_id === emu.demoUser.id);
        const instances = emu.liveInstances();
        const volumes = emu.liveVolumes();
        print(`\nleft on the account: ${templates.length} templates, ${instances.length} instances, ${volumes.length} volumes`);
        if (templates.length > 0 || instances.length > 0 || volumes.length > 0 || engine.state.size > 0) throw new Error("the demo left resources behind");

        await fromAnotherLanguage(emu, print);
    } finally {
        hostLines.stop();
        await Promise.all([host.stop(), pack.stop()]);
        await emu.stop();
    }
}

/**
 * The same resources as a Python, Go, C#, Java or YAML program declares them, through the provider
 * plugin (examples/python, examples/yaml): plain type tokens, and a plan that lists only what the
 * program changed, from the plugin's detailed diff.
 */
async function fromAnotherLanguage(emu: Emulator, print: (line?: string) => void): Promise<void> {
    print("\n# The same provider from Python, Go, C#, Java or YAML: the plugin pulumi-resource-vastai (docs/guides/other-languages.md)");
    const plugin = await ProviderHost.start({ plugin: true, cwd: REPO_ROOT, project: "vastai-python", stack: STACK, env: { VASTAI_TIME_SCALE: String(TIME_SCALE) } });
    const lines = followHost(plugin, print);
    try {
        await plugin.configure({ "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url });
        const engine = new MiniEngine(plugin);
        engine.onStep = (event) => {
            lines.flush();
            if (event.op !== "same") print(renderStep(event));
        };
        const program = (label: string) => () => {
            const trainer = new PluginResource("template", "trainer", { name: "trainer", image: "pytorch/pytorch", tag: "2.3.0-cuda12.1-cudnn8-runtime", runtype: "ssh", sshDirect: true });
            const gpu = new PluginResource("instance", "gpu", {
                offer: { filters: { gpu_name: { in: ["RTX 4090", "RTX 3090"] } }, order: [["dph_total", "asc"]], maxPricePerHour: 0.5 },
                templateHashId: trainer.output("hashId"),
                disk: 40,
                label,
            });
            return [trainer, gpu];
        };
        for (const [command, next] of [["pulumi up --yes", program("trainer")], ["pulumi up --yes   # a new label", program("trainer-2")]] as const) {
            print(`\n$ ${command}`);
            print(`Previewing update (${STACK}):`);
            renderPlan(await engine.preview(next)).forEach((l) => print(l));
            print(`\nUpdating (${STACK}):`);
            await engine.up(next);
            lines.flush();
        }
        print(`\n$ pulumi destroy --yes`);
        await engine.destroy();
        lines.flush();
        print(`left on the account: ${emu.liveInstances().length} instances`);
        if (emu.liveInstances().length > 0 || engine.state.size > 0) throw new Error("the plugin's part of the demo left resources behind");
    } finally {
        lines.stop();
        await plugin.stop();
    }
}

main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
});
