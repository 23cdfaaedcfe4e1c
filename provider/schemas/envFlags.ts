/**
 * Container environment in its two spellings. Templates store a flag string
 * (`-e NAME=value -p 8080:8080/udp`); instances take a map where a port mapping is the key
 * `-p host:container` with value "1". Both are turned into one canonical map, so equivalent
 * spellings never show as a diff, and back into a flag string when a template is sent.
 * The other flags the vendor CLI's reader takes are kept as it keeps them: a volume `-v X` and a
 * network `-n X` as the keys `-v X` and `-n X` with value "1", a hostname `-h X` as the key `-h`
 * with value X.
 */
import { ProviderError } from "../errors/providerError";

export type EnvMap = Record<string, string>;

export class EnvFlagError extends ProviderError {
    constructor(message: string) {
        super("invalid_input", message);
    }
}

const PORT_SPEC = /^(\d{1,5})(?::(\d{1,5}))?(?:\/(tcp|udp))?$/;
const PORT_KEY = /^-p (\S+)$/;
const VAR_NAME = /^[^\s=-][^\s=]*$/;

/** What `-v`, `-n` and `-h` take (the vendor CLI's character sets; a hostname's for `-h`), in words for errors. */
const OTHER_FLAGS = {
    "-v": { arg: /^[A-Za-z0-9:./_]+$/, what: "a volume like /data:/data (letters, digits and : . / _)" },
    "-n": { arg: /^[a-z0-9-]+$/, what: "a network name (lowercase letters, digits and -)" },
    "-h": { arg: /^[A-Za-z0-9.-]+$/, what: "a hostname (letters, digits, . and -)" },
} as const;
type OtherFlag = keyof typeof OTHER_FLAGS;
const isOtherFlag = (flag: string): flag is OtherFlag => flag in OTHER_FLAGS;
/** The map entry an `-v`, `-n` or `-h` flag makes. */
const otherFlagEntry = (flag: OtherFlag, arg: string): [string, string] => (flag === "-h" ? ["-h", arg] : [`${flag} ${arg}`, "1"]);
/** The flag and its argument that a map entry stands for, when it is one of `-v X`, `-n X`, `-h`. */
function otherFlagOf(key: string, value: string): { flag: OtherFlag; arg: string } | undefined {
    if (key === "-h") return { flag: "-h", arg: value };
    const m = /^(-v|-n) (.+)$/s.exec(key);
    return m ? { flag: m[1] as OtherFlag, arg: m[2] } : undefined;
}

/** `8080:8080/tcp` → `8080:8080` (tcp is the default); undefined when not a port spec. */
function canonicalPort(spec: string): string | undefined {
    const m = PORT_SPEC.exec(spec);
    if (!m) return undefined;
    for (const port of [m[1], m[2]]) {
        if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
    }
    return `${m[1]}${m[2] ? `:${m[2]}` : ""}${m[3] === "udp" ? "/udp" : ""}`;
}

/** Splits on whitespace outside quotes; single quotes are literal, double quotes allow `\"` and `\\`. */
function tokenize(text: string): string[] {
    const tokens: string[] = [];
    let current = "";
    let inToken = false;
    let quote: "'" | '"' | null = null;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (quote === "'") {
            if (c === "'") quote = null;
            else current += c;
        } else if (quote === '"') {
            if (c === '"') quote = null;
            else if (c === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) current += text[++i];
            else current += c;
        } else if (c === "'" || c === '"') {
            quote = c;
            inToken = true;
        } else if (/\s/.test(c)) {
            if (inToken) tokens.push(current);
            current = "";
            inToken = false;
        } else {
            current += c;
            inToken = true;
        }
    }
    if (quote) throw new EnvFlagError(`unterminated ${quote} quote in env flags`);
    if (inToken) tokens.push(current);
    return tokens;
}

