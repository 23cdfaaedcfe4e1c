import * as pulumi from "@pulumi/pulumi";
import * as fs from "fs";
import * as path from "path";
import { z } from "zod";
import { CheckFailure, checkFailuresFrom, suggestion } from "../dynamic/checkFailures";
import { PlainCredential, describePlainCredential, plainCredentials as plainCredentialsIn } from "../env/credentials";
import { Template } from "../resources/template/template";
import { TEMPLATE_PROPERTIES, TemplateArgs, templateArgsSchema } from "../resources/template/templateArgs";
import { ExistingFile } from "./templateExport";
import { FILE_KEYS, SIBLING_FILE_PROPERTIES, TemplateFileDocument, parseTemplateFile } from "./templateFileDocument";
import { safeParse } from "../schemas/parse";

/**
 * Templates kept as files in git: one YAML or JSON file per template, holding `TemplateArgs`
 * (camelCase), reviewed like code and applied with `pulumi up`. Beside the properties, a file may
 * say:
 * - `onstart: { file: ./trainer.onstart.sh }` (and `readme`): the text lives in that file,
 *   relative to the template file;
 * - `resourceName: trainer`: the Pulumi resource name, instead of the file's base name;
 * - `adopt: 30005`: the template this account already has, taken over instead of created;
 * - `dockerLoginPass: { secret: trainer-dockerLoginPass }`: the stack secret holding the registry
 *   password. A password written into the file is refused: registry tokens stay out of git.
 * - `env: { HF_TOKEN: { secret: trainer-env-HF_TOKEN } }`: the stack secret holding that
 *   variable's value. A value that looks like a credential (env/credentials.ts), written into the
 *   file, is read with a warning rather than refused: the guess can be wrong.
 */
export interface TemplateFile {
    /** Path of the file. */
    file: string;
    /** The resource name: the file's base name (`pytorch-trainer.yaml` → `pytorch-trainer`), or its `resourceName`. */
    name: string;
    args: TemplateArgs;
    /** The stack config key holding the registry password, when the file names one. */
    dockerLoginPassSecret?: string;
    /** Env variable → the stack config key holding its value, for the variables the file names a secret for (not in `args.env`). */
    envSecrets?: Record<string, string>;
    /** What looks like a credential written into the file in plain text: `env.HF_TOKEN`, `onstart` with the names it sets. */
    plainCredentials?: PlainCredential[];
}

/** One problem in a template file, where it is. */
export interface TemplateFileProblem {
    file: string;
    /** 1-based; absent when the problem is the whole file's. */
    line?: number;
    column?: number;
    /** The property path, when the problem is one property's. */
    property?: string;
    reason: string;
}

export class TemplateFileError extends Error {
    constructor(readonly problems: TemplateFileProblem[]) {
        super(`vastai: ${problems.map(formatProblem).join("\n")}`);
        this.name = "TemplateFileError";
    }
}

