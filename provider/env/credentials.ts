import { isUnknown } from "../dynamic/unknowns";

/**
 * Which environment values look like credentials, for the template files meant for git: the
 * export writes such a value as a stack secret's name instead of the value, and reading a file
 * that holds one in plain text warns (as does a public template holding one). A guess by design,
 * tuned against false alarms on the variables GPU templates commonly set
 * (`TOKENIZERS_PARALLELISM=false`, `OPEN_BUTTON_TOKEN=1`):
 * - a name with a word that names a secret (`HF_TOKEN`, `WANDB_API_KEY`, `DB_PASSWORD`,
 *   `NGROK_AUTHTOKEN`) and not `PUBLIC` (`PUBLIC_KEY`), when the value is long enough to be one
 *   (8 characters) and is neither a shell reference (`$HF_TOKEN`), a path (`/root/.ssh/key`,
 *   `~/.ssh/key`) nor a public key (`ssh-ed25519 AAAA…`);
 * - a name with the word `AUTH` whose value is `user:password`;
 * - whatever the name, a value shaped as a well-known token (`hf_…`, `ghp_…`, `sk-…`, `AKIA…`,
 *   `tskey-…`) or a URL that carries a password (`postgres://user:pass@host`, `redis://:pass@host`).
 * Texts that run (`onstart`, `argsStr`, an env flag string) are searched for `NAME=value`
 * assignments, for `--flag value` and `--flag=value` options named as above (`--api-key 0123…`),
 * and for tokens of those shapes anywhere (`huggingface-cli login --token hf_…`); prose (`readme`,
 * `desc`, ...) for such tokens only. A name for a secret's file or name (`--key-file`,
 * `SECRET_NAME`) and a placeholder (`YOUR_API_KEY`, `<token>`, `server.pem`) are not credentials.
 */

/** Words of a variable's name (split at `_`, `-`, `.` and camelCase humps) that name a secret. */
const SECRET_WORDS = new Set([
    "TOKEN",
    "AUTHTOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASS",
    "PWD",
    "KEY",
    "APIKEY",
    "AUTHKEY",
    "ACCESSKEY",
    "SECRETKEY",
    "PRIVATEKEY",
    "CREDENTIAL",
    "CREDENTIALS",
]);

/**
 * A name whose last word is one of these names something about a secret, not the secret
 * (`HF_TOKEN_FILE`, `--key-file`, `SECRET_NAME`, `--password-file`).
 */
const ABOUT_A_SECRET = new Set(["FILE", "PATH", "DIR", "NAME", "ID", "TYPE", "LENGTH", "SIZE", "ENV", "VAR"]);

/**
 * A value that stands in for a secret in documentation and examples: `<token>`, `{key}`,
 * `YOUR_API_KEY`, `your_token_here`, `xxxxxxxx`; or names a file (`server.pem`, `secrets.txt`).
 */
const PLACEHOLDER = /^(<.*>|\{.*\}|\[.*\]|your[_-].*|.*[_-]here|x{6,}|\*{6,}|.*\.(pem|key|crt|txt|json|ya?ml|env|cfg|conf|ini|toml))$/i;
/** `YOUR_API_KEY`, `HF_TOKEN`: a name written where a value goes, in capitals. */
const CAPITALS_NAME = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;

/** Shorter values are flags and switches (`1`, `false`, `none`), not credentials. */
const MIN_CREDENTIAL_LENGTH = 8;

