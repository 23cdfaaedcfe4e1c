import { execFileSync, spawnSync } from "child_process";
import * as path from "path";
import { parseEmulatorArgs } from "../../testkit/emulator/main";
import { REPO_ROOT } from "../../testkit/repoRoot";

const main = path.join(REPO_ROOT, "dist", "testkit", "emulator", "main.js");

describe("npm run emulator -- --help", () => {
    it("prints the usage and every option, and exits without starting a server", () => {
        for (const flag of ["--help", "-h"]) {
            const out = execFileSync(process.execPath, [main, flag], { encoding: "utf8", timeout: 30_000 });
            expect(out).toMatch(/^usage: npm run emulator -- \[options\]/);
            for (const option of ["--port <n>", "--rate-scale <x>", "-h, --help"]) expect(out).toContain(option);
            expect(out).not.toContain("listening");
        }
    });

    // Before: `--rate-scale=0` was ignored (live rate limits stayed on without a word), `--port abc`
    // crashed with a stack trace, and an unknown option was ignored.
    it("reads --name value and --name=value; refuses an unknown option or a value that is not a number, starting nothing", () => {
        expect(parseEmulatorArgs([])).toEqual({ port: 0, rateScale: 1 });
        expect(parseEmulatorArgs(["--port", "8787", "--rate-scale=0"])).toEqual({ port: 8787, rateScale: 0 });
        expect(parseEmulatorArgs(["--port=0", "--rate-scale", "0.5"])).toEqual({ port: 0, rateScale: 0.5 });
        expect(() => parseEmulatorArgs(["--rate-scale", "fast"])).toThrow('--rate-scale needs a number, got "fast"');
        expect(() => parseEmulatorArgs(["--port"])).toThrow("--port needs a number, got nothing");
        expect(() => parseEmulatorArgs(["--port", "80.5"])).toThrow("--port needs a port number");
        expect(() => parseEmulatorArgs(["--rate", "0"])).toThrow("unknown option --rate");
        expect(() => parseEmulatorArgs(["stray"])).toThrow("unknown option stray");
        expect(parseEmulatorArgs(["--port", "1", "-h"])).toBe("help");

        const run = spawnSync(process.execPath, [main, "--port", "abc"], { encoding: "utf8", timeout: 30_000 });
        expect(run.status).toBe(2);
        expect(run.stderr).toContain('npm run emulator: --port needs a number, got "abc"');
        expect(run.stderr).toContain("usage: npm run emulator");
        expect(run.stdout).not.toContain("listening");
    });
});
