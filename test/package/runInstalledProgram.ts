import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Program } from "../../testkit/engine/miniEngine";
import { startStack } from "../../testkit/support/stack";

/**
 * `node dist/test/package/runInstalledProgram.js <programDir> <compiled entry>`: runs a user's
 * compiled Pulumi program through `up`, `refresh` and `destroy` against the emulator, with Pulumi's
 * dynamic-provider host started in the program's directory, and prints one JSON line of what
 * happened. A process of its own, so `pulumi-vastai` is what the program's node_modules holds (jest
 * maps that name to this repository's source). Used by packInstall.test.ts.
 */
async function main(): Promise<void> {
    const [programDir, entry] = process.argv.slice(2);
    // The program reads files relative to its directory, as under `pulumi up`.
    process.chdir(programDir);
    const stack = await startStack({ host: { cwd: programDir, project: "user-program", stack: "dev" } });
    try {
        let exported: Record<string, pulumi.Output<unknown>> = {};
        // A program is a module run for its effects; the engine waits on what a program returns, so
        // it is handed the stack outputs: each settles once the resources it comes from are created.
        const program: Program = () => {
            exported = require(path.resolve(programDir, entry));
            return Object.values(exported).map((output) => ({ urn: output }) as unknown as pulumi.Resource);
        };
        const [up] = await stack.engine.run([{ up: program }, { refresh: true }]);
        const outputs = Object.fromEntries(
            await Promise.all(Object.entries(exported).map(async ([name, output]) => [name, await (output as any).promise()])),
        );
        const providers = [...stack.engine.state.values()].map((entry) => String(entry.outputs.__provider));
        const [, destroyed] = await stack.engine.run([{ refresh: true }, { destroy: true }]);
        const left = {
            instances: stack.emu.liveInstances().length,
            templates: [...stack.emu.model.templates.values()].filter((t) => t.creator_id === stack.emu.demoUser.id && !t.deleted).length,
        };
        console.log(JSON.stringify({ up, outputs, providers, destroyed: destroyed.delete, left }));
    } finally {
        await stack.stop();
    }
}

main().catch((e) => {
    console.error(e instanceof Error ? e.stack ?? e.message : e);
    process.exit(1);
});
