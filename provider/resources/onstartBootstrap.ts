import { createHash } from "crypto";
import { gzipSync } from "zlib";
import { INSTANCE_LIMITS } from "../schemas/limits";

/**
 * The service takes at most 4048 characters of `onstart`, and 4096 for `args` + `args_str` +
 * `onstart` together; longer scripts "must be compressed and encoded by the client" (docs/service-contract.md
 * §4.7). A script over the limits is sent as a short command that restores it and runs it:
 *
 *     f="${TMPDIR:-/tmp}/vastai-onstart-<sha>.sh";echo '<gzip, base64>'|base64 -d|gunzip>"$f"&&$(command -v bash||echo sh) "$f"
 *
 * gzip and base64 are used because every image that has a shell has them (coreutils and gzip are
 * essential packages on Debian and Ubuntu; busybox has both). A script starting with `#!` is run
 * by its own interpreter; any other with bash, or sh where there is no bash. Only the request
 * carries the command: inputs, state and diffs keep the user's script.
 */

/** What goes into the request for a script, and whether it was encoded. */
export interface OnstartPlan {
    /** The `onstart` to send. */
    onstart: string;
    encoded: boolean;
    /** Set when even the encoded form breaks a limit: the sizes, in words. */
    problem?: string;
}

/** The command that restores `script` byte for byte into a file and runs it. */
export function bootstrapCommand(script: string): string {
    const payload = gzipSync(Buffer.from(script, "utf8"), { level: 9, memLevel: 9 }).toString("base64");
    // Named by content, so two scripts on one machine never overwrite each other.
    const name = createHash("sha256").update(script).digest("hex").slice(0, 12);
    const run = script.startsWith("#!") ? `chmod +x "$f"&&"$f"` : `$(command -v bash||echo sh) "$f"`;
    return `f="\${TMPDIR:-/tmp}/vastai-onstart-${name}.sh";echo '${payload}'|base64 -d|gunzip>"$f"&&${run}`;
}

/**
 * The `onstart` to send for `script`, given how many characters `args` and `args_str` take. The
 * script goes as it is when it fits; otherwise encoded, and if that still does not fit, `problem`
 * says by how much.
 */
export function planOnstart(script: string, otherCommandChars: number): OnstartPlan {
    const { onstartMax, commandTotalMax } = INSTANCE_LIMITS;
    const fits = (text: string) => text.length <= onstartMax && text.length + otherCommandChars <= commandTotalMax;
    if (fits(script)) return { onstart: script, encoded: false };

    const command = bootstrapCommand(script);
    if (fits(command)) return { onstart: command, encoded: true };

    const smallest = Math.min(command.length, script.length);
    const over: string[] = [];
    if (smallest > onstartMax) over.push(`onstart may be at most ${onstartMax}`);
    if (smallest + otherCommandChars > commandTotalMax) {
        over.push(`args + argsStr + onstart may be at most ${commandTotalMax} together (args and argsStr take ${otherCommandChars})`);
    }
    return {
        onstart: script,
        encoded: false,
        problem:
            `onstart is ${script.length} characters; compressed and encoded it is still ${command.length}, ` +
            `and the service's limits are ${over.join("; ")}. Shorten the script, or fetch it at start ` +
            "(for example curl a file from a repository and run it)",
    };
}

/** The characters `args` and `args_str` count towards the service's total for commands. */
export function otherCommandChars(args: readonly string[] | undefined, argsStr: string | undefined): number {
    return (args ?? []).join(" ").length + (argsStr ?? "").length;
}

/**
 * A template's `onstart` as an instance made from it carries it: the template's own `args_str`
 * beside it (the instance's, when it gives one), compressed as an instance's own script is when it
 * does not fit (docs/design/template-create.md, "A long onstart"). `problem` is set when even the
 * compressed form breaks the create's limits.
 */
export function planTemplateOnstart(script: string, templateArgsStr: string | undefined, instanceArgs?: { args?: readonly string[]; argsStr?: string }): OnstartPlan {
    return planOnstart(script, otherCommandChars(instanceArgs?.args, instanceArgs?.argsStr ?? templateArgsStr));
}
