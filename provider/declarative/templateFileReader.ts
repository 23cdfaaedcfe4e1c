import * as fs from "fs";
import * as path from "path";
import { z } from "zod";
import { VastConfigError } from "../client/errors";
import { CheckFailure, checkFailuresFrom } from "../dynamic/checkFailures";
import { PlainCredential, plainCredentials as plainCredentialsIn } from "../env/credentials";
import { envShapeExpected } from "../env/envInputSchema";
import { TEMPLATE_PROPERTIES, TemplateArgs, templateArgsSchema } from "../resources/template/templateArgs";
import { asCheckedIn } from "../resources/template/common/templateMapping";
import { FILE_KEYS, SIBLING_FILE_PROPERTIES, TemplateFileDocument, parseTemplateFile } from "./templateFileDocument";
import { safeParse } from "../schemas/parse";
import { ProviderError } from "../errors/providerError";

/**
 * Templates kept as files in git: one YAML or JSON file per template, holding `TemplateArgs`
 * (camelCase), reviewed like code and applied with `pulumi up`. Beside the properties, a file may
 * say:
 * - `onstart: { file: ./trainer.onstart.sh }` (and `readme`): the text lives in that file, named
 *   relative to the template file's folder, never by an absolute path, and inside the Pulumi
 *   project or the templates folder, links followed (the text goes to the service);
 * - `resourceName: trainer`: the Pulumi resource name, instead of the file's base name (held to
 *   RESOURCE_NAME; a base name only has to be a name at all, see takeResourceName);
 * - `adopt: 30005`: the template this account already has, taken over instead of created;
 * - `dockerLoginPass: { secret: trainer-dockerLoginPass }`: the stack secret holding the registry
 *   password. A password written into the file is refused: registry tokens stay out of git.
 * - `env: { HF_TOKEN: { secret: trainer-env-HF_TOKEN } }`: the stack secret holding that
 *   variable's value; refused in a public template, which would publish it. A value that looks
 *   like a credential (env/credentials.ts), written into any text of the file, is read with a
 *   warning rather than refused: the guess can be wrong.
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
    /** What looks like a credential written into the file in plain text: an env variable, what `onstart` sets, an option `argsStr` passes, a token in any text. */
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

/** Every problem of the template files, found before any request: configuration, so a `VastConfigError`. */
export class TemplateFileError extends VastConfigError {
    constructor(readonly problems: TemplateFileProblem[]) {
        super(problems.map(formatProblem).join("\n"), "template_file_invalid");
    }
}

/** `templates/a.yaml:3:23: recommendedDiskSpace: expected number`, as compilers print it (editors open it there). */
function formatProblem(p: TemplateFileProblem): string {
    const where = p.line === undefined ? p.file : `${p.file}:${p.line}:${p.column ?? 1}`;
    return `${where}: ${p.property ? `${p.property}: ` : ""}${p.reason}`;
}

/** Resource names as Pulumi shows them in a URN: no `::`, nothing that needs quoting in a shell. */
const RESOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The property names a file may hold. */
const KNOWN_KEYS: readonly string[] = [...TEMPLATE_PROPERTIES, ...FILE_KEYS];

/** Where a problem is: the file, and the line and column of the property's value. */
type Locate = (property: string[], reason: string) => TemplateFileProblem;

export type TemplateFileRead = { template: TemplateFile } | { problems: TemplateFileProblem[] };

/**
 * The text of a file a template file names (`{ file: ./x.sh }`), by that reference as the file
 * gives it; throws when there is none, a `SiblingFileRefused` when it may not be read.
 */
export type SiblingReader = (ref: string) => string;

/** A file a template file names that is not to be read; the message says why and what is allowed. */
export class SiblingFileRefused extends ProviderError {
    constructor(message: string) {
        super("template_file_invalid", message);
    }
}

/** One file on disk: its template, or every problem found in it. */
export function readTemplateFile(file: string): TemplateFileRead {
    let text: string;
    try {
        text = fs.readFileSync(file, "utf8");
    } catch (e) {
        return { problems: [{ file, reason: e instanceof Error ? e.message : String(e) }] };
    }
    return readTemplateText(file, text, (ref) => readSiblingFile(file, ref));
}

/**
 * A file `file` names, read only when its real path (links followed) is inside the Pulumi project
 * (the program's working directory) or the templates folder: the text goes to the service, and
 * `./../../../proc/self/environ`, or a link to it, would send a file of the machine that runs `up`.
 */
function readSiblingFile(file: string, ref: string): string {
    const real = fs.realpathSync(path.resolve(path.dirname(file), ref));
    const allowed = [process.cwd(), path.dirname(file)].map((dir) => fs.realpathSync(dir));
    if (!allowed.some((dir) => real === dir || real.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep))) {
        throw new SiblingFileRefused(
            `${ref} leads to ${real}, outside the Pulumi project (${allowed[0]}) and the templates folder (${allowed[1]}): name a file inside one of them`,
        );
    }
    return fs.readFileSync(real, "utf8");
}

