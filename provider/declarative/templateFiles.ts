import * as pulumi from "@pulumi/pulumi";
import * as fs from "fs";
import * as yaml from "js-yaml";
import * as path from "path";
import { checkFailuresFrom } from "../dynamic/checkFailures";
import { Template } from "../resources/template/template";
import { TEMPLATE_PROPERTIES, TemplateArgs, templateArgsSchema } from "../resources/template/templateArgs";

/**
 * Templates kept as files in git: one YAML or JSON file per template, holding `TemplateArgs`
 * (camelCase). Reviewed like code, applied with `pulumi up`. Registry tokens do not belong in
 * git: a file that sets `dockerLoginPass` is refused; pass it through `secrets` instead.
 */
export interface TemplateFile {
    /** Path of the file. */
    file: string;
    /** The file's base name: `pytorch-trainer.yaml` → `pytorch-trainer`; the resource name. */
    name: string;
    args: TemplateArgs;
}

export class TemplateFileError extends Error {
    constructor(file: string, problems: string[]) {
        super(`vastai: template file ${file}: ${problems.join("; ")}`);
        this.name = "TemplateFileError";
    }
}

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/** Reads and checks every template file in `dir`, in name order. Each problem names its file and property. */
export function readTemplateFiles(dir: string): TemplateFile[] {
    const files = fs
        .readdirSync(dir)
        .filter((f) => EXTENSIONS.has(path.extname(f).toLowerCase()))
        .sort();
    const seen = new Map<string, string>();
    return files.map((entry) => {
        const file = path.join(dir, entry);
        const name = path.basename(entry, path.extname(entry));
        if (seen.has(name)) throw new TemplateFileError(file, [`same name as ${seen.get(name)}`]);
        seen.set(name, file);

        let content: unknown;
        try {
            content = yaml.load(fs.readFileSync(file, "utf8"), { filename: file, schema: yaml.JSON_SCHEMA });
        } catch (e) {
            throw new TemplateFileError(file, [e instanceof Error ? e.message : String(e)]);
        }
        if (!content || typeof content !== "object" || Array.isArray(content)) {
            throw new TemplateFileError(file, ["expected a mapping of template properties"]);
        }
        if ("dockerLoginPass" in content) {
            throw new TemplateFileError(file, ["dockerLoginPass: keep registry tokens out of git; pass them with the `secrets` option"]);
        }
        const parsed = templateArgsSchema.safeParse(content);
        if (!parsed.success) {
            const failures = checkFailuresFrom(parsed.error, content, TEMPLATE_PROPERTIES);
            throw new TemplateFileError(file, failures.map((f) => `${f.property}: ${f.reason}`));
        }
        return { file, name, args: content as TemplateArgs };
    });
}

export interface TemplatesFromFilesOptions {
    /** Registry tokens by template name (the file's base name). */
    secrets?: Record<string, { dockerLoginPass: pulumi.Input<string> }>;
    /** Prefix for resource names, when several directories are used in one stack. */
    namePrefix?: string;
    opts?: pulumi.CustomResourceOptions;
}

/** One `Template` per file in `dir`, keyed by name. */
export function templatesFromFiles(dir: string, options: TemplatesFromFilesOptions = {}): Record<string, Template> {
    const templates: Record<string, Template> = {};
    for (const { name, args } of readTemplateFiles(dir)) {
        const secret = options.secrets?.[name];
        templates[name] = new Template(`${options.namePrefix ?? ""}${name}`, { ...args, ...secret }, options.opts);
    }
    const unused = Object.keys(options.secrets ?? {}).filter((n) => !(n in templates));
    if (unused.length > 0) throw new Error(`vastai: secrets given for templates with no file in ${dir}: ${unused.join(", ")}`);
    return templates;
}
