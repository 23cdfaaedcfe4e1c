// Jest globalSetup: build (and so type-check) before any test. Host-driven tests run the provider
// the way Pulumi does, from the compiled package (dist/), so a stale build would test old code.
const { execFileSync } = require("child_process");
const path = require("path");

module.exports = async () => {
    const root = path.resolve(__dirname, "..", "..");
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: root, stdio: "inherit" });
};
