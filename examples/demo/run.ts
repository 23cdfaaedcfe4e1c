import { VastClient, resolveConfig } from "../../provider";
import { Emulator } from "../../test/emulator/server";

/**
 * The main job on the built-in default: starts the Vast.ai emulator on 127.0.0.1 and runs the
 * client against it through the same configuration path a stack uses (VAST_URL, VAST_API_KEY).
 */
async function main(): Promise<void> {
    const emu = await Emulator.start({ rateLimitScale: 0.05 });
    try {
        console.log(`emulator: ${emu.url}`);
        const config = resolveConfig(undefined, { VAST_URL: emu.url, VAST_API_KEY: emu.demoKey });
        const vast = new VastClient({ ...config, paceScale: 0.05 });

        const user = await vast.account.currentUser();
        console.log(`account: user ${user.id} <${user.email}>, credit $${user.credit}`);

        const machines = await vast.account.machines(user.id);
        for (const m of machines) {
            console.log(`machine ${m.id}: ${m.num_gpus}× ${m.gpu_name}, ${((m.gpu_ram ?? 0) / 1024 ** 3).toFixed(0)} GiB each`);
        }

        const template = await vast.templates.create({
            name: "demo-trainer",
            image: "pytorch/pytorch",
            tag: "2.3.0-cuda12.1-cudnn8-runtime",
            env: "-e MODE=train -p 8888:8888",
            runtype: "ssh",
            docker_login_repo: "",
            docker_login_user: "",
            docker_login_pass: "",
        });
        console.log(`template ${template.id} created, hash_id ${template.hash_id}`);
        const edited = await vast.templates.edit({ hash_id: template.hash_id, tag: "2.4.0-cuda12.4-cudnn9-runtime" });
        console.log(`template ${edited.id} edited, new hash_id ${edited.hash_id}`);

        const visible = await vast.templates.search({ recommended: { eq: true } });
        console.log(`recommended templates visible: ${visible.map((t) => `${t.id} "${t.name}"`).join(", ")}`);

        await vast.templates.delete(template.id);
        console.log(`template ${template.id} deleted`);
    } finally {
        await emu.stop();
    }
}

main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
});
