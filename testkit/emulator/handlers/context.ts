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
