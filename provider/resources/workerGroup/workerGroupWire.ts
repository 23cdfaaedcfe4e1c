/**
 * A worker group's two strings as the service reads them (docs/live-service.md "Worker group
 * fields"): `search_params`, the offer query in the vendor CLI's language (`gpu_ram>=24
 * gpu_name=RTX_4090 dph_total<=0.5`), and `launch_args`, create-instance flags in its spelling
 * (`--image X --disk 32 --env '-e K=V' --onstart-cmd '...'`), which carries the create key.
 */
import { WorkerGroupSettings } from "../../schemas/serverless";
import { WorkerGroupRecord } from "../../schemas/serverless";
import { EnvFlagError, formatEnvFlags, parseEnvFlags } from "../../schemas/envFlags";
import { OfferFilters } from "../../schemas/offer";
import { WorkerGroupInputs, WorkerLaunch } from "./workerGroupArgs";

/** The env variable in `launch_args` that carries a create's key, `<slot>.<generation>`; each worker carries it too. */
export const WORKER_GROUP_KEY_ENV = "PULUMI_VASTAI_WORKER_GROUP";

/** The vendor CLI's default terms (`vast.py`'s `" verified=True rentable=True rented=False"`). */
const VENDOR_DEFAULTS: Record<string, boolean> = { verified: true, rentable: true, rented: false };

/** The query's GB where the offer records (and so the filters) say MB (vast.py `offers_mult`). */
const MB_AS_GB: readonly string[] = ["gpu_ram"];

const OPERATORS: Record<string, string> = { eq: "=", neq: "!=", lt: "<", lte: "<=", gt: ">", gte: ">=" };

/** A value in the query language: strings with `_` for spaces (vast.py reads `_` as a space), booleans as Python's. */
function queryValue(field: string, value: unknown): string {
    if (typeof value === "boolean") return value ? "True" : "False";
    if (typeof value === "number") return String(MB_AS_GB.includes(field) ? value / 1000 : value);
    return String(value).replace(/ /g, "_");
}

