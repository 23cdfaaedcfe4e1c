import { execFileSync } from "child_process";
import * as path from "path";
import { REPO_ROOT } from "../../testkit/repoRoot";

describe("npm run emulator -- --help", () => {
    it("prints the usage and every option, and exits without starting a server", () => {
        const main = path.join(REPO_ROOT, "dist", "testkit", "emulator", "main.js");
        for (const flag of ["--help", "-h"]) {
            const out = execFileSync(process.execPath, [main, flag], { encoding: "utf8", timeout: 30_000 });
            expect(out).toMatch(/^usage: npm run emulator -- \[options\]/);
            for (const option of ["--port <n>", "--rate-scale <x>", "-h, --help"]) expect(out).toContain(option);
            expect(out).not.toContain("listening");
        }
    });
});