/**
 * One file's text, named `file`, its sibling files read by `readSibling`: the one reader of the
 * format, for the files in a folder and for what the export is about to write.
 */
export function readTemplateText(file: string, text: string, readSibling: SiblingReader): TemplateFileRead {
    const doc = parseTemplateFile(file, text);
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
    readSiblingTexts(file, args, readSibling, at, problems);
    const dockerLoginPassSecret = takeDockerLoginPassSecret(args, at, problems);
    const envSecrets = takeEnvSecrets(args, at, problems);
    problems.push(...publishedSecrets(args, envSecrets, at));
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
            args: args as unknown as TemplateArgs,
            ...(dockerLoginPassSecret ? { dockerLoginPassSecret } : {}),
            ...(envSecrets ? { envSecrets } : {}),
            ...(plainCredentials.length > 0 ? { plainCredentials } : {}),
        },
    };
}

/**
 * The resource name: `resourceName`, held to RESOURCE_NAME; else the file's base name, which is
 * refused only when it cannot be a resource name at all (`::` breaks the URN): a stack made from
 * `My Trainer.yaml` keeps its resources.
 */
function takeResourceName(file: string, args: Record<string, unknown>, at: Locate, problems: TemplateFileProblem[]): string {
    const given = args.resourceName;
    delete args.resourceName;
    if (given === undefined) {
        const base = path.basename(file, path.extname(file));
        if (base.includes("::") || base.trim() === "") {
            problems.push({
                file,
                reason: `the file's name makes the resource name "${base}", which cannot be one ("::" separates the parts of a resource's URN): rename the file, or set resourceName`,
            });
        }
        return base;
    }
    if (typeof given === "string" && RESOURCE_NAME.test(given)) return given;
    problems.push(at(["resourceName"], "expected a resource name: letters, digits, '.', '_' and '-', from a letter or digit"));
    return String(given);
}

/** `onstart: { file: ./x.sh }` (and `readme`) replaced by the text of that file, relative to the template file, with LF line ends. */
function readSiblingTexts(file: string, args: Record<string, unknown>, readSibling: SiblingReader, at: Locate, problems: TemplateFileProblem[]): void {
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
        // The text goes to the service: a file in git names files of the repository, relatively, so
        // a review sees where they are; an absolute path could send any file of the machine that
        // runs `up` (`/proc/self/environ`, its CI secrets). `../scripts/setup.sh` is a relative path;
        // where one leads, `..` and links followed, is held to the project by readSiblingFile.
        if (path.isAbsolute(ref) || path.win32.isAbsolute(ref)) {
            problems.push(at([property, "file"], `${ref} is an absolute path: name the file relative to ${path.basename(file)}'s folder, as ./path or ../path`));
            continue;
        }
        try {
            args[property] = asCheckedIn(readSibling(ref));
        } catch (e) {
            problems.push(at([property, "file"], e instanceof SiblingFileRefused ? e.message : `cannot read ${ref} (relative to ${path.dirname(file)})`));
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

/**
 * The env variables a file names a stack secret for, taken out of `env`; any other non-text value
 * is a problem, and so is an `env` of another shape (said with the form a file may give a value in).
 */
function takeEnvSecrets(args: Record<string, unknown>, at: Locate, problems: TemplateFileProblem[]): Record<string, string> | undefined {
    const env = args.env;
    if (env === undefined || typeof env === "string") return undefined;
    if (env === null || typeof env !== "object" || Array.isArray(env)) {
        // Reported here, once; the schema need not say it again.
        delete args.env;
        problems.push(at(["env"], envShapeExpected("text (or { secret: <stack config key> })")));
        return undefined;
    }
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

/**
 * A stack secret in the env of a public template would be published: every Vast.ai user can read
 * a public template's env. Refused, since nothing private may become public.
 */
function publishedSecrets(args: Record<string, unknown>, envSecrets: Record<string, string> | undefined, at: Locate): TemplateFileProblem[] {
    if (args.private !== false || !envSecrets) return [];
    return Object.keys(envSecrets).map((variable) =>
        at(
            ["env", variable],
            "names a stack secret, and the template is public (private: false): every Vast.ai user can read a public template's env. " +
                "Keep the template private, or give the value to each Instance's env instead",
        ),
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

export function secretRef(value: unknown): string | undefined {
    if (!value || typeof value !== "object" || Array.isArray(value)) return undefined;
    const secret = (value as { secret?: unknown }).secret;
    return Object.keys(value).length === 1 && typeof secret === "string" && secret.trim() !== "" ? secret : undefined;
}
