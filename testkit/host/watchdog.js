// Preloaded into the dynamic-provider host the tests start (`node --require`): the host exits
// when the test process that started it goes away (its stdin closes), so none is ever left behind.
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
