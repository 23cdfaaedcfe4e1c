import { Emulator, EmulatorOptions } from "../emulator/server";
import { startEmulator } from "./fixtures";
import { programSetting, stackConfigFor } from "./programConfig";
import { TEST_TIME_SCALE } from "./stack";

/**
 * For a `describe` of functions called from a program: an emulator for the whole block (rate
 * limits at the tests' time scale unless `options` say otherwise), the program's setting pointed
 * at it with the demo key, its request log cleared before each test, and both put back after.
 * Registers its own hooks, so it runs before the block's own `beforeAll`.
 */
export function programEmulator(options: EmulatorOptions = {}): { readonly emu: Emulator } {
    let emu: Emulator | undefined;
    let setting: { restore(): void } | undefined;
    beforeAll(async () => {
        emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE, ...options });
        setting = programSetting({ config: stackConfigFor(emu, emu.demoKey) });
    });
    afterAll(async () => {
        setting?.restore();
        await emu?.stop();
    });
    beforeEach(() => emu?.clearLog());
    return {
        get emu() {
            if (!emu) throw new Error("programEmulator: the emulator is not started yet (use it inside a test or a hook)");
            return emu;
        },
    };
}
