/**
 * Whether a failed response says that what it was about is gone. "Gone" drops a resource from
 * state (a paid instance with it), so it is read from the service's own error fields only: the
 * body's `error` code, and the few wording rules below where the live service says its code in
 * words. Plain text, an HTML page or `{"detail": "Not Found"}` never says it (a wrong base URL, a
 * proxy). Each rule has its cases in test/unit/notFound.test.ts.
 */

/** What a response says about the resource of its route. */
export type NotFoundVerdict = "gone" | "names-other" | undefined;

export interface NotFoundInput {
    body: unknown;
    /** The body's `error` field. */
    serviceCode?: string;
    /** The service's message, redacted. */
    serviceMessage: string;
    /** What the route's not-found must name to be about it (`instance`): `Endpoint.about`. */
    about?: string;
    /** The code the route answers for a target it does not have, besides `not_found`/`no_such_*` (`Endpoint.goneCode`). */
    goneCode?: string;
}

/** The service's words read where its code field does not say enough: the one place they are read. */
export const WORDING_RULES = {
    /**
     * The `no_such_<what>` codes said: in the `error` field, or inside the message, where the live
     * service puts it under `invalid_args` ("error 404/3603: no_such_ask ...").
     */
    namedMissing(serviceCode: string | undefined, serviceMessage: string): string[] {
        return [...`${serviceCode ?? ""} ${serviceMessage}`.matchAll(/\bno_such_(\w+)/gi)].map(([, what]) => what.toLowerCase());
    },
    /** A `not_found` names no resource in its code: it is about `about` when its message names it ("Instance 42 not found", not "user not found"). */
    messageNames(serviceMessage: string, about: string): boolean {
        return new RegExp(`\\b${about}s?\\b`, "i").test(serviceMessage);
    },
};

export function notFoundVerdict({ body, serviceCode, serviceMessage, about, goneCode }: NotFoundInput): NotFoundVerdict {
    if (!body || typeof body !== "object") return undefined;
    const named = WORDING_RULES.namedMissing(serviceCode, serviceMessage);
    const routeGone = goneCode !== undefined && serviceCode === goneCode;
    if (named.length === 0 && serviceCode !== "not_found" && !routeGone) return undefined;
    if (about === undefined || routeGone) return "gone";
    if (named.length > 0) return named.every((what) => what === about) ? "gone" : "names-other";
    return WORDING_RULES.messageNames(serviceMessage, about) ? "gone" : "names-other";
}
