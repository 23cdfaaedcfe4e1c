/** @type {import('jest').Config} */
module.exports = {
    testEnvironment: "node",
    roots: ["<rootDir>/test"],
    testMatch: ["**/*.test.ts"],
    // Type-checking is tsc's job (`npm run build`, run before the tests); jest only transpiles.
    transform: { "^.+\\.ts$": ["ts-jest", { diagnostics: false }] },
    // Examples import the package by name, as users do; here that name is the source.
    moduleNameMapper: { "^pulumi-vastai$": "<rootDir>/provider/index.ts" },
    testTimeout: 60000,
    // Host-driven tests spawn processes; two workers keep a 2-core machine responsive.
    maxWorkers: 2,
};
