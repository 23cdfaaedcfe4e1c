import { z } from "zod";
import { EnvMap, toEnvMap } from "../schemas/envFlags";
import { pickInputs } from "../dynamic/checkArgs";
import { containsUnknown } from "../dynamic/unknowns";

/**
 * What `check` hands on, and what create and update work from: the resource's input properties
 * only, its defaults filled in, and `env` as the canonical map (left as it is while unknown).
 */
export function canonicalInputs(args: Record<string, unknown>, properties: readonly string[], defaults: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const inputs: Record<string, unknown> = { ...defaults, ...pickInputs(args, properties) };
    if (inputs.env !== undefined && !containsUnknown(inputs.env)) inputs.env = toEnvMap(inputs.env as string | Record<string, unknown>);
    return inputs;
}

/** The type of what `canonicalInputs` returns for an args schema: its output, `env` as the canonical map. */
export type CanonicalInputs<S extends z.ZodType> = { [K in keyof z.output<S>]: K extends "env" ? EnvMap : z.output<S>[K] };

/** Inputs as one string, keys sorted, `__provider` (the serialized code, not an input) left out. */
export function canonicalJson(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
    if (value !== null && typeof value === "object") {
        const keys = Object.keys(value).filter((k) => k !== "__provider" && (value as Record<string, unknown>)[k] !== undefined).sort();
        return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
    }
    return JSON.stringify(value) ?? "null";
}
