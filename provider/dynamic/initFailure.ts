import { ErrorCode } from "../errors/codes";
import { ProviderError } from "../errors/providerError";

/**
 * The error that makes the engine record a created-but-failed resource: it carries the id and the
 * outputs (with `__provider`, which the host adds only on success), so something that exists and
 * may cost money stays in state, refreshable and destroyable, instead of leaking.
 */
export function initFailure(failure: { code: ErrorCode; message: string }, id: string | number, outputs: object, provider: unknown): Error {
    return Object.assign(new ProviderError(failure.code, failure.message, { cause: failure }), {
        id: String(id),
        properties: { ...outputs, __provider: provider },
        reasons: [failure.message],
    });
}

/** Whether `e` is an init failure: the engine records the id it carries. */
export function isInitFailure(e: unknown): boolean {
    return e instanceof Error && typeof (e as { id?: unknown }).id === "string" && Array.isArray((e as { reasons?: unknown }).reasons);
}

/** The `__provider` text a property bag carries (the host adds it to inputs); it goes back in an init failure. */
export function providerOf(props: object): unknown {
    return (props as { __provider?: unknown }).__provider;
}
