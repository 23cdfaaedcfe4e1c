/**
 * A `--policy-pack-config` file as the Pulumi CLI applies it (pkg/resource/analyzer/config.go):
 * each policy's schema defaults, then the pack's own initial config (`new PolicyPack`'s third
 * argument), then the file (`"all": "mandatory"` sets every policy's level; a
 * policy's entry is a level, or an object of properties with an optional `enforcementLevel`),
 * then the result checked against each policy's schema. What the CLI then sends in `Configure`.
 */
export type EnforcementLevel = "advisory" | "mandatory" | "remediate" | "disabled";
const LEVELS: readonly string[] = ["advisory", "mandatory", "remediate", "disabled"];

export interface PolicyInfo {
    name: string;
    enforcementLevel: EnforcementLevel;
    configSchema?: { properties: Record<string, JsonSchema>; required: string[] };
}
export type JsonSchema = { type?: string; items?: JsonSchema; minimum?: number; exclusiveMinimum?: number; enum?: unknown[]; default?: unknown; description?: string };
export type PolicyConfig = Record<string, { enforcementLevel: EnforcementLevel; properties: Record<string, unknown> }>;

/** The file's entries: `{ policy: { enforcementLevel?, properties } }`, levels checked as the CLI does. */
export function parsePolicyPackConfig(text: string): Record<string, { enforcementLevel?: EnforcementLevel; properties: Record<string, unknown> }> {
    if (text.trim() === "") return {};
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const result: ReturnType<typeof parsePolicyPackConfig> = {};
    for (const [policy, value] of Object.entries(parsed)) {
        if (typeof value === "string") {
            if (!LEVELS.includes(value)) throw new Error(`parsing enforcement level for "${policy}": "${value}" is not a valid enforcement level`);
            result[policy] = { enforcementLevel: value as EnforcementLevel, properties: {} };
        } else if (value && typeof value === "object" && !Array.isArray(value)) {
            const { enforcementLevel, ...properties } = value as Record<string, unknown>;
            if (enforcementLevel !== undefined && (typeof enforcementLevel !== "string" || !LEVELS.includes(enforcementLevel))) {
                throw new Error(`parsing enforcement level for "${policy}": ${JSON.stringify(enforcementLevel)} is not a valid enforcement level`);
            }
            result[policy] = { enforcementLevel: enforcementLevel as EnforcementLevel | undefined, properties };
        } else {
            throw new Error(`parsing "${policy}": ${JSON.stringify(value)} is not a valid value; must be a string or object`);
        }
    }
    return result;
}

type GivenConfig = ReturnType<typeof parsePolicyPackConfig>;

/** Defaults, then the pack's initial config, then the file; throws the CLI's "validating policy config" with every schema error. */
export function reconcilePolicyPackConfig(policies: PolicyInfo[], initial: GivenConfig, file: GivenConfig): PolicyConfig {
    const result: PolicyConfig = {};
    for (const p of policies) {
        const defaults = Object.entries(p.configSchema?.properties ?? {}).filter(([, s]) => s.default !== undefined);
        result[p.name] = { enforcementLevel: p.enforcementLevel, properties: Object.fromEntries(defaults.map(([k, s]) => [k, s.default])) };
    }
    for (const given of [initial, file]) {
        const all = given.all?.enforcementLevel;
        if (all) for (const name of Object.keys(result)) result[name].enforcementLevel = all;
        for (const [name, entry] of Object.entries(given)) {
            if (name === "all") continue;
            const current = result[name] ?? { enforcementLevel: "advisory", properties: {} };
            result[name] = { enforcementLevel: entry.enforcementLevel ?? current.enforcementLevel, properties: { ...current.properties, ...entry.properties } };
        }
    }
    const errors = policies.flatMap((p) => schemaErrors(p, result[p.name].properties).map((e) => `${p.name}: ${e}`));
    if (errors.length > 0) throw new Error(`validating policy config: ${errors.join("; ")}`);
    return result;
}

/** The JSON Schema keywords the pack's schemas use, checked as gojsonschema would. */
function schemaErrors(policy: PolicyInfo, properties: Record<string, unknown>): string[] {
    const schema = policy.configSchema;
    if (!schema) return [];
    const errors = schema.required.filter((k) => properties[k] === undefined).map((k) => `${k} is required`);
    for (const [key, value] of Object.entries(properties)) {
        const s = schema.properties[key];
        if (s) errors.push(...valueErrors(key, s, value));
    }
    return errors;
}

function valueErrors(at: string, s: JsonSchema, value: unknown): string[] {
    const typeOk =
        s.type === undefined ||
        (s.type === "number" && typeof value === "number") ||
        (s.type === "integer" && Number.isInteger(value)) ||
        (s.type === "string" && typeof value === "string") ||
        (s.type === "boolean" && typeof value === "boolean") ||
        (s.type === "array" && Array.isArray(value)) ||
        (s.type === "object" && typeof value === "object" && value !== null && !Array.isArray(value));
    if (!typeOk) return [`${at}: Invalid type. Expected: ${s.type}, given: ${Array.isArray(value) ? "array" : typeof value}`];
    const errors: string[] = [];
    if (typeof value === "number" && s.minimum !== undefined && value < s.minimum) errors.push(`${at}: Must be greater than or equal to ${s.minimum}`);
    if (typeof value === "number" && s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) errors.push(`${at}: Must be greater than ${s.exclusiveMinimum}`);
    if (s.enum && !s.enum.includes(value)) errors.push(`${at}: must be one of ${s.enum.join(", ")}`);
    if (Array.isArray(value) && s.items) value.forEach((v, i) => errors.push(...valueErrors(`${at}.${i}`, s.items!, v)));
    return errors;
}
