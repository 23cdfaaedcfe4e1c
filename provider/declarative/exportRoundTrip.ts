import * as path from "path";
import { adoptionEdits } from "../resources/template/create/adoptTemplate";
import { canonicalTemplateInputs, inputsFromRecord } from "../resources/template/common/templateMapping";
import { TemplateRecord } from "../schemas/template";
import { readTemplateText } from "./templateFileReader";
import { ProviderError } from "../errors/providerError";

/**
 * Whether the files the export is about to write for `record` give the template back: read by
 * the reader `templatesFromFiles` uses, then compared as adopting them compares, so the first
 * `pulumi up` finds nothing to edit. A template the format cannot hold as it is (an env flag the
 * reader refuses, a disk size of 0, a runtype other than ssh, jupyter or args) is not written: a
 * file every `up` refuses, or one whose first `up` edits the template (a new hash, replacing the
 * instances on it), is worse than no file.
 *
 * `files`: the template file first, then the files it names. The problems, each a line; none when
 * the files give the template back.
 */
export function roundTripProblems(record: TemplateRecord, files: ReadonlyArray<{ name: string; text: string }>): string[] {
    const [main, ...siblings] = files;
    const read = readTemplateText(main.name, main.text, (ref) => {
        const sibling = siblings.find((f) => f.name === path.posix.normalize(ref));
        if (!sibling) throw new ProviderError("internal", `the export writes no ${ref}`);
        return sibling.text;
    });
    // No file and line: the file is not written.
    if ("problems" in read) return read.problems.map((p) => (p.property ? `${p.property}: ${p.reason}` : p.reason));
    const { args, envSecrets = {} } = read.template;
    const service = inputsFromRecord(record, {});
    // A stack secret the file names stands for the template's own value, which the export took out.
    const secretValues = Object.fromEntries(Object.keys(envSecrets).map((variable) => [variable, service.env?.[variable]]));
    const env = Object.keys(secretValues).length > 0 ? { env: { ...(args.env as Record<string, string>), ...secretValues } } : {};
    const edits = adoptionEdits(record, canonicalTemplateInputs({ ...args, ...env }));
    return edits.length === 0 ? [] : [`${edits.join(", ")}: the file would not read back as the template has it, and the first \`pulumi up\` would edit it`];
}
