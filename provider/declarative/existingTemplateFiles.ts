import * as fs from "fs";
import * as path from "path";
import { parseTemplateFile } from "./templateFileDocument";
import { templateFileNames } from "./templateFiles";
import { TemplateFileError, TemplateFileProblem, secretRef } from "./templateFileReader";

/** A template file already in the output folder: its base name, and what it says it is. */
export interface ExistingFile {
    base: string;
    /** `.yaml`, `.yml` or `.json`. */
    extension?: string;
    adopt?: number;
    resourceName?: string;
    /** The template's `name` the file gives: a file without `adopt` may hold the template of that name already. */
    templateName?: string;
    /** The stack secrets it names for env variables: variable → stack config key. */
    envSecrets?: Record<string, string>;
    /** The stack secret it names for the registry password; none when it names none. */
    dockerLoginPassSecret?: string;
}

/**
 * What the template files in `dir` say they are, for an export that keeps each template in the
 * file it already has. A file with a mistake in a property still counts; one that does not read
 * as YAML or JSON at all (a merge conflict left in) is refused, naming where: its `adopt` cannot
 * be known, and guessing wrong would write a second file adopting the same template.
 */
export function existingTemplateFiles(dir: string): ExistingFile[] {
    if (!fs.existsSync(dir)) return [];
    const problems: TemplateFileProblem[] = [];
    const files = templateFileNames(dir).map((entry): ExistingFile => {
        const file = path.join(dir, entry);
        const base = path.basename(entry, path.extname(entry));
        let text: string;
        try {
            text = fs.readFileSync(file, "utf8");
        } catch (e) {
            problems.push({ file, reason: `cannot read it: ${(e as NodeJS.ErrnoException).code ?? e}` });
            return { base };
        }
        const doc = parseTemplateFile(file, text);
        // The first of its problems is enough to say the file does not read; a conflict gives one a line.
        problems.push(...doc.syntaxProblems.slice(0, 1));
        const content = doc.content;
        const { adopt, resourceName, name, env, dockerLoginPass } = (content && typeof content === "object" ? content : {}) as Record<string, unknown>;
        const envSecrets = Object.entries(env && typeof env === "object" ? env : {}).flatMap(([variable, value]) => {
            const key = secretRef(value);
            return key ? [[variable, key] as const] : [];
        });
        return {
            base,
            extension: path.extname(entry),
            ...(typeof adopt === "number" ? { adopt } : {}),
            ...(typeof resourceName === "string" ? { resourceName } : {}),
            ...(typeof name === "string" ? { templateName: name } : {}),
            ...(envSecrets.length > 0 ? { envSecrets: Object.fromEntries(envSecrets) } : {}),
            ...(secretRef(dockerLoginPass) ? { dockerLoginPassSecret: secretRef(dockerLoginPass) } : {}),
        };
    });
    if (problems.length > 0) throw new TemplateFileError(problems);
    return files;
}
