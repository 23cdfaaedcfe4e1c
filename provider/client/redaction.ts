/**
 * Keeps credentials and secret values out of messages: `redactor` blanks the values its caller
 * hands it (the API key, what `secretValuesIn` finds in the request sent), and credential fields by
 * name wherever they stand.
 */
import { readTemplateEnvFlags } from "../schemas/envFlags";

/**
 * Body fields that hold a credential wherever they appear: `users/current` carries the account's
 * `api_key`, a key's create response its `key`. `redact` only knows the key the call was made with,
 * which is not the account's key when a scoped key is in use.
 */
const CREDENTIAL_FIELDS = new Set(["api_key", "key", "instance_api_key", "docker_login_pass", "image_login"]);

/**
 * Body fields whose values the program may have marked secret (the engine keeps `env` secret in
 * state): every environment value, an instance's as a map and a template's in its `-e NAME=value`
 * flags, and the free text a secret is put in (the start script, the container's arguments, where
 * `--api-key ...` goes, a readme, a description). Blanked in messages, like credentials, since this
 * provider cannot tell which of them the program marked; every property declared
 * `mayHoldCredentials` sends one of them (test/unit/errors.test.ts). An environment value only
 * beside its name, as an echo of the request quotes it (`NAME=value`, `"NAME": "value"`): a value
 * alone may be an ordinary word (`None`, `error`) of the service's own message, which callers read.
 * An SSH key's `ssh_key` too: a private key pasted for the public one must not reach a message.
 * A description, or one of an instance's `args`, shorter than SHORT_TEXT_CHARS only as an echo
 * quotes it (`"desc": "..."`, `"bash"`): it may be an ordinary word of the service's own message.
 */
const ENV_FIELDS = new Set(["env", "extra_env"]);
const SECRET_BEARING_FIELDS = new Set(["onstart", "args", "args_str", "readme", "desc", "ssh_key", "launch_args"]);
const SHORT_TEXT_FIELDS = new Set(["desc", "args"]);
const SHORT_TEXT_CHARS = 16;

/** How an echo of the request may quote a short `desc` or one of `args` (see SHORT_TEXT_FIELDS). */
function shortTextEchoForms(field: string, value: string): string[] {
    const json = JSON.stringify(value);
    return field === "args" ? [json, `'${value}'`] : [`"${field}":${json}`, `"${field}": ${json}`, `'${field}': '${value}'`, `${field}=${value}`];
}

/** How an echo of the request may quote an environment variable: in a flag string, in JSON, in a Python repr. */
function envEchoForms(name: string, value: string): string[] {
    const json = JSON.stringify(value);
    return [`${name}=${value}`, `${name}="${value}"`, `${name}='${value}'`, `"${name}":${json}`, `"${name}": ${json}`, `'${name}': '${value}'`];
}

/** The `-e NAME=value` pairs of a flag string, or none when it does not read as one (a worker's onstart). */
function safeEnvFlags(flags: string): Record<string, string> {
    try {
        return readTemplateEnvFlags(flags);
    } catch {
        return {};
    }
}

/** `text` as it stands inside a JSON string. */
function jsonEscaped(text: string): string {
    return JSON.stringify(text).slice(1, -1);
}

/** Shorter values are not blanked by value: they would blank ordinary words of a message (an environment value is blanked with its name, whatever its length). */
const MIN_SECRET_CHARS = 4;

/**
 * The credentials a request carries (`docker_login_pass`, `image_login` and its `-p` token, a
 * key) and the values it may carry secrets in (ENV_FIELDS, SECRET_BEARING_FIELDS), wherever they sit in
 * the body. A service that echoes the request in an error would otherwise put them in a message:
 * these are blanked by value, whatever field quotes them.
 */
