/** What a route handler is given, and small helpers every handler uses. */
import { Caller } from "../auth";
import { EmulatorModel } from "../model";
import { ResolvedOptions } from "../options";

/** The part of the emulator a handler reads and changes: its world and its options (the Emulator class is one). */
export interface EmulatorState {
    readonly model: EmulatorModel;
    readonly options: ResolvedOptions;
}

/** What a route handler is given. */
export interface HandlerContext {
    emu: EmulatorState;
    caller: Caller;
    /** Captures of the route's pattern, e.g. the offer id. */
    params: string[];
    query: URLSearchParams;
    body: unknown;
    now: number;
}

export function isObject(value: unknown): value is Record<string, unknown> {
    return !!value && typeof value === "object" && !Array.isArray(value);
}

/**
 * A JSON object body with its null fields left out: the live service reads null as "not set", and
 * the vendor clients send every field they were not given as null. Anything else is as it came.
 */
export function withoutNulls(body: unknown): unknown {
    return isObject(body) ? Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)) : body;
}
