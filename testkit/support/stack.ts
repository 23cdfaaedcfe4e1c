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
    /**
     * Stops the host and starts another, configured the same, for the engine's next commands: as
     * Pulumi runs each command (`up`, `refresh`, `destroy`) in a host process of its own. A
     * test's commands otherwise share one host.
     */
    freshHost(): Promise<void>;
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
    const launch = () => ProviderHost.start({ ...options.host, env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE), ...options.host?.env } });
    const startHost = async () => {
        const started = await launch();
        await started.configure(options.config ?? { "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url });
        return started;
    };
    // Explicit provider resources are the plugin's: the engine runs a plugin process for each.
    const engine = new MiniEngine(await startHost(), options.host?.plugin ? launch : undefined);
    const stack: TestStack = {
        emu,
        host: engine.host,
        engine,
        async freshHost() {
            await engine.stopProviders();
            await engine.host.stop();
            engine.useHost(await startHost());
            stack.host = engine.host;
        },
        async stop() {
            await engine.stopProviders();
            await engine.host.stop();
            await emu.stop();
        },
    };
    return stack;
}