export function secretValuesIn(body: unknown): string[] {
    const found: string[] = [];
    const walk = (value: unknown, field?: string) => {
        if (field && ENV_FIELDS.has(field)) {
            const vars = typeof value === "string" ? Object.entries(readTemplateEnvFlags(value)) : value && typeof value === "object" ? Object.entries(value) : [];
            for (const [name, v] of vars) if (typeof v === "string" && v !== "") found.push(...envEchoForms(name, v));
        } else if (typeof value === "string") {
            // A worker group's launch arguments hold its workers' env and onstart, each quoted: the words inside too.
            if (field === "launch_args") {
                for (const m of value.matchAll(/--(?:env|onstart-cmd)\s+(?:'([^']*)'|"([^"]*)")/g)) {
                    const quoted = m[1] ?? m[2];
                    found.push(quoted);
                    for (const [name, v] of Object.entries(safeEnvFlags(quoted))) if (v !== "") found.push(...envEchoForms(name, v));
                }
            }
            if (field && SECRET_BEARING_FIELDS.has(field)) {
                found.push(...(SHORT_TEXT_FIELDS.has(field) && value.length < SHORT_TEXT_CHARS ? shortTextEchoForms(field, value) : [value]));
            }
            if (field && CREDENTIAL_FIELDS.has(field)) {
                found.push(value);
                // `-u user -p token registry` (or `--password=token`, quoted): the token alone may be quoted too.
                const token = field === "image_login" ? /(?:^|\s)(?:-p|--password)(?:\s+|=)(["']?)([^\s"']+)\1/.exec(value)?.[2] : undefined;
                if (token) found.push(token);
            }
        } else if (Array.isArray(value)) value.forEach((v) => walk(v, field)); // an instance's `args`: each one
        else if (value && typeof value === "object") Object.entries(value).forEach(([k, v]) => walk(v, k));
    };
    walk(body);
    return found.filter((s) => s.length >= MIN_SECRET_CHARS);
}

/**
 * Blanks each of `secrets` (longest first) and credential fields by name. Each also as it stands
 * in a JSON string, and in JSON text quoted inside one (an echo whose message quotes the request's
 * JSON): a secret with a quote, a backslash or a line break reads differently in each.
 */
export function redactor(secrets: readonly string[]): (text: string) => string {
    const forms = [...new Set(secrets.filter(Boolean).flatMap((s) => [s, jsonEscaped(s), jsonEscaped(jsonEscaped(s))]))].sort((a, b) => b.length - a.length);
    return (text) => scrubCredentials(forms.reduce((t, s) => t.split(s).join("[redacted]"), text));
}

/**
 * Blanks credential fields in text that is not parsed JSON (a truncated body, an HTML page quoting
 * one): `"api_key": "..."`, `key='...'`, `api_key=...`.
 */
export function scrubCredentials(text: string): string {
    const names = [...CREDENTIAL_FIELDS].join("|");
    return text
        .replace(new RegExp(`((?:["']?)\\b(?:${names})\\b["']?\\s*[:=]\\s*)(["'])(?:\\\\.|(?!\\2).)*\\2?`, "g"), "$1$2[redacted]$2")
        .replace(new RegExp(`(\\b(?:${names})\\b\\s*[:=]\\s*)(?!["'\\[])[^\\s,&;}\\]<"']+`, "g"), "$1[redacted]");
}

function bodyText(body: unknown): string {
    return JSON.stringify(body, (field, value) => (CREDENTIAL_FIELDS.has(field) && typeof value === "string" ? "[redacted]" : value));
}

/** The service's message: `msg`, then `detail`, then `error`, then the body itself (credentials blanked). */
export function serviceMessageOf(body: unknown): string {
    if (body && typeof body === "object" && !Array.isArray(body)) {
        const b = body as Record<string, unknown>;
        for (const key of ["msg", "detail", "error"]) {
            const value = b[key];
            if (typeof value === "string" && value.trim() !== "") return value.trim();
        }
        return bodyText(body);
    }
    if (typeof body === "string") return scrubCredentials(body.trim());
    return body === undefined ? "" : bodyText(body);
}
