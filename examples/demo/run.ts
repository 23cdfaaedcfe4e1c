import * as path from "path";
import { templatesFromFiles } from "pulumi-vastai";
import { Emulator } from "../../testkit/emulator/server";
import { MiniEngine, UpSummary } from "../../testkit/engine/miniEngine";
import { ProviderHost } from "../../testkit/host/providerHost";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { quickstart } from "../quickstart/program";

/**
 * The main job on the built-in default: the Vast.ai emulator on 127.0.0.1 stands in for the
 * service, Pulumi's own dynamic-provider host runs the provider, and a small engine drives the
 * example programs through `up`, an edit, `refresh` and `destroy`, as the Pulumi CLI would.
 */
const TIME_SCALE = 0.05;

/** Prints what the provider said during a step (its progress lines), then the step's summary. */
function show(step: string, summary: UpSummary, said: string[]): void {
    const parts = [
        ...summary.create.map((n) => `+ ${n} created`),
        ...summary.update.map((n) => `~ ${n} updated`),
        ...summary.replace.map((r) => `+- ${r.name} replaced (${r.because.join(", ")})`),
        ...summary.delete.map((n) => `- ${n} deleted`),
        ...summary.same.map((n) => `  ${n} unchanged`),
    ];
    console.log(`\n$ ${step}`);
    for (const line of said) console.log(`    | ${line}`);
    console.log(parts.map((p) => `    ${p}`).join("\n"));
}

async function main(): Promise<void> {
    // The emulator's clock at the same pace: limits, boot times, and the moment a freed offer takes to return.
    const emu = await Emulator.start({
        rateLimitScale: TIME_SCALE,
        instanceTimings: { loadingAfterMs: 200, runningAfterMs: 600 },
        offerReturnAfterMs: 5000 * TIME_SCALE,
    });
    const host = await ProviderHost.start({ cwd: REPO_ROOT, project: "vastai-quickstart", stack: "dev", env: { VASTAI_TIME_SCALE: String(TIME_SCALE) } });
    try {
        console.log(`emulator: ${emu.url} (live rate limits at ${TIME_SCALE}x time)`);
        // What `pulumi config set --secret vastai:apiKey` and `vastai:baseUrl` give the provider.
        await host.configure({ "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url });
        const engine = new MiniEngine(host);
        let seen = 0;
        const said = () => host.output.slice(seen, (seen = host.output.length));
        const sshPublicKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOfTheQuickstartExample demo@laptop";
        const program = (imageTag: string) => quickstart({ imageTag, sshPublicKey }).resources;

        show("pulumi up", await engine.up(() => program("2.3.0-cuda12.1-cudnn8-runtime")), said());
        const outputs = (name: string) => engine.get(name).outputs;
        console.log(`    template ${outputs("trainer").templateId} hashId ${outputs("trainer").hashId}`);
        const gpu = outputs("gpu");
        console.log(`    instance ${gpu.instanceId} ${gpu.actualStatus} on ${gpu.numGpus} × ${gpu.gpuName} at $${gpu.dphTotal}/hour (offer ${gpu.rentedOfferId}, the cheapest match)`);
        console.log(`    ssh -p ${gpu.sshPort} root@${gpu.sshHost}`);

        show("pulumi up   # imageTag changed", await engine.up(() => program("2.4.0-cuda12.4-cudnn9-runtime")), said());
        console.log(`    template ${outputs("trainer").templateId} new hashId ${outputs("trainer").hashId}; instance ${outputs("gpu").instanceId}`);

        await engine.refresh();
        show("pulumi refresh && pulumi up", await engine.up(() => program("2.4.0-cuda12.4-cudnn9-runtime")), said());

        const files = path.join(REPO_ROOT, "examples", "templates-from-files", "templates");
        const withFiles = () => ({
            ...program("2.4.0-cuda12.4-cudnn9-runtime"),
            ...templatesFromFiles(files, { secrets: { "private-inference": { dockerLoginPass: "demo-registry-token" } } }),
        });
        show("pulumi up   # and examples/templates-from-files", await engine.up(withFiles), said());

        const destroyed = await engine.destroy();
        console.log(`\n$ pulumi destroy`);
        for (const line of said()) console.log(`    | ${line}`);
        console.log(destroyed.map((n) => `    - ${n} deleted`).join("\n"));
        const templates = [...emu.model.templates.values()].filter((t) => !t.deleted && t.creator_id === emu.demoUser.id);
        console.log(`\nleft on the account: ${templates.length} templates, ${emu.liveInstances().length} instances`);
    } finally {
        await host.stop();
        await emu.stop();
    }
}

main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
});
