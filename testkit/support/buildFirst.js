// Jest globalSetup: build (and so type-check) before any test. Host-driven tests run the provider
// the way Pulumi does, from the compiled package (dist/), so a stale build would test old code.
// Also makes the run's directory for the provider hosts' journals of creates under way
// (testkit/host/providerHost.ts), which journalCleanup.js removes at the end: jest's workers do
// not always exit in a way that lets them clean up after themselves.
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

module.exports = async () => {
    const root = path.resolve(__dirname, "..", "..");
    execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: root, stdio: "inherit" });
    process.env.VASTAI_TEST_JOURNALS = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-journals-"));
};