/**
 * A word of a flag string as a message shows it: a flag by its name, anything else by its place
 * only, since a stray word is most often part of a value with spaces (a password, a token) that
 * lost its quotes.
 */
function shownWord(word: string, index: number): string {
    // A flag's name is letters and dashes (`--shm-size`, `-it`); a word with digits may be a value.
    const flagName = word.split("=")[0];
    return /^--?[A-Za-z][A-Za-z-]{0,40}$/.test(flagName) ? JSON.stringify(flagName) : `at word ${index + 1} (not shown: it may be part of a value; quote a value that holds spaces)`;
}

/** Reads a flag string. Anything that is not `-e NAME=value`, `-p ports`, `-v`, `-n` or `-h` is an error, never dropped. */
export function parseEnvFlags(flags: string): EnvMap {
    const tokens = tokenize(flags);
    const env: EnvMap = {};
    for (let i = 0; i < tokens.length; i += 2) {
        const flag = tokens[i];
        const arg = tokens[i + 1];
        if (flag !== "-e" && flag !== "-p" && !isOtherFlag(flag)) {
            throw new EnvFlagError(`unsupported env flag ${shownWord(flag, i)}: expected -e NAME=value, -p host:container, -v volume, -n network or -h hostname`);
        }
        if (arg === undefined) throw new EnvFlagError(`${flag} at the end of the env flags has no value`);
        if (isOtherFlag(flag)) {
            if (!OTHER_FLAGS[flag].arg.test(arg)) throw new EnvFlagError(`${flag} ${JSON.stringify(arg)} is not ${OTHER_FLAGS[flag].what}`);
            const [key, value] = otherFlagEntry(flag, arg);
            env[key] = value;
        } else if (flag === "-e") {
            const eq = arg.indexOf("=");
            const name = eq > 0 ? arg.slice(0, eq) : "";
            if (!VAR_NAME.test(name)) {
                // Only the name is quoted: what follows "=" is a value, and may be a secret one.
                throw new EnvFlagError(
                    eq > 0
                        ? `-e ${JSON.stringify(name)}=… is not NAME=value: a name has no spaces and does not start with "-"`
                        : `-e at word ${i + 2} is not NAME=value (its text is not shown: it may be a value)`,
                );
            }
            env[name] = arg.slice(eq + 1);
        } else {
            const port = canonicalPort(arg);
            if (!port) throw new EnvFlagError(`-p ${JSON.stringify(arg)} is not a port mapping like 8080:8080 or 53:53/udp`);
            env[`-p ${port}`] = "1";
        }
    }
    return normalizeEnvMap(env);
}

/**
 * A stored template's flag string read as the service reads it when it merges env into an instance
 * (the vendor CLI's `parse_env`): `-e NAME=value` and `-p ports` as in `parseEnvFlags`; `-v`, `-n`
 * and `-h` kept as `parseEnvFlags` keeps them, whatever their argument; anything else dropped. For
 * templates written elsewhere, which may hold flags this package's own Template refuses.
 */
export function readTemplateEnvFlags(flags: string): EnvMap {
    let tokens: string[];
    try {
        tokens = tokenize(flags);
    } catch {
        tokens = flags.split(/\s+/).filter(Boolean);
    }
    const env: EnvMap = {};
    for (let i = 0; i + 1 < tokens.length; i++) {
        const [flag, arg] = [tokens[i], tokens[i + 1]];
        if (flag === "-e") {
            const eq = arg.indexOf("=");
            if (eq > 0 && VAR_NAME.test(arg.slice(0, eq))) env[arg.slice(0, eq)] = arg.slice(eq + 1);
        } else if (flag === "-p") {
            const port = canonicalPort(arg);
            if (port) env[`-p ${port}`] = "1";
        } else if (isOtherFlag(flag)) {
            const [key, value] = otherFlagEntry(flag, arg);
            env[key] = value;
        } else {
            continue;
        }
        i++;
    }
    return normalizeEnvMap(env);
}

