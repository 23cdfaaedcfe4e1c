import * as pulumi from "@pulumi/pulumi";
import { CONFIG_KEYS, ENV_VARS } from "../../provider/config/providerConfig";

/**
 * The setting a Pulumi program's process runs in, for functions called from it: the stack
 * config the language host hands the program (`vastai:apiKey` marked secret, as
 * `pulumi config set --secret` makes it), the `VAST_*` environment, and the provider's time
 * scale. `restore()` puts everything back, since jest reuses the worker process.
 */
export function programSetting(
    setting: { config?: Record<string, string>; env?: Record<string, string | undefined>; timeScale?: number } = {},
): { restore(): void } {
    const names = [ENV_VARS.apiKey, ENV_VARS.baseUrl, "VASTAI_TIME_SCALE"];
    const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
    const apply = (values: Record<string, string | undefined>) => {
        for (const name of names) {
            if (values[name] === undefined) delete process.env[name];
            else process.env[name] = values[name];
        }
    };
    apply({ ...setting.env, VASTAI_TIME_SCALE: String(setting.timeScale ?? 0.01) });
    pulumi.runtime.setAllConfig(setting.config ?? {}, [CONFIG_KEYS.apiKey]);
    return {
        restore() {
            apply(saved);
            pulumi.runtime.setAllConfig({}, []);
        },
    };
}

/** The stack config that points a program at `emu` with `apiKey`. */
export function stackConfigFor(emu: { url: string }, apiKey: string): Record<string, string> {
    return { [CONFIG_KEYS.apiKey]: apiKey, [CONFIG_KEYS.baseUrl]: emu.url };
}
