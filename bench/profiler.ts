import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { HostSetup } from "./steps";

/**
 * Preloaded into a profiled host: profiles it from its start with the inspector and writes the
 * profile when the host is stopped (SIGTERM); `--cpu-prof` is not allowed in NODE_OPTIONS. It samples
 * every 0.1 ms (V8's default is 1 ms), fine enough to see the few ms before a host's first call.
 */
const PROFILER = path.join(os.tmpdir(), "vastai-bench-profiler.js");
const PROFILER_TEXT = `
const inspector = require("inspector");
const session = new inspector.Session();
session.connect();
session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 100 }, () => session.post("Profiler.start")));
process.on("SIGTERM", () => session.post("Profiler.stop", (err, { profile }) => {
    require("fs").writeFileSync(require("path").join(process.env.VASTAI_BENCH_PROFILE_DIR, "host-" + process.pid + ".cpuprofile"), JSON.stringify(profile));
    process.exit(0);
}));
`;

/**
 * `setup` with its host profiled into `dir` (a V8 CPU profile per host, `host-<pid>.cpuprofile`,
 * to open in Chrome's DevTools); `setup` itself when no directory is given.
 */
export function profiled(setup: HostSetup, dir: string | undefined): HostSetup {
    if (!dir) return setup;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(PROFILER, PROFILER_TEXT);
    return { ...setup, env: { ...setup.env, NODE_OPTIONS: `--require ${PROFILER}`, VASTAI_BENCH_PROFILE_DIR: path.resolve(dir) } };
}
