import { Document } from "yaml";
import { sameValue } from "../dynamic/diffInputs";
import { TEMPLATE_CONTENT, TEMPLATE_DEFAULTS, TemplateContentProperty } from "../resources/template/templateArgs";
import { asCheckedIn, clearedValue, inputsFromRecord } from "../resources/template/common/templateMapping";
import { TemplateRecord } from "../schemas/template";
import { describePlainCredential, looksLikeCredential, plainCredentials as plainCredentialsIn } from "../env/credentials";
import { ExistingFile } from "./existingTemplateFiles";
import { roundTripProblems } from "./exportRoundTrip";
import { SIBLING_FILE_PROPERTIES } from "./templateFileDocument";

/**
 * The writing half of the template file format (`templateFileReader.ts` reads it): a service record
 * as the file `readTemplateFiles` reads back to the same template. Stable, so a second export of
 * an unchanged account writes the same bytes: properties in the schema's order, no timestamps,
 * defaults and empty values left out (an empty tag excepted: see `unset`). The registry password is never written (the service does
 * not show it anyway), nor an env value that looks like a credential (env/credentials.ts): the
 * file names the stack secret to set instead.
 */

/** Text with more lines than this goes to a file of its own beside the template file. */
const INLINE_LINES = 3;

const SIBLING_EXTENSION: Record<(typeof SIBLING_FILE_PROPERTIES)[number], string> = { onstart: "onstart.sh", readme: "readme.md" };

export interface ExportedTemplate {
    templateId: number;
    /** The base name of its files, and the resource name unless the file sets `resourceName`. */
    name: string;
    /** File name (in the output folder) → content: the template file first, then the texts it refers to. */
    files: Array<{ name: string; text: string }>;
    /** The stack secrets the file names instead of values (the registry password, credential-looking env values), to be set before the first `up`. */
    secrets: StackSecretToSet[];
    /**
     * The stack secrets the file there names for variables of a template that is public now (made
     * so in the console): such a file is refused by the reader, and the values are not to go into
     * git in plain text, so it is not written (`ExportPlan.publicWithStackSecrets`).
     */
    publicStackSecrets: Array<{ variable: string; key: string }>;
    /** What still looks like a credential in the written text, which the export cannot move to a stack secret: `onstart sets HF_TOKEN to what looks like a credential`, `argsStr passes --api-key what looks like a credential`. */
    plainCredentials: string[];
}

export interface StackSecretToSet {
    /** The stack config key. */
    key: string;
    /** What its value is, for the line that says to set it: `registry token`, `value of env HF_TOKEN`. */
    holds: string;
}

/** `PyTorch Trainer (v2)` → `pytorch-trainer-v2`: a file and resource name. */
export function baseNameFor(templateName: string): string {
    const slug = templateName
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "");
    return slug || "template";
}

/**
 * Whether a value says nothing a file needs to: the default, or the value that means "not set".
 * For a property with a default, an empty value is a value of its own (`tag: ""`, an image that
 * names its own tag): left out, it would read as the default, and adopting would edit it.
 */
function unset(property: TemplateContentProperty, value: unknown): boolean {
    if (value === undefined || value === null) return true;
    const defaults = TEMPLATE_DEFAULTS as Record<string, unknown>;
    if (property in defaults) return sameValue(defaults[property], value);
    if (value === "" || (typeof value === "object" && Object.keys(value).length === 0)) return true;
    return sameValue(clearedValue(property), value);
}

/** A stack config key made of a resource name and a variable's name: letters, digits, `-`, `_` and `.` only. */
function envSecretKey(resource: string, variable: string): string {
    return `${resource}-env-${variable.replace(/[^A-Za-z0-9_.-]+/g, "_")}`;
}

/**
 * The files for one template, named `<name>.yaml` (and `<name>.onstart.sh`, `<name>.readme.md`).
 * From the file that holds the template already (`existing`): its extension (a `.json` file is
 * written as JSON, a `.yml` one keeps its name), its `resourceName` when the resource is named
 * otherwise than the file, the stack secrets it names for env variables, kept whatever the
 * variable looks like, and its choice for the registry password: the stack secret it names, or
 * none (the program's `secrets` option gives it, or the service keeps the one set in the console).
 * A new file names `<resource>-dockerLoginPass` for a template that logs in to a registry.
 */
