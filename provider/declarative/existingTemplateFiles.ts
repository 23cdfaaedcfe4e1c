import * as fs from "fs";
import * as path from "path";
import { parseTemplateFile } from "./templateFileDocument";
import { templateFileNames } from "./templateFiles";
import { secretRef } from "./templateFileReader";

/** A template file already in the output folder: its base name, and what it says it is. */
export interface ExistingFile {
    base: string;
    /** `.yaml`, `.yml` or `.json`. */
    extension?: string;
    adopt?: number;
    resourceName?: string;
    /** The stack secrets it names for env variables: variable → stack config key. */
    envSecrets?: Record<string, string>;
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
