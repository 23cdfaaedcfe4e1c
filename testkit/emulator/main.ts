import { parseArgs } from "node:util";
import { Emulator } from "./server";

/**
 * `npm run emulator [-- --port 8787 --rate-scale 1]`: the emulator on its own, for trying the
 * provider or the vendor CLI against. Prints its URL and a full-access demo key, runs until stopped.
 */

const USAGE = `usage: npm run emulator -- [options]

A stand-in for the Vast.ai REST API on 127.0.0.1, for trying the provider or the vendor CLI against.
Prints its URL and a full-access demo key, and runs until stopped (Ctrl-C).

options:
  --port <n>         port to listen on (default 0: any free port)
  --rate-scale <x>   multiplies the live service's per-endpoint minimum intervals; 0 turns rate
                     limiting off (default 1: live speed)
  -h, --help         print this and exit`;

/**
 * The options, read strictly: `--port 8787` or `--port=8787`. An unknown option or a value that is
 * not a number is refused: ignored, `--rate-scale=0` left live rate limits on without a word.
 * `parseArgs` splits them (not strict: its errors are worded for programmers); the checks are here.
 */
export function parseEmulatorArgs(args: readonly string[]): { port: number; rateScale: number } | "help" {
    const options = { port: 0, rateScale: 1 };
    const declared = { port: { type: "string" }, "rate-scale": { type: "string" }, help: { type: "boolean", short: "h" } } as const;
    const { tokens } = parseArgs({ args: [...args], options: declared, strict: false, allowPositionals: true, tokens: true });
    for (const token of tokens) {
        if (token.kind !== "option") throw new Error(`unknown option ${token.kind === "positional" ? token.value : "--"}`);
        const name = token.rawName;
        if (token.name === "help") return "help";
        if (token.name !== "port" && token.name !== "rate-scale") throw new Error(`unknown option ${name}`);
        const value = token.value;
        const n = Number(value);
        if (value === undefined || value.trim() === "" || !Number.isFinite(n) || n < 0) throw new Error(`${name} needs a number, got ${value === undefined ? "nothing" : `"${value}"`}`);
        if (token.name === "port" && !(Number.isInteger(n) && n < 65536)) throw new Error(`--port needs a port number (0 to 65535), got "${value}"`);
        if (token.name === "port") options.port = n;
        else options.rateScale = n;
    }
    return options;
}

async function main(): Promise<void> {
    let options: ReturnType<typeof parseEmulatorArgs>;
    try {
        options = parseEmulatorArgs(process.argv.slice(2));
    } catch (e) {
        console.error(`npm run emulator: ${(e as Error).message}\n\n${USAGE}`);
        process.exitCode = 2;
        return;
    }
    if (options === "help") {
        console.log(USAGE);
        return;
    }
    const emu = await Emulator.start({
        port: options.port,
        rateLimitScale: options.rateScale,
        keepProcessAlive: true,
    });
    const offers = [...emu.model.offers.keys()].join(", ");
    console.log(`Vast.ai emulator listening on ${emu.url}`);
    console.log(`demo user ${emu.demoUser.id}, full-access key: ${emu.demoKey}`);
    console.log(`open offers: ${offers}`);
    console.log(`try: VAST_URL=${emu.url} vastai --api-key <key> show instances  (docs/guides/emulator.md; Ctrl-C to stop)`);
    const stop = () => void emu.stop().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
}

if (require.main === module) void main();