/** Problems with a map's entries, each naming its key; empty when the map is usable. */
export function envMapProblems(env: Record<string, unknown>): Array<{ key: string; problem: string }> {
    const problems: Array<{ key: string; problem: string }> = [];
    for (const [key, value] of Object.entries(env)) {
        if (typeof value !== "string") {
            problems.push({ key, problem: `expected a string value, got ${value === null ? "null" : typeof value}` });
            continue;
        }
        const port = PORT_KEY.exec(key);
        const other = otherFlagOf(key, value);
        if (port) {
            if (!canonicalPort(port[1])) problems.push({ key, problem: `"${port[1]}" is not a port mapping like 8080:8080 or 53:53/udp` });
            else if (value !== "1") problems.push({ key, problem: 'a port mapping takes the value "1"' });
        } else if (other) {
            if (!OTHER_FLAGS[other.flag].arg.test(other.arg)) problems.push({ key, problem: `"${other.arg}" is not ${OTHER_FLAGS[other.flag].what}` });
            else if (other.flag !== "-h" && value !== "1") problems.push({ key, problem: `${other.flag} takes the value "1"` });
        } else if (!VAR_NAME.test(key)) {
            problems.push({ key, problem: "not a variable name (no spaces or '=', must not start with '-') nor '-p host:container', '-v volume', '-n network' or '-h'" });
        } else if (/[\r\n\0]/.test(value)) {
            problems.push({ key, problem: "values cannot hold line breaks or NUL" });
        }
    }
    return problems;
}

/** Canonical map: port keys without a default `/tcp`, keys sorted (variables, then ports). */
export function normalizeEnvMap(env: EnvMap): EnvMap {
    const entries = Object.entries(env).map(([key, value]): [string, string] => {
        const port = PORT_KEY.exec(key);
        return port ? [`-p ${canonicalPort(port[1]) ?? port[1]}`, value] : [key, value];
    });
    const rank = (k: string) => ["-p", "-v", "-n", "-h"].indexOf(k.split(" ")[0]) + 1;
    entries.sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
}

/** Either spelling → the canonical map. Throws EnvFlagError naming what could not be read. */
export function toEnvMap(env: string | Record<string, unknown>): EnvMap {
    if (typeof env === "string") return parseEnvFlags(env);
    const problems = envMapProblems(env);
    if (problems.length) throw new EnvFlagError(problems.map((p) => `${p.key}: ${p.problem}`).join("; "));
    return normalizeEnvMap(env as EnvMap);
}

/**
 * Quotes a value for the flag string so the service's reader (split on spaces outside quotes,
 * outer quotes stripped) gives it back unchanged.
 */
function quoteValue(name: string, value: string): string {
    if (/^[^\s'"\\]*$/.test(value)) return value;
    if (!value.includes('"') && !value.includes("\\")) return `"${value}"`;
    if (!value.includes("'")) return `'${value}'`;
    throw new EnvFlagError(`the value of ${name} ${FLAG_VALUE_PROBLEM}`);
}

const FLAG_VALUE_PROBLEM = "holds both quote characters and whitespace or backslashes, which the template flag format cannot carry";

/** Why a value cannot be written into a template's flag string, or undefined when it can. */
export function flagValueProblem(value: string): string | undefined {
    try {
        quoteValue("", value);
        return undefined;
    } catch {
        return FLAG_VALUE_PROBLEM;
    }
}

/** The canonical map as a template flag string: `-e A=1 -e B="two words" -p 8080:8080`. */
export function formatEnvFlags(env: EnvMap): string {
    return Object.entries(normalizeEnvMap(env))
        .map(([key, value]) => {
            if (PORT_KEY.test(key)) return key;
            const other = otherFlagOf(key, value);
            return other ? `${other.flag} ${other.arg}` : `-e ${key}=${quoteValue(key, value)}`;
        })
        .join(" ");
}
