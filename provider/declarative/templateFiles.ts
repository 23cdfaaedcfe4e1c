import * as pulumi from "@pulumi/pulumi";
import * as fs from "fs";
import * as path from "path";
import { VastConfigError } from "../client/errors";
import { suggestion } from "../schemas/nearestName";
import { PlainCredential, describePlainCredential } from "../env/credentials";
import { Template } from "../resources/template/template";
import { REGISTRY_LOGIN_ON_CREATE, TemplateArgs } from "../resources/template/templateArgs";
import { canonicalTemplateInputs, toTemplateFields } from "../resources/template/common/templateMapping";
import { TemplateFile, TemplateFileError, TemplateFileProblem, readTemplateFile } from "./templateFileReader";

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** The template files in `dir`, in name order. */
export function templateFileNames(dir: string): string[] {
    return fs
        .readdirSync(dir)
        .filter((f) => EXTENSIONS.has(path.extname(f).toLowerCase()))
        .sort();
}

/**
 * Template files in subfolders of `dir`, which are not read, each a problem: a file moved into a
 * subfolder would otherwise be a removed file, whose template `pulumi up` deletes. Hidden folders
 * (`.git`, an editor's) are not looked into, nor links to folders.
 */
function subfolderProblems(dir: string): TemplateFileProblem[] {
    const nested = (folder: string): string[] =>
        fs
            .readdirSync(folder, { withFileTypes: true })
            .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
            .flatMap((entry) => {
                const sub = path.join(folder, entry.name);
                return [...templateFileNames(sub).map((f) => path.join(sub, f)), ...nested(sub)];
            });
    return nested(dir)
        .sort()
        .map((file) => ({
            file,
            reason: `is in a subfolder of ${dir}, and only the files directly in ${dir} are read: move it into ${dir}, or out of ${dir} (left here, a template whose file was moved here is deleted by \`pulumi up\`, as a removed file's is)`,
        }));
}

/**
 * Reads and checks every template file in `dir`, in name order. Every problem of every file is
 * reported at once, each with its file, line, column and property. `passwordsFromProgram`: the
 * resource names whose registry password the program gives (the `secrets` option of
 * `templatesFromFiles`), which the files cannot tell.
 */
export function readTemplateFiles(dir: string, passwordsFromProgram: readonly string[] = []): TemplateFile[] {
    const problems: TemplateFileProblem[] = subfolderProblems(dir);
    const read: TemplateFile[] = [];
    for (const entry of templateFileNames(dir)) {
        const result = readTemplateFile(path.join(dir, entry));
        if ("problems" in result) problems.push(...result.problems);
        else read.push(result.template);
    }
    problems.push(...sharedValueProblems(read), ...identicalContentProblems(read, new Set(passwordsFromProgram)));
    if (problems.length > 0) throw new TemplateFileError(problems);
    return read;
}

/** Two files may not make one resource, nor adopt one template (deleting either would delete it). */
function sharedValueProblems(files: TemplateFile[]): TemplateFileProblem[] {
    const problems: TemplateFileProblem[] = [];
    const byName = new Map<string, string>();
    const byAdopt = new Map<number, string>();
    for (const t of files) {
        const sameName = byName.get(t.name);
        if (sameName) problems.push({ file: t.file, reason: `makes the resource "${t.name}", as ${sameName} does; set resourceName in one of them` });
        else byName.set(t.name, t.file);
        const adopt = t.args.adopt as number | undefined;
        if (adopt === undefined) continue;
        const sameAdopt = byAdopt.get(adopt);
        if (sameAdopt) problems.push({ file: t.file, property: "adopt", reason: `template ${adopt} is adopted by ${sameAdopt} too` });
        else byAdopt.set(adopt, t.file);
    }
    return problems;
}

/**
 * Vast.ai keeps templates of identical content as one: a create of another one's content is
 * answered with that template, and the Template resource refuses it, at `up`, after other files'
 * templates were made. So two files whose templates would be identical are refused here, when one
 * of them creates its template (two adopted ones are two templates already, and an edit makes none).
 */
function identicalContentProblems(files: TemplateFile[], passwordsFromProgram: ReadonlySet<string>): TemplateFileProblem[] {
    const problems: TemplateFileProblem[] = [];
    const byContent = new Map<string, TemplateFile[]>();
    for (const t of files) {
        const content = createContent(t, passwordsFromProgram.has(t.name));
        if (content === undefined) continue;
        const same = byContent.get(content) ?? [];
        const creating = [t, ...same].find((f) => f.args.adopt === undefined);
        if (same.length > 0 && creating) {
            const other = same[0];
            problems.push({
                file: t.file,
                reason:
                    `makes a template identical to the one ${other.file} ${other.args.adopt === undefined ? "makes" : "adopts"} (every field the service stores is the same), ` +
                    `and Vast.ai keeps identical templates as one: the create of ${creating.file} would be refused at \`pulumi up\`, after other templates were changed. ` +
                    "Make them differ (the name, say), or keep one of the two files",
            });
        }
        byContent.set(content, [...same, t]);
    }
    return problems;
}

/**
 * What the create of a file's template sends, as the service compares it, with each stack secret
 * the file names as its key: one key is one value, and two keys may hold different values (taken
 * as different content, so a false refusal is never made). Undefined when it cannot be told: a
 * registry password the program gives.
 */
function createContent(t: TemplateFile, passwordFromProgram: boolean): string | undefined {
    if (passwordFromProgram) return undefined;
    try {
        const args = argsWithEnvSecrets(t, () => "") as unknown as Record<string, unknown>;
        const fields = toTemplateFields({ ...REGISTRY_LOGIN_ON_CREATE, ...canonicalTemplateInputs(args) });
        return JSON.stringify([fields, t.envSecrets ?? {}, t.dockerLoginPassSecret ?? null]);
    } catch {
        // Not readable as the service's body: the reader or the resource's check says why.
        return undefined;
    }
}

