// Preloaded into the dynamic-provider host, the provider plugin and the policy packs the tests start (`node --require`): each exits
// when the test process that started it goes away (its stdin closes), so none is ever left behind.
// Only in the host itself: through NODE_OPTIONS it is also preloaded into the plugin script's own `node -e`.
// A host started behind a stand-in for the engine watches the test process by its pid instead:
// its stdin closes with the stand-in, which a test kills while the host must go on.
const testPid = Number(process.env.VASTAI_WATCHDOG_PID);
if (process.argv[1] && process.argv[1].includes("dynamic-provider") && testPid) {
    setInterval(() => {
        try {
            process.kill(testPid, 0);
        } catch {
            process.exit(0);
        }
    }, 500).unref();
} else if (process.argv[1] && /dynamic-provider|run-policy-pack|plugin[\\/]main\.js/.test(process.argv[1])) {
    process.stdin.on("end", () => process.exit(0));
    process.stdin.on("error", () => process.exit(0));
    process.stdin.resume();
}
