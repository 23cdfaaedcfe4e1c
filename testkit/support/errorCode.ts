/**
 * The code a failure shows at the end of its message (`... [offer_gone]`, docs/errors.md), as the
 * engine prints it; the host's last lines the test engine adds after a failed step are not read.
 */
export function codeIn(failure: unknown): string | undefined {
    const message = failure instanceof Error ? failure.message : String(failure);
    const said = message.split("\nprovider host, last lines of this step:")[0];
    return /\[([a-z_]+)\]\s*$/.exec(said)?.[1];
}