/** `templates/a.yaml:3:23: recommendedDiskSpace: expected number`, as compilers print it (editors open it there). */
function formatProblem(p: TemplateFileProblem): string {
    const where = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.column ?? 1}`;
    return `${where}: ${p.property ? `${p.property}: ` : ""}${p.reason}`;
}

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** Resource names as Pulumi shows them in a URN: no `::`, nothing that needs quoting in a shell. */
const RESOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The property names a file may hold. */
const KNOWN_KEYS: readonly string[] = [...TEMPLATE_PROPERTIES, ...FILE_KEYS];

/** The template files in `dir`, in name order. */
export function templateFileNames(dir: string): string[] {
    return fs
        .readdirSync(dir)
        .filter((f) => EXTENSIONS.has(path.extname(f).toLowerCase()))
        .sort();
}

/**
 * Reads and checks every template file in `dir`, in name order. Every problem of every file is
 * reported at once, each with its file, line, column and property.
 */
export function readTemplateFiles(dir: string): TemplateFile[] {
    const problems: TemplateFileProblem[] = [];
    const read: TemplateFile[] = [];
    for (const entry of templateFileNames(dir)) {
        const result = readTemplateFile(path.join(dir, entry));
        if ("problems" in result) problems.push(...result.problems);
        else read.push(result.template);
    }
    problems.push(...sharedValueProblems(read));
    if (problems.length > 0) throw new TemplateFileError(problems);
    return read;
}

/**
 * What the template files in `dir` say they are, read loosely (a file with problems still counts):
 * for an export that keeps each template in the file it already has.
 */
export function existingTemplateFiles(dir: string): ExistingFile[] {
    if (!fs.existsSync(dir)) return [];
    return templateFileNames(dir).map((entry) => {
        const base = path.basename(entry, path.extname(entry));
        let content: unknown;
        try {
            content = parseTemplateFile(entry, fs.readFileSync(path.join(dir, entry), "utf8")).content;
        } catch {
            return { base };
        }
        const { adopt, resourceName, env } = (content && typeof content === "object" ? content : {}) as Record<string, unknown>;
        const envSecrets = Object.entries(env && typeof env === "object" ? env : {}).flatMap(([variable, value]) => {
            const key = secretRef(value);
            return key ? [[variable, key] as const] : [];
        });
        return {
            base,
            extension: path.extname(entry),
            ...(typeof adopt === "number" ? { adopt } : {}),
            ...(typeof resourceName === "string" ? { resourceName } : {}),
            ...(envSecrets.length > 0 ? { envSecrets: Object.fromEntries(envSecrets) } : {}),
        };
    });
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

/** Where a problem is: the file, and the line and column of the property's value. */
type Locate = (property: string[], reason: string) => TemplateFileProblem;

/** One file: its template, or every problem found in it. */
export function readTemplateFile(file: string): { template: TemplateFile } | { problems: TemplateFileProblem[] } {
    let doc: TemplateFileDocument;
    try {
        doc = parseTemplateFile(file, fs.readFileSync(file, "utf8"));
    } catch (e) {
        return { problems: [{ file, reason: e instanceof Error ? e.message : String(e) }] };
    }
    if (doc.syntaxProblems.length > 0) return { problems: doc.syntaxProblems };
    const content = doc.content;
    if (!content || typeof content !== "object" || Array.isArray(content)) {
        return { problems: [{ file, line: 1, column: 1, reason: "expected a mapping of template properties" }] };
    }
    const at: Locate = (property, reason) => ({ file, ...doc.position(property), property: property.join("."), reason });
    const problems: TemplateFileProblem[] = [];
    // What the file says beyond the template's properties is taken out first; the rest is `TemplateArgs`.
    const args: Record<string, unknown> = { ...(content as Record<string, unknown>) };
    const name = takeResourceName(file, args, at, problems);
    readSiblingTexts(file, args, at, problems);
    const dockerLoginPassSecret = takeDockerLoginPassSecret(args, at, problems);
    const envSecrets = takeEnvSecrets(args, at, problems);
    const parsed = safeParse(templateArgsSchema, args);
    if (!parsed.success) {
        for (const issue of parsed.error.issues) {
            for (const failure of checkFailuresFrom(new z.ZodError([issue]), args, KNOWN_KEYS)) {
                problems.push(issueProblem(file, doc, issue, failure));
            }
        }
    }
    if (problems.length > 0) return { problems };
    const plainCredentials = plainCredentialsIn(args);
    return {
        template: {
            file,
            name,
            args: args as TemplateArgs,
            ...(dockerLoginPassSecret ? { dockerLoginPassSecret } : {}),
            ...(envSecrets ? { envSecrets } : {}),
            ...(plainCredentials.length > 0 ? { plainCredentials } : {}),
        },
    };
}

/** The resource name: `resourceName`, else the file's base name. */
function takeResourceName(file: string, args: Record<string, unknown>, at: Locate, problems: TemplateFileProblem[]): string {
    const given = args.resourceName;
    delete args.resourceName;
    if (given === undefined) return path.basename(file, path.extname(file));
    if (typeof given === "string" && RESOURCE_NAME.test(given)) return given;
    problems.push(at(["resourceName"], "expected a resource name: letters, digits, '.', '_' and '-'"));
    return String(given);
}

/** `onstart: { file: ./x.sh }` (and `readme`) replaced by the text of that file, relative to the template file. */
function readSiblingTexts(file: string, args: Record<string, unknown>, at: Locate, problems: TemplateFileProblem[]): void {
    for (const property of SIBLING_FILE_PROPERTIES) {
        const value = args[property];
        if (value === undefined || typeof value === "string") continue;
        // Reported here, once; the schema need not say it again.
        delete args[property];
        const ref = siblingFile(value);
        if (!ref) {
            problems.push(at([property], `expected text, or { file: ./path } naming a file beside ${path.basename(file)}`));
            continue;
        }
        try {
            args[property] = fs.readFileSync(path.resolve(path.dirname(file), ref), "utf8");
        } catch {
            problems.push(at([property, "file"], `cannot read ${ref} (relative to ${path.dirname(file)})`));
        }
    }
}

/** The stack secret a file names for the registry password; a password written into the file is refused. */
function takeDockerLoginPassSecret(args: Record<string, unknown>, at: Locate, problems: TemplateFileProblem[]): string | undefined {
    if (!("dockerLoginPass" in args)) return undefined;
    const value = args.dockerLoginPass;
    delete args.dockerLoginPass;
    const secret = secretRef(value);
    if (secret) return secret;
    problems.push(
        at(
            ["dockerLoginPass"],
            typeof value === "string"
                ? "keep registry tokens out of git: name the stack secret instead, `dockerLoginPass: { secret: <config key> }`, or pass it with the `secrets` option"
                : "expected { secret: <stack config key> }",
        ),
    );
    return undefined;
}

/** The env variables a file names a stack secret for, taken out of `env`; any other non-text value is a problem. */
function takeEnvSecrets(args: Record<string, unknown>, at: Locate, problems: TemplateFileProblem[]): Record<string, string> | undefined {
    const env = args.env;
    if (!env || typeof env !== "object" || Array.isArray(env)) return undefined;
    const values: Record<string, unknown> = {};
    const secrets: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) {
        if (value === null || typeof value !== "object") {
            values[name] = value;
            continue;
        }
        // Reported here, once; the schema need not say it again.
        const secret = secretRef(value);
        if (secret) secrets[name] = secret;
        else problems.push(at(["env", name], "expected text, or { secret: <stack config key> } naming the stack secret that holds the value"));
    }
    args.env = values;
    return Object.keys(secrets).length > 0 ? secrets : undefined;
}

/** What a warning says about a credential in plain text in `file`. */
function plainCredentialWarning(file: string, found: PlainCredential): string {
    const name = "name" in found ? found.name : "<NAME>";
    return (
        `${file}: ${describePlainCredential(found)}, in plain text in a file meant for git: ` +
        `${found.property === "onstart" ? `use $${name} in the script and ` : ""}give its value as a stack secret in env, ` +
        `\`${name}: { secret: <stack config key> }\` (pulumi config set --secret <stack config key> <value>)`
    );
}

