/**
 * The one error class every failure of the provider is (the client's `VastError` kinds extend it):
 * a message and a stable code from codes.ts. The message stays the words alone, so errors that wrap
 * another can quote it; the code is added to it where the error leaves the provider (`codeShown`).
 */
import { ErrorCode, isErrorCode } from "./codes";

export class ProviderError extends Error {
    readonly code: ErrorCode;
    constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
        super(message, options);
        this.name = new.target.name;
        this.code = code;
    }
}

/** The code of any thrown value: its own when it has one of the table's, else `internal` (a bug). */
export function codeOf(e: unknown): ErrorCode {
    const code = (e as { code?: unknown } | undefined)?.code;
    return isErrorCode(code) ? code : "internal";
}

/** A failure that says more about `e` and keeps its code: `${e.message}${more}`. */
export function withMore(e: unknown, more: string): ProviderError {
    return new ProviderError(codeOf(e), `${e instanceof Error ? e.message : String(e)}${more}`, { cause: e });
}

const SHOWN = Symbol("vastai.codeShown");

/**
 * `e` as the engine (or a program, or the command line) shows it: its message ends with its code.
 * The same object is returned when it is an Error (an init failure's id and properties stay on it),
 * and shown once however many boundaries it crosses.
 */
export function codeShown(e: unknown): Error {
    const error = e instanceof Error ? e : new ProviderError("internal", String(e));
    if ((error as { [SHOWN]?: true })[SHOWN]) return error;
    const said = error.message;
    error.message = `${said} [${codeOf(error)}]`;
    // An init failure (dynamic/initFailure.ts) says its message again as its reason: the same words there.
    const withReasons = error as { reasons?: unknown };
    if (Array.isArray(withReasons.reasons)) withReasons.reasons = withReasons.reasons.map((r) => (r === said ? error.message : r));
    Object.defineProperty(error, SHOWN, { value: true });
    return error;
}

/** `work`'s result, or its failure with the code shown: what each boundary (a program's function, the engine, the command line) hands on. */
export async function codeShownOnFailure<T>(work: () => Promise<T> | T): Promise<T> {
    try {
        return await work();
    } catch (e) {
        throw codeShown(e);
    }
}
