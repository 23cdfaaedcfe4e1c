import * as fs from "fs";
import * as path from "path";
import { CONFIG_KEYS, ENV_VARS, resolveConfig } from "../config/providerConfig";
import { newClient } from "../config/newClient";
import { ExistingFile, existingTemplateFiles } from "../declarative/existingTemplateFiles";
import { ExportPlan, ExportedTemplate, exportTemplates } from "../declarative/templateExport";
import { TemplateFileError } from "../declarative/templateFileReader";
import { accountTemplates } from "../resources/template/common/templateOwnership";
import { ProviderError } from "../errors/providerError";

/**
 * `pulumi-vastai export-templates`: the account's own templates as files `templatesFromFiles`
 * reads, each carrying its id (`adopt`), so the first `pulumi up` takes them over rather than
 * creating copies. Other users' public templates, which the service's search also returns, are
 * left out. The API key comes from the environment or a file, never from the command line, where
 * shell history and the process list would keep it.
 */

export const EXPORT_USAGE = `Usage: pulumi-vastai export-templates --out <dir> [--id <templateId>]... [--force] [--api-key-file <path>]

Writes this account's Vast.ai templates as files for templatesFromFiles: one <name>.yaml per
template (long onstart and readme texts beside it, as <name>.onstart.sh and <name>.readme.md),
each with its id as \`adopt\`, so the first \`pulumi up\` takes the templates over instead of
creating new ones. Other users' public templates are not exported. Registry passwords, and env
values that look like credentials (HF_TOKEN, WANDB_API_KEY, hf_..., a URL with a password), are
never written: each file names the stack secret to set instead. Each file is read back before it
is written; a template whose file would not give it back as it is (an env flag the files cannot
hold, a disk size of 0, another runtype) is not written, nor one made public whose file keeps an
env value in a stack secret (the value would go into git); the command then exits 1.

Options:
  --out <dir>             folder to write to (made if missing)
  --id <templateId>       export only this template (repeatable)
  --force                 overwrite files that differ from what would be written
  --api-key-file <path>   read the API key from this file
  --help                  print this text

The API key is read from ${ENV_VARS.apiKey} (or --api-key-file), never from an argument;
${ENV_VARS.baseUrl} sets the service's address.`;

export interface ExportOptions {
    out: string;
    ids: number[];
    force: boolean;
    apiKeyFile?: string;
}

export interface Io {
    env: NodeJS.ProcessEnv;
    out(line: string): void;
    /** What was not done: a template not exported. */
    err(line: string): void;
}

/** A refusal the person can act on: printed without a stack trace, exit code 1. */
export class ExportRefused extends ProviderError {
    constructor(message: string) {
        super("export_refused", message);
    }
}

function apiKeyFrom(options: ExportOptions): string | undefined {
    if (!options.apiKeyFile) return undefined;
    let key: string;
    try {
        key = fs.readFileSync(options.apiKeyFile, "utf8").trim();
    } catch (e) {
        throw new ExportRefused(`cannot read the API key file ${options.apiKeyFile}: ${(e as NodeJS.ErrnoException).code ?? e}`);
    }
    // Not passed over for VAST_API_KEY: that may be another account's key, and the file was named to be used.
    if (!key) throw new ExportRefused(`the API key file ${options.apiKeyFile} is empty`);
    return key;
}

/** Files that exist with other content: overwriting them needs `--force`. */
function changedFiles(out: string, exported: ExportedTemplate[]): string[] {
    return exported.flatMap((t) =>
        t.files.filter((f) => {
            const target = path.join(out, f.name);
            return fs.existsSync(target) && fs.readFileSync(target, "utf8") !== f.text;
        }).map((f) => path.join(out, f.name)),
    );
}

/** What is at `at`, or undefined when nothing is (or a parent is a file: ENOTDIR). */
function statOrNothing(at: string): fs.Stats | undefined {
    try {
        return fs.statSync(at, { throwIfNoEntry: false });
    } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
        throw e;
    }
}

/** `--out` names a folder, or nothing yet whose parents are folders: said before any call, not as a raw ENOTDIR at the write. */
function assertFolder(out: string): void {
    for (let at = path.resolve(out); ; at = path.dirname(at)) {
        const found = statOrNothing(at);
        if (found && !found.isDirectory()) throw new ExportRefused(`--out ${out}: ${at === path.resolve(out) ? "is" : `is inside ${at}, which is`} a file, not a folder`);
        if (found || at === path.dirname(at)) return;
    }
}

/** The template files already in the folder; one that does not read stops the export before anything is written. */
function filesIn(out: string): ExistingFile[] {
    try {
        return existingTemplateFiles(out);
    } catch (e) {
        if (!(e instanceof TemplateFileError)) throw e;
        throw new ExportRefused(
            `these files do not read, so the export cannot tell which template each holds; nothing was written (fix them, a merge conflict left in for one, and run it again):\n  ${e.message.replace(/^vastai: /, "").split("\n").join("\n  ")}`,
        );
    }
}