export function exportTemplate(record: TemplateRecord, name: string, existing?: Omit<ExistingFile, "base" | "adopt">): ExportedTemplate {
    const { resourceName, envSecrets = {}, extension = ".yaml" } = existing ?? {};
    const resource = resourceName ?? name;
    const inputs = inputsFromRecord(record, {}) as unknown as Record<string, unknown>;
    const content: Record<string, unknown> = { ...(resourceName ? { resourceName } : {}), adopt: record.id };
    const siblings: Array<{ name: string; text: string }> = [];
    const secrets: StackSecretToSet[] = [];
    const plainCredentials: string[] = [];
    const publicStackSecrets: Array<{ variable: string; key: string }> = [];
    for (const property of TEMPLATE_CONTENT) {
        const value = inputs[property];
        if (property === "dockerLoginPass" || unset(property, value)) continue;
        if (property === "env" && typeof value === "object") {
            // A public template's env is public already, and a file may not name a stack secret for
            // it (that would publish the secret): its values are written as they are, and warned
            // about. Not a value the file kept in a stack secret: the file is then not written.
            const isPublic = inputs.private === false;
            content.env = Object.fromEntries(
                Object.entries(value as Record<string, string>).map(([variable, text]) => {
                    const guessed = looksLikeCredential(variable, text);
                    const key = envSecrets[variable] ?? (guessed && !isPublic ? envSecretKey(resource, variable) : undefined);
                    if (key === undefined) {
                        if (isPublic && guessed) plainCredentials.push(describePlainCredential({ property: "env", name: variable }));
                        return [variable, text];
                    }
                    if (isPublic) publicStackSecrets.push({ variable, key });
                    else secrets.push({ key, holds: `value of env ${variable}` });
                    return [variable, { secret: key }];
                }),
            );
            continue;
        }
        // Text the export cannot split into a stack secret (a script, argsStr, a readme, an env flag
        // string it could not read) is written as it is; the command warns about what it holds.
        if (typeof value === "string") {
            plainCredentials.push(...plainCredentialsIn({ [property]: value }).map(describePlainCredential));
        }
        const sibling = SIBLING_FILE_PROPERTIES.find((p) => p === property);
        // A text that a file beside would not give back (CR line ends, a BOM: see asCheckedIn) stays inline.
        if (sibling && typeof value === "string" && value.split("\n").length > INLINE_LINES && asCheckedIn(value) === value) {
            const fileName = `${name}.${SIBLING_EXTENSION[sibling]}`;
            siblings.push({ name: fileName, text: value });
            content[property] = { file: `./${fileName}` };
        } else content[property] = value;
    }
    const logsIn = typeof inputs.dockerLoginUser === "string" && inputs.dockerLoginUser !== "";
    const passKey = existing ? existing.dockerLoginPassSecret : logsIn ? `${resource}-dockerLoginPass` : undefined;
    if (passKey !== undefined) {
        secrets.unshift({ key: passKey, holds: "registry token" });
        content.dockerLoginPass = { secret: passKey };
    }

    let text: string;
    if (extension.toLowerCase() === ".json") {
        // JSON has no comments: the secrets to set are said by the command only.
        text = `${JSON.stringify(content, null, 2)}\n`;
    } else {
        const doc = new Document(content);
        doc.commentBefore = [
            ` Vast.ai template ${record.id}, exported by pulumi-vastai export-templates.`,
            " adopt: the first `pulumi up` takes this template over instead of creating one.",
            ...(secrets.length > 0 ? [" Not exported; set each as a stack secret before the first `pulumi up`:"] : []),
            ...secrets.map((s) => `   pulumi config set --secret ${s.key} <${s.holds}>`),
        ].join("\n");
        text = doc.toString({ lineWidth: 0, minContentWidth: 0 });
    }
    return { templateId: record.id, name, files: [{ name: `${name}${extension}`, text }, ...siblings], secrets, publicStackSecrets, plainCredentials };
}

