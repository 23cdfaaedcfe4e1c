import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Emulator } from "../emulator/server";
import { ProviderHost } from "../host/providerHost";
import { makeProgramDir } from "./programDir";
import { TEST_TIME_SCALE } from "./stack";

export interface FreshMachineOptions {
    /** The provider plugin rather than the dynamic-provider host (`HostOptions.plugin`). */
    plugin?: boolean;
    stack?: string;
    project?: string;
}

/**
 * A host on a machine of its own, as a disposable CI runner is: an empty HOME and a working
 * directory of its own (a copy of the package, `makeProgramDir`), nothing from another run but
 * what the service keeps. Configured for `emu` through stack config; the caller stops it.
 */
export async function hostOnFreshMachine(emu: Emulator, options: FreshMachineOptions = {}): Promise<ProviderHost> {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-home-"));
    const program = makeProgramDir("repository");
    const host = await ProviderHost.start({
        cwd: program.cwd,
        stack: options.stack,
        project: options.project,
        plugin: options.plugin,
        env: { HOME: home, VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) },
    });
    await host.configure({ "vastai:apiKey": emu.demoKey, "vastai:baseUrl": emu.url });
    return host;
}