/**
 * Runs the export; every file is checked before any is written, so a refusal writes nothing. A
 * template whose file would not give it back, or made public while its file keeps env values in
 * stack secrets, is left out and said on `err`; the rest are written (the command then exits 1).
 */
export async function exportTemplatesCommand(options: ExportOptions, io: Io): Promise<ExportPlan> {
    assertFolder(options.out);
    const existing = filesIn(options.out);
    const keyFromFile = apiKeyFrom(options);
    if (!keyFromFile && !io.env[ENV_VARS.apiKey]?.trim()) {
        throw new ExportRefused(`no API key: set ${ENV_VARS.apiKey}, or use --api-key-file <path> (keys: https://cloud.vast.ai/manage-keys/)`);
    }
    const config = resolveConfig({ get: (key) => (key === CONFIG_KEYS.apiKey ? keyFromFile : undefined) }, io.env);
    // The key and address come from what the command reads, so a refusal names those, not the stack's settings.
    const key = keyFromFile ? `put a valid key in ${options.apiKeyFile}, the file --api-key-file names` : `set ${ENV_VARS.apiKey} to a valid key, or use --api-key-file <path>`;
    const vast = newClient({ ...config, settingHints: { key, baseUrl: ENV_VARS.baseUrl } });
    const me = (await vast.account.currentUser()).id;
    let records = await accountTemplates(vast, me);
    if (options.ids.length > 0) {
        const missing = options.ids.filter((id) => !records.some((r) => r.id === id));
        if (missing.length > 0) throw new ExportRefused(`the account has no template ${missing.join(", ")} of its own (another user's public template cannot be exported)`);
        records = records.filter((r) => options.ids.includes(r.id));
    }
    const plan = exportTemplates(records, existing);
    const { exported } = plan;
    const changed = changedFiles(options.out, exported);
    if (changed.length > 0 && !options.force) {
        throw new ExportRefused(`these files exist with other content; nothing was written (use --force to overwrite them):\n  ${changed.join("\n  ")}`);
    }
    fs.mkdirSync(options.out, { recursive: true });
    for (const t of exported) for (const f of t.files) fs.writeFileSync(path.join(options.out, f.name), f.text);

    io.out(`exported ${exported.length} template${exported.length === 1 ? "" : "s"} to ${options.out}`);
    for (const t of exported) io.out(`  ${t.files[0].name}  (template ${t.templateId})`);
    const secrets = exported.flatMap((t) => t.secrets);
    if (secrets.length > 0) {
        io.out("registry passwords and env values that look like credentials are not exported; set each as a stack secret before the first \`pulumi up\`:");
        for (const s of secrets) io.out(`  pulumi config set --secret ${s.key} <${s.holds}>`);
    }
    const plain = exported.flatMap((t) => t.plainCredentials.map((what) => `  ${t.files[0].name}: ${what}`));
    if (plain.length > 0) {
        io.out(
            "warning: written in plain text, and these files are meant for git. Only env can name a stack secret ({ secret: <config key> }): " +
                "move each value there, refer to it as $NAME in onstart, have the container read it from its environment instead of argsStr, and take it out of other texts:",
        );
        for (const line of plain) io.out(line);
    }
    for (const t of plan.inFileWithoutAdopt) {
        io.out(
            `template ${t.templateId} ("${t.templateName}") not exported: ${t.file} gives its name and has no adopt, so it may hold it already (made by \`pulumi up\`); ` +
                `if it is that template, add \`adopt: ${t.templateId}\` to ${t.file}, and a later export keeps it there; if not, rename one of the two and export again`,
        );
    }
    for (const t of plan.publicWithStackSecrets) {
        const kept = t.secrets.map((s) => `env ${s.variable} in the stack secret "${s.key}"`).join(", ");
        io.err(
            `template ${t.templateId} ("${t.templateName}") not exported: ${t.file} keeps ${kept}, and the template is public now (private: false): ` +
                "a public template's file cannot name a stack secret (every Vast.ai user can read its env), and the export does not write the value into git in plain text; " +
                `make the template private again in the console and export again, or edit ${t.file} by hand`,
        );
    }
    for (const t of plan.cannotRoundTrip) {
        io.err(`template ${t.templateId} ("${t.templateName}") not exported: its file would not give it back as it is:`);
        for (const problem of t.problems) io.err(`  ${problem}`);
    }
    if (plan.cannotRoundTrip.length > 0) {
        io.err(
            `${plan.cannotRoundTrip.length} template${plan.cannotRoundTrip.length === 1 ? "" : "s"} not exported: change what is named above in the console and export again, ` +
                "or write the file by hand, knowing its first `pulumi up` edits the template (a new hashId, which replaces the instances on it)",
        );
    }
    return plan;
}
