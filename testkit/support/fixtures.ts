import { Pacer } from "../../provider/client/pacer";
import { VastClient, VastClientOptions } from "../../provider/client/vastClient";
import { Emulator, EmulatorOptions } from "../emulator/server";

/**
 * Fast defaults for tests: no rate limits unless asked, instances running within ~60 ms, a
 * destroyed instance's offer rentable again 50 ms later, a serverless group's workers rented 30 ms on.
 */
export function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
    return Emulator.start({
        rateLimitScale: 0,
        instanceTimings: { loadingAfterMs: 20, runningAfterMs: 60 },
        offerReturnAfterMs: 50,
        autoscalerRoundMs: 30,
        ...options,
    });
}

/** A client for the emulator with its own pacer and short retry delays, so tests do not wait. */
export function clientFor(emu: Emulator, options: Partial<VastClientOptions> = {}): VastClient {
    return new VastClient({
        apiKey: emu.demoKey,
        baseUrl: emu.url,
        pacer: new Pacer(),
        paceScale: 0,
        retry: { baseDelayMs: 5, maxDelayMs: 40 },
        timeoutMs: 5000,
        ...options,
    });
}

/** Waits until `check` returns something truthy, polling every `everyMs`, or fails after `withinMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, withinMs = 5000, everyMs = 20): Promise<T> {
    const deadline = Date.now() + withinMs;
    for (;;) {
        const value = await check();
        if (value) return value;
        if (Date.now() > deadline) throw new Error(`condition not met within ${withinMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
}