/**
 * `name`, else `name-<id>`, else `name-<id>-2`, ...: the first that is not `taken` (lower case:
 * macOS and Windows file names ignore case), which it then is.
 */
function freeName(name: string, id: number, taken: Set<string>): string {
    let free = name;
    for (let n = 1; taken.has(free.toLowerCase()); n++) free = n === 1 ? `${name}-${id}` : `${name}-${id}-${n}`;
    taken.add(free.toLowerCase());
    return free;
}

/** What an export writes, and the templates it leaves out. */
export interface ExportPlan {
    exported: ExportedTemplate[];
    /**
     * Templates not written because a file without `adopt` gives their name: it may hold the
     * template already (made by `pulumi up`), and a second file adopting it would make a second
     * resource for one template, whose removal later would delete it under the first.
     */
    inFileWithoutAdopt: Array<{ templateId: number; templateName: string; file: string }>;
    /**
     * Templates made public (in the console) whose file keeps env values in stack secrets: a public
     * template's file cannot name one (every Vast.ai user could read the value), and the export
     * does not write such a value into git in plain text, so the file is left as it is.
     */
    publicWithStackSecrets: Array<{ templateId: number; templateName: string; file: string; secrets: Array<{ variable: string; key: string }> }>;
    /** Templates not written because their file would not give them back (exportRoundTrip.ts), each with why. */
    cannotRoundTrip: Array<{ templateId: number; templateName: string; problems: string[] }>;
}

/**
 * Every record's files, in id order. A template that already has a file (one whose `adopt` is its
 * id) keeps that file's name and resource name, even if it was renamed in the console since: a new
 * resource name would make `pulumi up` adopt it anew and then delete it as the old resource. A
 * template whose name a file without `adopt` gives is left to that file, and one whose file would
 * not give it back is not written (see `ExportPlan`). Other names are made unique, whatever their
 * case: a second template of the same name, or one whose name a file already has or makes its
 * resource name, gets its id added (and a count, if that is taken too).
 */
export function exportTemplates(records: readonly TemplateRecord[], existing: readonly ExistingFile[] = []): ExportPlan {
    const kept = new Map(existing.filter((f) => f.adopt !== undefined).map((f) => [f.adopt as number, f]));
    const withoutAdopt = existing.filter((f) => f.adopt === undefined && f.templateName !== undefined);
    // A new file's base name is its resource name too: it may be neither a file's name nor a resource name a file sets.
    const taken = new Set(existing.flatMap((f) => [f.base, ...(f.resourceName === undefined ? [] : [f.resourceName])]).map((n) => n.toLowerCase()));
    const plan: ExportPlan = { exported: [], inFileWithoutAdopt: [], publicWithStackSecrets: [], cannotRoundTrip: [] };
    for (const record of [...records].sort((a, b) => a.id - b.id)) {
        const templateName = record.name ?? "";
        // A file needs a name and an image (the two required properties).
        if (!record.name || !record.image) {
            plan.cannotRoundTrip.push({ templateId: record.id, templateName, problems: [`has no ${record.name ? "image" : "name"}`] });
            continue;
        }
        const file = kept.get(record.id);
        const sameName = file ? undefined : withoutAdopt.find((f) => f.templateName === record.name);
        if (sameName) {
            plan.inFileWithoutAdopt.push({ templateId: record.id, templateName, file: `${sameName.base}${sameName.extension ?? ""}` });
            continue;
        }
        const exported = file ? exportTemplate(record, file.base, file) : exportTemplate(record, freeName(baseNameFor(record.name), record.id, taken));
        if (exported.publicStackSecrets.length > 0) {
            plan.publicWithStackSecrets.push({ templateId: record.id, templateName, file: exported.files[0].name, secrets: exported.publicStackSecrets });
            continue;
        }
        const problems = roundTripProblems(record, exported.files);
        if (problems.length > 0) plan.cannotRoundTrip.push({ templateId: record.id, templateName, problems });
        else plan.exported.push(exported);
    }
    return plan;
}
