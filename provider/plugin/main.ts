// pulumi-resource-vastai: started by the engine with its own address as the argument; it prints the
// port it serves on as the first line of stdout, as every Pulumi plugin does.
import { serve } from "./server";

if (process.argv.length < 3) {
    process.stderr.write("usage: pulumi-resource-vastai <engine address> (the Pulumi engine starts this plugin)\n");
    process.exit(1);
}
serve().then(
    (port) => process.stdout.write(`${port}\n`),
    (e) => {
        process.stderr.write(`pulumi-resource-vastai: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
    },
);
