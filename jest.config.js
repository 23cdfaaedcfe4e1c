/** @type {import('jest').Config} */
module.exports = {
    testEnvironment: "node",
    roots: ["<rootDir>/test"],
    testMatch: ["**/*.test.ts"],
    // Type-checking is tsc's job: the build runs (incrementally) before any test, and a type error
    // stops the run. Jest itself only transpiles.
    globalSetup: "<rootDir>/testkit/support/buildFirst.js",
    transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
    // Examples import the package by name, as users do; here that name is the source.
    moduleNameMapper: { "^pulumi-vastai$": "<rootDir>/provider/index.ts" },
    testTimeout: 60000,
    // Host-driven tests spawn processes; two workers keep a 2-core machine responsive.
    maxWorkers: 2,
    // Host-driven suites grow a worker's heap past a gigabyte; a worker that large can take longer to
    // exit than jest waits (it then force-exits it with a warning). Workers above this are replaced
    // between test files, so the ones left at the end are small.
    workerIdleMemoryLimit: "800MB",
};
