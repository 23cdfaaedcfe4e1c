import { Emulator } from "./server";

/**
 * `npm run emulator [-- --port 8787 --rate-scale 1]`: the emulator on its own, for trying the
 * provider or the vendor CLI against. Prints its URL and a full-access demo key, runs until stopped.
 */
function flag(name: string): string | undefined {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
    const emu = await Emulator.start({
        port: Number(flag("port") ?? 0),
        rateLimitScale: Number(flag("rate-scale") ?? 1),
        keepProcessAlive: true,
    });
    const offers = [...emu.model.offers.keys()].join(", ");
    console.log(`Vast.ai emulator listening on ${emu.url}`);
    console.log(`demo user ${emu.demoUser.id}, full-access key: ${emu.demoKey}`);
    console.log(`open offers: ${offers}`);
    console.log(`try: VAST_URL=${emu.url} vastai --api-key <key> show instances  (README "Use the emulator with other tools"; Ctrl-C to stop)`);
    const stop = () => void emu.stop().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
}

void main();
