/**
 * The service's reading of a template's env flag string (`-e K=V -p 8080:8080`) as a dictionary,
 * as the contract's merge rule needs it (§4.7) and as the vendor CLI's `parse_env` reads it:
 * split on spaces outside quotes; `-e K=V` (the value may hold `=`, outer quotes stripped);
 * `-p X`, `-v X` and `-n X` become the key `-p X` (`-v X`, `-n X`) with value "1", `-h X` the key
 * `-h` with value X; anything else is dropped.
 */
export function envFlagsToDict(flags: string | undefined | null): Record<string, string> {
    const result: Record<string, string> = {};
    const tokens = splitOutsideQuotes(flags ?? "");
    for (let i = 0; i < tokens.length; i++) {
        const flag = tokens[i];
        const arg = tokens[i + 1];
        if (arg === undefined) break;
        if (flag === "-e") {
            const unquoted = stripQuotes(arg);
            const eq = unquoted.indexOf("=");
            if (eq > 0) result[unquoted.slice(0, eq)] = stripQuotes(unquoted.slice(eq + 1));
            i++;
        } else if (flag === "-p" || flag === "-v" || flag === "-n") {
            // Each kept only when its argument is of the characters the reader allows.
            const allowed = { "-p": /^[0-9:tcpud/]+$/, "-v": /^[A-Za-z0-9:./_]+$/, "-n": /^[a-z0-9-]+$/ }[flag];
            if (allowed.test(arg)) result[`${flag} ${arg}`] = "1";
            i++;
        } else if (flag === "-h") {
            result["-h"] = arg;
            i++;
        }
    }
    return result;
}

/** Words split on spaces outside single or double quotes; the quotes are kept. */
export function splitOutsideQuotes(text: string): string[] {
    const tokens: string[] = [];
    let current = "";
    let quote: string | null = null;
    for (const c of text) {
        if (quote) {
            if (c === quote) quote = null;
            current += c;
        } else if (c === '"' || c === "'") {
            quote = c;
            current += c;
        } else if (/\s/.test(c)) {
            if (current) tokens.push(current);
            current = "";
        } else {
            current += c;
        }
    }
    if (current) tokens.push(current);
    return tokens;
}

/** The text without one pair of surrounding quotes, single or double. */
export function stripQuotes(text: string): string {
    if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text[text.length - 1] === text[0]) {
        return text.slice(1, -1);
    }
    return text;
}
