import { EmulatorOptions } from "../emulator/server";
import { Emulator } from "../emulator/server";
import { MiniEngine } from "../engine/miniEngine";
import { HostOptions, ProviderHost } from "../host/providerHost";
import { startEmulator } from "./fixtures";

/** The emulator's clock and the provider's waits both run at this fraction of live speed. */
export const TEST_TIME_SCALE = 0.01;

export interface TestStack {
    emu: Emulator;
    host: ProviderHost;
    engine: MiniEngine;
    stop(): Promise<void>;
}

/**
 * An emulator, Pulumi's dynamic-provider host configured for it through stack config, and a
 * mini engine over both: what a `pulumi up` against the emulator needs.
 */
export async function startStack(
    options: { emulator?: EmulatorOptions; host?: HostOptions; config?: Record<string, string> } = {},
): Promise<TestStack> {
    const emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE, ...options.emulator });
    const host = await ProviderHost.start({
        ...options.host,
        env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE), ...options.host?.env },
    });
    await host.configure(options.config ?? { "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url });
    const engine = new MiniEngine(host);
    return {
        emu,
        host,
        engine,
        async stop() {
            await host.stop();
            await emu.stop();
        },
    };
}
