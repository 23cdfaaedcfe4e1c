#!/usr/bin/env node
import { parseArgs } from "node:util";
import { EXPORT_USAGE, ExportOptions, Io, exportTemplatesCommand } from "./exportTemplates";
import { ProviderError, codeShown } from "../errors/providerError";

/**
 * The `pulumi-vastai` command (package.json `bin`). One command for now: `export-templates`.
 * Exit codes: 0 done, 1 refused or failed (or a template not exported), 2 a usage mistake.
 */

const USAGE = `Usage: pulumi-vastai <command> [options]

Commands:
  export-templates   write this account's templates as files for templatesFromFiles

Run \`pulumi-vastai export-templates --help\` for its options.`;

class UsageError extends ProviderError {
    constructor(message: string) {
        super("cli_usage", message);
    }
}

/** Flags that would put the key on the command line, refused by name. */
const KEY_FLAGS = ["--api-key", "--apikey", "--key", "--token"];

/** The export's options as `parseArgs` declares them; `--id` may be given more than once. */
const EXPORT_OPTIONS = {
    out: { type: "string" },
    id: { type: "string", multiple: true },
    "api-key-file": { type: "string" },
    force: { type: "boolean" },
    help: { type: "boolean", short: "h" },
} as const;

/**
 * The export's options, read strictly. `parseArgs` splits them; the checks it lacks are made here,
 * each with its own message: a value is `--out dir` or `--out=dir`, never the next option (`--out
 * --force`); a switch takes no value (`--force=false` is refused, not read as on); an option other
 * than `--id` is given once; `--id` is a positive whole number written in decimal (`1e3` and `0x10`
 * are refused: an id read otherwise than meant would export another template).
 */
function parseExportArgs(args: string[]): ExportOptions | "help" {
    const options: ExportOptions = { out: "", ids: [], force: false };
    const seen = new Set<string>();
    // Not strict: its own errors are worded for programmers. What it lets through is checked below, in order.
    const { tokens } = parseArgs({ args, options: EXPORT_OPTIONS, strict: false, allowPositionals: true, tokens: true });
    for (const token of tokens) {
        if (token.kind !== "option") throw new UsageError(`unexpected argument "${token.kind === "positional" ? token.value : "--"}"`);
        const flag = token.rawName;
        if (KEY_FLAGS.includes(flag.toLowerCase())) {
            throw new UsageError(`${flag}: the API key is never taken from the command line (shell history and the process list keep it); set VAST_API_KEY or use --api-key-file`);
        }
        if (!Object.hasOwn(EXPORT_OPTIONS, token.name)) throw new UsageError(`unknown option ${flag}`);
        const name = token.name as keyof typeof EXPORT_OPTIONS;
        if (EXPORT_OPTIONS[name].type === "boolean") {
            if (token.value !== undefined) throw new UsageError(`${flag} takes no value`);
            if (name === "force") options.force = true;
            else return "help";
            continue;
        }
        const value = token.inlineValue ? token.value : token.value?.startsWith("-") ? undefined : token.value;
        if (value === undefined || value === "") throw new UsageError(`${flag} needs a value`);
        if (name !== "id" && seen.has(name)) throw new UsageError(`${flag} is given twice`);
        seen.add(name);
        if (name === "out") options.out = value;
        else if (name === "api-key-file") options.apiKeyFile = value;
        else {
            if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--id: expected a template's numeric id (a positive whole number), got "${value}"`);
            options.ids.push(Number(value));
        }
    }
    if (!options.out) throw new UsageError("--out <dir> is required");
    return options;
}

/** Runs the command line `argv` (without `node` and the script); the exit code. */
export async function main(argv: string[], io: Io): Promise<number> {
    const [command, ...rest] = argv;
    try {
        if (command === undefined) {
            // A usage mistake: the usage goes where errors go, so `2>/dev/null` hides it as it does the others.
            io.err(USAGE);
            return 2;
        }
        if (command === "--help" || command === "-h" || command === "help") {
            io.out(USAGE);
            return 0;
        }
        if (command !== "export-templates") throw new UsageError(`unknown command "${command}"`);
        const options = parseExportArgs(rest);
        if (options === "help") {
            io.out(EXPORT_USAGE);
            return 0;
        }
        const plan = await exportTemplatesCommand(options, io);
        return plan.cannotRoundTrip.length + plan.publicWithStackSecrets.length > 0 ? 1 : 0;
    } catch (e) {
        const shown = codeShown(e);
        if (e instanceof UsageError) {
            io.err(`pulumi-vastai: ${shown.message}\n\n${command === "export-templates" ? EXPORT_USAGE : USAGE}`);
            return 2;
        }
        // A refusal, or the client's error naming the operation (never the key): the message is the whole story.
        // The provider's errors begin "vastai: " (for a Pulumi log); the command names itself instead.
        io.err(`pulumi-vastai: ${shown.message.replace(/^vastai: /, "")}`);
        return 1;
    }
}

if (require.main === module) {
    void main(process.argv.slice(2), {
        env: process.env,
        out: (line) => process.stdout.write(`${line}\n`),
        err: (line) => process.stderr.write(`${line}\n`),
    }).then((code) => {
        process.exitCode = code;
    });
}