/** Why a string filter value cannot be said in the query language, or undefined. */
export function queryValueProblem(value: unknown): string | undefined {
    if (typeof value !== "string") return undefined;
    if (/[_"'[\],\s]/.test(value.replace(/ /g, ""))) return `${JSON.stringify(value)} cannot be said in the service's query language (no underscores, quotes, brackets, commas or tabs)`;
    if (value.trim() === "") return "an empty text cannot be said in the service's query language";
    return undefined;
}

/** The program's filters and ceiling as `search_params` text. */
export function searchParamsOf(inputs: Pick<WorkerGroupInputs, "offer" | "vendorDefaults">): string {
    const filters = (inputs.offer?.filters ?? {}) as OfferFilters;
    const terms: string[] = [];
    for (const [field, condition] of Object.entries(filters)) {
        for (const [op, value] of Object.entries(condition ?? {})) {
            if (value === undefined) continue;
            if (op === "in" || op === "notin") terms.push(`${field} ${op} [${(value as unknown[]).map((v) => queryValue(field, v)).join(",")}]`);
            else terms.push(`${field}${OPERATORS[op]}${queryValue(field, value)}`);
        }
    }
    if (inputs.offer?.maxPricePerHour !== undefined) terms.push(`dph_total<=${inputs.offer.maxPricePerHour}`);
    if (inputs.vendorDefaults !== false) {
        for (const [field, value] of Object.entries(VENDOR_DEFAULTS)) if (!(field in filters)) terms.push(`${field}=${queryValue(field, value)}`);
    }
    return terms.join(" ");
}

/** `text` in the one quote character it does not hold, so the service's reader (split outside quotes, outer quotes stripped) gives it back. */
function quoted(text: string): string {
    if (!text.includes("'")) return `'${text}'`;
    if (!text.includes('"')) return `"${text}"`;
    throw new EnvFlagError("holds both quote characters, which launch_args cannot carry");
}

/** Why a start command cannot be written into `launch_args`, or undefined. */
export function onstartProblem(onstart: unknown): string | undefined {
    return typeof onstart === "string" && onstart.includes("'") && onstart.includes('"') ? "holds both quote characters, which launch_args cannot carry" : undefined;
}

/** How each worker is created as `launch_args`, the create key in its env. */
export function launchArgsOf(launch: WorkerLaunch | undefined, key: string | undefined): string {
    const flags: string[] = [];
    if (launch?.image !== undefined) flags.push(`--image ${launch.image}`);
    if (launch?.diskGb !== undefined) flags.push(`--disk ${launch.diskGb}`);
    const env = { ...launch?.env, ...(key !== undefined ? { [WORKER_GROUP_KEY_ENV]: key } : {}) };
    if (Object.keys(env).length > 0) flags.push(`--env ${quoted(formatEnvFlags(env))}`);
    if (launch?.onstart !== undefined) flags.push(`--onstart-cmd ${quoted(launch.onstart)}`);
    return flags.join(" ");
}

/** Words split on whitespace outside quotes, each word's outer quotes stripped. */
function words(text: string): string[] {
    const found: string[] = [];
    const word = /(?:'([^']*)'|"([^"]*)"|(\S+))/g;
    for (const m of text.matchAll(word)) found.push(m[1] ?? m[2] ?? m[3]);
    return found;
}

/** `launch_args` as the service holds them, read back: how workers are created and the create key. Flags this provider never writes are passed over. */
export function launchOf(text: string | null | undefined): { launch?: WorkerLaunch; key?: string } {
    const launch: WorkerLaunch = {};
    let key: string | undefined;
    const tokens = words(text ?? "");
    for (let i = 0; i + 1 < tokens.length; i++) {
        const [flag, value] = [tokens[i], tokens[i + 1]];
        if (flag === "--image") launch.image = value;
        else if (flag === "--disk") launch.diskGb = Number(value);
        else if (flag === "--onstart-cmd") launch.onstart = value;
        else if (flag === "--env") {
            let env: Record<string, string>;
            try {
                env = parseEnvFlags(value);
            } catch {
                continue;
            }
            key = env[WORKER_GROUP_KEY_ENV];
            delete env[WORKER_GROUP_KEY_ENV];
            if (Object.keys(env).length > 0) launch.env = env;
        } else continue;
        i++;
    }
    return { launch: Object.keys(launch).length > 0 ? launch : undefined, key };
}

/** The key of a create: where the resource stands and its generation. */
export function createKeyOf(inputs: Pick<WorkerGroupInputs, "createSlot" | "createGeneration">): string | undefined {
    return inputs.createSlot === undefined ? undefined : `${inputs.createSlot}.${inputs.createGeneration ?? 0}`;
}

/**
 * Whether a group carrying `found` was made by a create that `ours` finishes: the same slot, and
 * for a resource state holds, the same generation (an older one is the group state holds, which
 * a replacement must not take). A resource no state holds takes any generation.
 */
export function sameCreate(found: string | undefined, ours: string): boolean {
    if (found === undefined) return false;
    const [slot, generation] = ours.split(".");
    const [foundSlot, foundGeneration] = found.split(".");
    return foundSlot === slot && (generation === "0" || foundGeneration === generation);
}

/** The create key a listed group carries, if any. */
export const keyOfRecord = (record: WorkerGroupRecord): string | undefined => launchOf(record.launch_args).key;

/** What create and update send. */
export function settingsOf(inputs: WorkerGroupInputs): WorkerGroupSettings {
    const settings: WorkerGroupSettings = {
        endpoint_id: inputs.endpointId,
        template_hash: inputs.templateHashId,
        search_params: searchParamsOf(inputs),
        launch_args: launchArgsOf(inputs.launch, createKeyOf(inputs)),
        gpu_ram: inputs.gpuRamGb,
        test_workers: inputs.testWorkers,
        max_workers: inputs.maxWorkers,
    };
    if (inputs.coldWorkers !== undefined) settings.cold_workers = inputs.coldWorkers;
    return settings;
}
