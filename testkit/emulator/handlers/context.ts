import { Caller } from "../auth";
import type { Emulator } from "../server";

/** What a route handler is given. */
export interface HandlerContext {
    emu: Emulator;
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
