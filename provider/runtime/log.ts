/**
 * Lines for the person running `pulumi up`. The dynamic-provider host has no engine connection of
 * its own; the engine shows what it prints. Never pass credentials or raw request bodies here.
 */
export function progress(message: string): void {
    process.stdout.write(`vastai: ${message}\n`);
}

export function warn(message: string): void {
    process.stderr.write(`vastai: warning: ${message}\n`);
}
