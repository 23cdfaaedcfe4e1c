/**
 * A worker group's two strings as the service reads them: `search_params`, the vendor CLI's offer
 * query language (vast.py `parse_query`; the CLI sends the text as typed and the service parses
 * it), and `launch_args`, create-instance flags in the CLI's spelling.
 */
import { envFlagsToDict, splitOutsideQuotes, stripQuotes } from "./envFlags";
import { validateFilters } from "./selectFilters";

export type OfferConditions = Record<string, Record<string, unknown>>;

/** vast.py's operators, by how they are written. */
const OPERATORS: Record<string, string> = {
    ">=": "gte",
    ">": "gt",
    gt: "gt",
    gte: "gte",
    "<=": "lte",
    "<": "lt",
    lt: "lt",
    lte: "lte",
    "!=": "neq",
    "==": "eq",
    "=": "eq",
    eq: "eq",
    neq: "neq",
    noteq: "neq",
    "not eq": "neq",
    notin: "notin",
    "not in": "notin",
    nin: "notin",
    in: "in",
};

/** vast.py `offers_alias`. */
const ALIASES: Record<string, string> = {
    cuda_vers: "cuda_max_good",
    display_active: "gpu_display_active",
    dlperf_usd: "dlperf_per_dphtotal",
    dph: "dph_total",
    flops_usd: "flops_per_dphtotal",
};

/** vast.py `offers_mult`: the query's GB (RAM) and days (duration) as the offers' MB and seconds. */
const MULTIPLIERS: Record<string, number> = { cpu_ram: 1000, gpu_ram: 1000, gpu_total_ram: 1000, duration: 24 * 60 * 60 };

/** vast.py's pattern for one `field op value` term. */
const TERM = /([a-zA-Z0-9_]+)( *[=><!]+| +(?:[lg]te?|nin|neq|eq|not ?eq|not ?in|in) )?( *)(\[[^\]]+\]|"[^"]+"|[^ ]+)?( *)/g;

/**
 * `gpu_name=RTX_4090 num_gpus>=1 verified=True` as `{gpu_name: {eq: "RTX 4090"}, num_gpus: {gte: "1"}, verified: {eq: true}}`,
 * as vast.py reads it: underscores are spaces, numbers stay text (compared as numbers), `true`,
 * `false` and `null` are values, `any` (or `?`, `*`) drops a field, `gpu_ram` is GB.
 */
export function parseOfferQuery(text: string): { conditions: OfferConditions } | { problem: string } {
    const query = text.trim();
    const terms = [...query.matchAll(TERM)];
    if (terms.map((t) => t[0]).join("") !== query) return { problem: `search_params: unconsumed text in ${JSON.stringify(query)}` };
    const conditions: OfferConditions = {};
    for (const [, rawField, rawOp = "", , rawValue = ""] of terms) {
        const field = ALIASES[rawField] ?? rawField;
        const op = OPERATORS[rawOp.trim()];
        if (!op) return { problem: `search_params: unknown operator ${JSON.stringify(rawOp.trim())} after ${rawField}` };
        const trimmed = rawValue.replace(/^[,[\]]+|[,[\]]+$/g, "");
        if (trimmed === "") return { problem: `search_params: ${rawField} has no value` };
        if (["?", "*", "any"].includes(trimmed)) {
            if (op !== "eq") return { problem: "search_params: a wildcard only makes sense with =" };
            delete conditions[field];
            continue;
        }
        const text = (v: string) => v.replace(/_/g, " ").replace(/^"+|"+$/g, "");
        let value: unknown = op === "in" || op === "notin" ? trimmed.split(",").map((v) => v.trim()).filter((v) => v).map(text) : text(trimmed);
        if (field in MULTIPLIERS) {
            const n = Number(value);
            if (typeof value !== "string" || value.trim() === "" || Number.isNaN(n)) return { problem: `search_params: ${field} takes a number` };
            value = n * MULTIPLIERS[field];
        } else if (value === "true" || value === "True") value = true;
        else if (value === "false" || value === "False") value = false;
        else if (value === "None" || value === "null") value = null;
        conditions[field] = { ...conditions[field], [op]: value };
    }
    return { conditions };
}

/**
 * `search_params` in any form the service documents: a query string, a list of its terms, or an
 * object of conditions already (the vendor SDK's `WorkergroupConfig` allows `str | dict`).
 */
export function searchQueryOf(searchParams: unknown): { conditions: OfferConditions } | { problem: string } {
    if (typeof searchParams === "string") return parseOfferQuery(searchParams);
    if (Array.isArray(searchParams) && searchParams.every((t) => typeof t === "string")) return parseOfferQuery(searchParams.join(" "));
    const problem = validateFilters(searchParams, undefined, "search_params");
    if (problem) return { problem: problem.startsWith("search_params") ? problem : `search_params: ${problem}` };
    return { conditions: searchParams as OfferConditions };
}

/** What `launch_args` adds to a worker's create-instance body, in that body's names. */
export interface LaunchFields {
    image?: string;
    disk?: number;
    env?: Record<string, string>;
    onstart?: string;
    label?: string;
    image_login?: string;
}

/** The CLI's create-instance flags that take a value, and the body field each sets. */
const VALUED_FLAGS: Record<string, keyof LaunchFields> = {
    "--image": "image",
    "--disk": "disk",
    "--env": "env",
    "--onstart-cmd": "onstart",
    "--label": "label",
    "--login": "image_login",
};

/**
 * `--image IMG --disk 64 --env '-e K=V'` as create-instance fields. Any other flag (`--ssh`, or
 * `--onstart FILE`, a file on the user's machine) is passed over, as the emulator cannot act on it.
 */
export function parseLaunchArgs(text: string): { fields: LaunchFields } | { problem: string } {
    const tokens = splitOutsideQuotes(text);
    const fields: LaunchFields = {};
    for (let i = 0; i < tokens.length; i++) {
        const flag = tokens[i];
        const next = tokens[i + 1];
        const hasValue = next !== undefined && !next.startsWith("--");
        const name = VALUED_FLAGS[flag];
        if (name && !hasValue) return { problem: `launch_args: ${flag} needs a value` };
        if (!name) {
            if (flag.startsWith("--") && hasValue) i++;
            continue;
        }
        const value = stripQuotes(next);
        i++;
        if (name === "disk") {
            const gb = Number(value);
            if (!(gb >= 8)) return { problem: "launch_args: --disk must be a number of GB, at least 8" };
            fields.disk = gb;
        } else if (name === "env") {
            fields.env = { ...fields.env, ...envFlagsToDict(value) };
        } else {
            fields[name] = value;
        }
    }
    return { fields };
}