/**
 * What a warning says about a credential in plain text in `file`, and where its value can go
 * instead: only `env` can name a stack secret. A script can read it from there as $NAME; argsStr
 * cannot be promised to (whether the service expands $NAME there is not documented), and other
 * texts (readme, desc) are shown to whoever sees the template.
 */
function plainCredentialWarning(file: string, found: PlainCredential): string {
    const name = "name" in found ? found.name : "<NAME>";
    const asSecret = `give its value as a stack secret in env, \`${name}: { secret: <stack config key> }\` (pulumi config set --secret <stack config key> <value>)`;
    const instead =
        found.property === "env"
            ? asSecret
            : found.property === "onstart"
              ? `use $${name} in the script and ${asSecret}`
              : found.property === "argsStr"
                ? `argsStr cannot name a stack secret: ${asSecret}, and have the container read it from its environment`
                : `${found.property} cannot name a stack secret: take the value out of it`;
    return `${file}: ${describePlainCredential(found)}, in plain text in a file meant for git: ${instead}`;
}

export interface TemplatesFromFilesOptions {
    /** Registry tokens by resource name, for files that do not name a stack secret. */
    secrets?: Record<string, { dockerLoginPass: pulumi.Input<string> }>;
    /** Prefix for resource names, when several directories are used in one stack. */
    namePrefix?: string;
    /** Resource options given to every Template (a provider, `protect`, ...). */
    opts?: pulumi.CustomResourceOptions;
}

/**
 * A stack secret by config key: `key` in the project's namespace, `namespace:key` in another.
 * Undefined when the stack does not set it (the caller says which file and property name it).
 */
function stackSecret(key: string): pulumi.Output<string> | undefined {
    const colon = key.indexOf(":");
    return colon < 0 ? new pulumi.Config().getSecret(key) : new pulumi.Config(key.slice(0, colon)).getSecret(key.slice(colon + 1));
}

/**
 * One file's Template arguments, with the stack secrets it names and the registry token the
 * `secrets` option gives it; each mistake is added to `problems`, naming the file and property.
 */
function templateInputs(t: TemplateFile, given: { dockerLoginPass: pulumi.Input<string> } | undefined, problems: TemplateFileProblem[]): TemplateArgs {
    const secretAt = (property: string, key: string): pulumi.Output<string> => {
        const value = stackSecret(key);
        if (!value) problems.push({ file: t.file, property, reason: `the stack secret "${key}" is not set: pulumi config set --secret ${key} <value>` });
        // Undefined only with a problem, which stops the program before these inputs are used.
        return value as pulumi.Output<string>;
    };
    if (given && t.dockerLoginPassSecret) {
        problems.push({ file: t.file, property: "dockerLoginPass", reason: `names the stack secret "${t.dockerLoginPassSecret}", and the secrets option gives one too; keep one` });
    }
    const pass = given?.dockerLoginPass ?? (t.dockerLoginPassSecret ? secretAt("dockerLoginPass", t.dockerLoginPassSecret) : undefined);
    // A secret inside `env` makes the whole of it secret in state (the engine marks an output secret by its top-level key).
    return { ...argsWithEnvSecrets(t, (variable, key) => secretAt(`env.${variable}`, key)), ...(pass !== undefined ? { dockerLoginPass: pass } : {}) };
}

/** A file's arguments with the variables it names stack secrets for back in `env`, after the others, each as `valueOf` gives it. */
function argsWithEnvSecrets(t: TemplateFile, valueOf: (variable: string, key: string) => pulumi.Input<string>): TemplateArgs {
    if (!t.envSecrets) return t.args;
    const secrets = Object.fromEntries(Object.entries(t.envSecrets).map(([variable, key]) => [variable, valueOf(variable, key)]));
    return { ...t.args, env: { ...(t.args.env as Record<string, string>), ...secrets } };
}

/**
 * One `Template` per file in `dir`, by resource name: `templates["pytorch-trainer"].hashId` is
 * what an `Instance` starts from, and it changes (replacing the instance) when that file changes.
 *
 * Every file, every stack secret the files name and the `secrets` option are checked before the
 * first Template is made: the engine starts a resource's create as soon as it is registered, so a
 * mistake found at a later file would fail the `up` after the earlier files' templates were made.
 */
export function templatesFromFiles(dir: string, options: TemplatesFromFilesOptions = {}): Record<string, Template> {
    const files = readTemplateFiles(dir, Object.keys(options.secrets ?? {}));
    const problems: TemplateFileProblem[] = [];
    const inputs = files.map((t) => templateInputs(t, options.secrets?.[t.name], problems));
    if (problems.length > 0) throw new TemplateFileError(problems);
    const names = files.map((t) => t.name);
    const unused = Object.keys(options.secrets ?? {}).filter((n) => !names.includes(n));
    if (unused.length > 0) {
        const hints = unused.map((n) => `${n}${suggestion(n, names)}`);
        throw new VastConfigError(`secrets given for templates with no file in ${dir}: ${hints.join(", ")}`, "invalid_input");
    }
    const templates: Record<string, Template> = {};
    files.forEach(({ file, name, plainCredentials }, i) => {
        const template = new Template(`${options.namePrefix ?? ""}${name}`, inputs[i], options.opts);
        for (const found of plainCredentials ?? []) void pulumi.log.warn(plainCredentialWarning(file, found), template);
        templates[name] = template;
    });
    return templates;
}