/** Where a schema problem is: an unknown key at the key, anything else at its value (or the nearest node there is). */
function issueProblem(file: string, doc: TemplateFileDocument, issue: z.core.$ZodIssue, failure: CheckFailure): TemplateFileProblem {
    const issuePath = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
        const key = failure.property.slice(failure.property.lastIndexOf(".") + 1);
        return { file, ...doc.position([...issuePath, key], true), property: failure.property, reason: failure.reason };
    }
    return { file, ...doc.position(issuePath), property: failure.property, reason: failure.reason };
}

function siblingFile(value: unknown): string | undefined {
    if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
    const keys = Object.keys(value);
    const file = (value as { file?: unknown }).file;
    return keys.length === 1 && typeof file === "string" && file.trim() !== "" ? file : undefined;
}

function secretRef(value: unknown): string | undefined {
    if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
    const secret = (value as { secret?: unknown }).secret;
    return Object.keys(value).length === 1 && typeof secret === "string" && secret.trim() !== "" ? secret : undefined;
}

export interface TemplatesFromFilesOptions {
    /** Registry tokens by resource name, for files that do not name a stack secret. */
    secrets?: Record<string, { dockerLoginPass: pulumi.Input<string> }>;
    /** Prefix for resource names, when several directories are used in one stack. */
    namePrefix?: string;
    opts?: pulumi.CustomResourceOptions;
}

/** A stack secret by config key: `key` in the project's namespace, `namespace:key` in another. */
function stackSecret(key: string): pulumi.Output<string> {
    const colon = key.indexOf(":");
    return colon < 0 ? new pulumi.Config().requireSecret(key) : new pulumi.Config(key.slice(0, colon)).requireSecret(key.slice(colon + 1));
}

/**
 * One `Template` per file in `dir`, by resource name: `templates["pytorch-trainer"].hashId` is
 * what an `Instance` starts from, and it changes (replacing the instance) when that file changes.
 */
export function templatesFromFiles(dir: string, options: TemplatesFromFilesOptions = {}): Record<string, Template> {
    const templates: Record<string, Template> = {};
    for (const { file, name, args, dockerLoginPassSecret, envSecrets, plainCredentials } of readTemplateFiles(dir)) {
        const given = options.secrets?.[name];
        if (given && dockerLoginPassSecret) {
            throw new TemplateFileError([{ file, property: "dockerLoginPass", reason: `names the stack secret "${dockerLoginPassSecret}", and the secrets option gives one too; keep one` }]);
        }
        const secret = given ?? (dockerLoginPassSecret ? { dockerLoginPass: stackSecret(dockerLoginPassSecret) } : undefined);
        // A secret inside `env` makes the whole of it secret in state (the engine marks an output secret by its top-level key).
        const env = envSecrets
            ? { env: { ...(args.env as Record<string, string>), ...Object.fromEntries(Object.entries(envSecrets).map(([variable, key]) => [variable, stackSecret(key)])) } }
            : {};
        const template = new Template(`${options.namePrefix ?? ""}${name}`, { ...args, ...env, ...secret }, options.opts);
        for (const found of plainCredentials ?? []) void pulumi.log.warn(plainCredentialWarning(file, found), template);
        templates[name] = template;
    }
    const unused = Object.keys(options.secrets ?? {}).filter((n) => !(n in templates));
    if (unused.length > 0) {
        const hints = unused.map((n) => `${n}${suggestion(n, Object.keys(templates))}`);
        throw new Error(`vastai: secrets given for templates with no file in ${dir}: ${hints.join(", ")}`);
    }
    return templates;
}