const TOKEN_PREFIXES = /(hf_|ghp_|gho_|ghs_|ghu_|github_pat_|glpat-|sk-|xox[abpr]-|AKIA|ASIA|tskey-)[A-Za-z0-9_-]{12,}/;
const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIXES.source}$`);
// Ended by the end of a word: a space, a quote, `;`, `@` (a URL's credentials), or a sentence's `.`, `,`, `)`.
const TOKEN_IN_TEXT = new RegExp(`(?:^|[\\s"'=:(])${TOKEN_PREFIXES.source}(?=$|[\\s"';@.,)])`, "g");
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:[^\s/@]+@/i;
const PUBLIC_KEY = /^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-\S+|sk-(ssh|ecdsa)-\S+) AAAA/;
const USER_AND_PASSWORD = /^[^\s:]+:[^\s:]+$/;

function nameWords(name: string): string[] {
    return name
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .replace(/([A-Z])([A-Z][a-z])/g, "$1_$2")
        .toUpperCase()
        .split(/[^A-Z0-9]+/);
}

export function looksLikeCredential(name: string, value: string): boolean {
    const text = value.trim();
    if (TOKEN_SHAPE.test(text) || URL_WITH_PASSWORD.test(text)) return true;
    if (text.length < MIN_CREDENTIAL_LENGTH || /^[$/~.]/.test(text) || PUBLIC_KEY.test(text) || PLACEHOLDER.test(text) || CAPITALS_NAME.test(text)) return false;
    const words = nameWords(name).filter(Boolean);
    if (words.includes("PUBLIC") || ABOUT_A_SECRET.has(words[words.length - 1])) return false;
    return words.some((word) => SECRET_WORDS.has(word)) || (words.includes("AUTH") && USER_AND_PASSWORD.test(text));
}

/**
 * A credential-looking value in plain text in one of a template's properties: the value of the
 * variable `name` (an env entry, or an assignment in a text), the value of the option `flag`, or
 * a bare `token` (its first characters).
 */
export type PlainCredential = { property: string } & ({ name: string } | { flag: string } | { token: string });

/** The registry password is a credential by design, kept secret on its own: not searched. */
const NOT_SEARCHED = new Set(["dockerLoginPass"]);

/** Strips one pair of outer quotes. */
const unquoted = (value: string) => value.replace(/^(["'])(.*)\1$/s, "$2");

/** The texts that run (a script, the command's arguments, env flags): searched for assignments and options too. */
const COMMANDS = new Set(["env", "onstart", "argsStr"]);

/**
 * The credentials a text holds: tokens of a known shape anywhere; and, in a text that runs
 * (`COMMANDS`), `NAME=value` assignments and `--flag value` options. Prose (`readme`, `desc`) is
 * searched for tokens only: "run with --token followed by yours" is not a credential.
 */
function credentialsInText(property: string, text: string): PlainCredential[] {
    const found: PlainCredential[] = [];
    const given = new Set<string>();
    const names = new Set<string>();
    const runs = COMMANDS.has(property);
    for (const m of runs ? text.matchAll(/(?:^|[\s;"'])([A-Za-z_][A-Za-z0-9_]*)=("[^"\n]*"|'[^'\n]*'|[^\s;"']+)/g) : []) {
        const value = unquoted(m[2]);
        if (!looksLikeCredential(m[1], value) || names.has(m[1])) continue;
        names.add(m[1]);
        given.add(value.trim());
        found.push({ property, name: m[1] });
    }
    const flags = new Set<string>();
    for (const m of runs ? text.matchAll(/(?:^|\s)(--[A-Za-z][A-Za-z0-9_-]*)(?:=|[ \t]+)("[^"\n]*"|'[^'\n]*'|[^\s;"']+)/g) : []) {
        const value = unquoted(m[2]);
        if (value.startsWith("-") || !looksLikeCredential(m[1], value) || flags.has(m[1])) continue;
        flags.add(m[1]);
        given.add(value.trim());
        found.push({ property, flag: m[1] });
    }
    const tokens = new Set<string>();
    for (const m of text.matchAll(TOKEN_IN_TEXT)) {
        const token = m[0].replace(/^[\s"'=:(]/, "");
        if (!given.has(token)) tokens.add(`${token.slice(0, m[1].length)}…`);
    }
    return [...found, ...[...tokens].map((token) => ({ property, token }))];
}

/**
 * The credential-looking values a template's properties hold in plain text: `env` by variable (a
 * map) or searched as text (a flag string), every other text property searched as text.
 */
export function plainCredentials(template: Readonly<Record<string, unknown>>): PlainCredential[] {
    const found: PlainCredential[] = [];
    for (const [property, value] of Object.entries(template)) {
        if (NOT_SEARCHED.has(property) || isUnknown(value)) continue;
        if (property === "env" && value && typeof value === "object") {
            for (const [name, text] of Object.entries(value)) {
                if (typeof text === "string" && !isUnknown(text) && looksLikeCredential(name, text)) found.push({ property, name });
            }
        } else if (typeof value === "string") found.push(...credentialsInText(property, value));
    }
    return found;
}

/** `env HF_TOKEN looks like a credential`, `onstart sets WANDB_API_KEY to ...`, `argsStr passes --api-key ...`, `readme holds what looks like a token (hf_…)`. */
export function describePlainCredential(found: PlainCredential): string {
    if ("token" in found) return `${found.property} holds what looks like a token (${found.token})`;
    if ("flag" in found) return `${found.property} passes ${found.flag} what looks like a credential`;
    return found.property === "env" ? `env ${found.name} looks like a credential` : `${found.property} sets ${found.name} to what looks like a credential`;
}
