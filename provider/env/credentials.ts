import { isUnknown } from "../dynamic/unknowns";

/**
 * Which environment values look like credentials, for the template files meant for git: the
 * export writes such a value as a stack secret's name instead of the value, and reading a file
 * that holds one in plain text warns. A guess by design, tuned against false alarms on the
 * variables GPU templates commonly set (`TOKENIZERS_PARALLELISM=false`, `OPEN_BUTTON_TOKEN=1`):
 * - a name with a word that names a secret (`HF_TOKEN`, `WANDB_API_KEY`, `DB_PASSWORD`) and not
 *   `PUBLIC` (`PUBLIC_KEY`), when the value is long enough to be one (8 characters) and is neither
 *   a shell reference (`$HF_TOKEN`) nor an absolute path (`KEY_FILE=/root/.ssh/key`);
 * - whatever the name, a value shaped as a well-known token (`hf_…`, `ghp_…`, `sk-…`, `AKIA…`) or
 *   a URL that carries a password (`postgres://user:pass@host`).
 */

/** Words of a variable's name (split at `_`, `-`, `.` and camelCase humps) that name a secret. */
const SECRET_WORDS = new Set(["TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "PWD", "KEY", "APIKEY", "CREDENTIAL", "CREDENTIALS"]);

/** Shorter values are flags and switches (`1`, `false`, `none`), not credentials. */
const MIN_CREDENTIAL_LENGTH = 8;

const TOKEN_SHAPES = /^(hf_|ghp_|gho_|ghs_|ghu_|github_pat_|glpat-|sk-|xox[abpr]-|AKIA|ASIA)[A-Za-z0-9_-]{12,}$/;
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i;

function nameWords(name: string): string[] {
    return name
        .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
        .toUpperCase()
        .split(/[^A-Z0-9]+/);
}

export function looksLikeCredential(name: string, value: string): boolean {
    const text = value.trim();
    if (TOKEN_SHAPES.test(text) || URL_WITH_PASSWORD.test(text)) return true;
    if (text.length < MIN_CREDENTIAL_LENGTH || text.startsWith("$") || text.startsWith("/")) return false;
    const words = nameWords(name);
    return !words.includes("PUBLIC") && words.some((word) => SECRET_WORDS.has(word));
}

/**
 * The names a script or flag string assigns credential-looking values to in plain text:
 * `export HF_TOKEN=hf_…` in an `onstart`, `-e HF_TOKEN=hf_…` in an `env` flag string.
 */
export function credentialAssignments(text: string): string[] {
    const names = new Set<string>();
    for (const m of text.matchAll(/(?:^|[\s;])([A-Za-z_][A-Za-z0-9_]*)=("[^"\n]*"|'[^'\n]*'|[^\s;]+)/g)) {
        const value = m[2].replace(/^(["'])(.*)\1$/, "$2");
        if (looksLikeCredential(m[1], value)) names.add(m[1]);
    }
    return [...names];
}

/** A credential-looking value, where it is: in `env` as the value of `name`, or set by `onstart` as `name`. */
export interface PlainCredential {
    property: "env" | "onstart";
    name: string;
}

/** The credential-looking values a template's `env` (a map or a flag string) and `onstart` hold in plain text. */
export function plainCredentials(template: { env?: unknown; onstart?: unknown }): PlainCredential[] {
    const found: PlainCredential[] = [];
    const { env, onstart } = template;
    if (typeof env === "string") found.push(...credentialAssignments(env).map((name) => ({ property: "env" as const, name })));
    else if (env && typeof env === "object") {
        for (const [name, value] of Object.entries(env)) {
            if (typeof value === "string" && !isUnknown(value) && looksLikeCredential(name, value)) found.push({ property: "env", name });
        }
    }
    if (typeof onstart === "string") found.push(...credentialAssignments(onstart).map((name) => ({ property: "onstart" as const, name })));
    return found;
}
