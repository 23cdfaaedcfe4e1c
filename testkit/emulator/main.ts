import { Emulator } from "./server";

/**
 * `npm run emulator [-- --port 8787 --rate-scale 1]`: the emulator on its own, for trying the
 * provider or the vendor CLI against. Prints its URL and a full-access demo key, runs until stopped.
 */
function flag(name: string): string | undefined {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
}

const USAGE = `usage: npm run emulator -- [options]

A stand-in for the Vast.ai REST API on 127.0.0.1, for trying the provider or the vendor CLI against.
Prints its URL and a full-access demo key, and runs until stopped (Ctrl-C).

options:
  --port <n>         port to listen on (default 0: any free port)
  --rate-scale <x>   multiplies the live service's per-endpoint minimum intervals; 0 turns rate
                     limiting off (default 1: live speed)
  -h, --help         print this and exit`;

async function main(): Promise<void> {
    if (process.argv.includes("--help") || process.argv.includes("-h")) {
        console.log(USAGE);
        return;
    }
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
