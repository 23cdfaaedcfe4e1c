/** The one home of template request building and read-back: canonical inputs to the request's fields, and a service record back to inputs. */
import { canonicalInputs } from "../../canonicalInputs";
import { sameValue } from "../../../dynamic/diffInputs";
import { EnvFlagError, formatEnvFlags, parseEnvFlags } from "../../../schemas/envFlags";
import { TemplateFields, TemplateRecord } from "../../../schemas/template";
import { TEMPLATE_CONTENT, TEMPLATE_DEFAULTS, TEMPLATE_FIELDS, TEMPLATE_PROPERTIES, TemplateInputs, TemplateProperty } from "../templateArgs";

/**
 * A program's arguments as `check` hands them on: defaults and the canonical env map; values
 * unknown during preview are left as they are. A `null` (the contract's type allows it for
 * `jupyterDir` and `volumeInfo`) is read as not set, as the service reads one: so a program that
 * sets it clears the field as if it left it out, rather than send a null the service ignores while
 * state says null.
 */
export function canonicalTemplateInputs(args: Record<string, unknown>): TemplateInputs {
    const given = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
    return canonicalInputs(given, TEMPLATE_PROPERTIES, TEMPLATE_DEFAULTS) as unknown as TemplateInputs;
}

/**
 * A text file's content as it was committed: git's autocrlf on Windows checks `*.sh` out with CRLF
 * line ends, and some editors write a UTF-8 BOM. Sent as they are, they edit the template on the
 * first `up` after such a checkout (replacing every instance on it), and bash fails at
 * `set -euo pipefail\r`. A text whose own lines end in CR is written inline by the export instead, and
 * state written before files were read so is compared in this form (the Template provider's diff).
 */
export function asCheckedIn(text: string): string {
    return text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
}

/** Canonical inputs → the body of a create or an edit. */
export function toTemplateFields(inputs: TemplateInputs): TemplateFields {
    const body: Record<string, unknown> = {};
    for (const property of TEMPLATE_CONTENT) {
        const value = inputs[property];
        if (value === undefined) continue;
        body[TEMPLATE_FIELDS[property]] = property === "env" ? formatEnvFlags(value as Record<string, string>) : value;
    }
    return body as TemplateFields;
}

/**
 * Values that clear a property, for ones the program stopped setting (an edit keeps omitted
 * fields). Never `null`: the service reads a null in a body as "not set" and keeps the value
 * (docs/live-service.md, what the vendor's clients send), so `jupyterDir` and `volumeInfo`, whose
 * contract type allows null, are cleared with their empty values. Registry login fields are not
 * cleared: one the program stops setting is left as the service has it (it may have been set in
 * the console), never erased by omission.
 */
const CLEARED: Partial<Record<TemplateProperty, unknown>> = {
    desc: "",
    readme: "",
    env: "",
    onstart: "",
    argsStr: "",
    sshDirect: false,
    useSsh: false,
    jupDirect: false,
    jupyterDir: "",
    useJupyterLab: false,
    href: "",
    repo: "",
    extraFilters: {},
    volumeInfo: {},
};

/** The value that clears `property`: what "not set" looks like on the service (undefined when it has none). */
export function clearedValue(property: TemplateProperty): unknown {
    return CLEARED[property];
}

export function clearedFields(removed: readonly TemplateProperty[]): Partial<TemplateFields> {
    const body: Record<string, unknown> = {};
    for (const property of removed) {
        if (property in CLEARED) body[TEMPLATE_FIELDS[property as keyof typeof TEMPLATE_FIELDS]] = CLEARED[property];
    }
    return body as Partial<TemplateFields>;
}

/** Whether a record holds the content we sent (the registry password is never read back). */
export function hasContent(record: TemplateRecord, fields: Partial<TemplateFields>): boolean {
    const raw = record as Record<string, unknown>;
    return Object.entries(fields).every(([field, value]) => field === "docker_login_pass" || sameValue(raw[field], value));
}

/** The service never returns the registry password; other fields it may leave out keep their value. */
export const NOT_READ_BACK: readonly TemplateProperty[] = ["dockerLoginPass"];

/**
 * The inputs a service record stands for, as far as the program manages them: the properties it
 * set (plus the defaulted ones), each with the service's current value. With no previous inputs
 * (a `get`), every property the record carries.
 */
export function inputsFromRecord(record: TemplateRecord, previous: Partial<TemplateInputs>): TemplateInputs {
    const fresh = Object.keys(previous).length === 0;
    const managed = new Set<TemplateProperty>(Object.keys(TEMPLATE_DEFAULTS) as TemplateProperty[]);
    for (const property of TEMPLATE_PROPERTIES) {
        if (previous[property] !== undefined) managed.add(property);
    }
    const inputs: Record<string, unknown> = { ...TEMPLATE_DEFAULTS, ...previous };
    const raw = record as Record<string, unknown>;
    for (const property of TEMPLATE_CONTENT) {
        const field = TEMPLATE_FIELDS[property];
        if ((!managed.has(property) && !fresh) || NOT_READ_BACK.includes(property) || raw[field] === undefined) continue;
        if (raw[field] === null && property !== "jupyterDir" && property !== "volumeInfo") continue;
        inputs[property] = readBack(property, raw[field]);
    }
    return inputs as unknown as TemplateInputs;
}

function readBack(property: TemplateProperty, value: unknown): unknown {
    if (property === "env" && typeof value === "string") {
        try {
            return parseEnvFlags(value);
        } catch (e) {
            // Written elsewhere in a form we do not read: keep the text, so the diff shows it.
            if (e instanceof EnvFlagError) return value;
            throw e;
        }
    }
    if (property === "extraFilters" && typeof value === "string") {
        try {
            return JSON.parse(value);
        } catch {
            return value;
        }
    }
    return value;
}
