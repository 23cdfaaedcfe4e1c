import { EmuResponse, fail } from "./response";
import { EmuKey, EmuUser, EmulatorModel } from "./model";

export interface Caller {
    key: EmuKey;
    user: EmuUser;
}

const INVALID_KEY = "Invalid user key";

/**
 * Finds the caller from `Authorization: Bearer <key>`, or the `api_key` query parameter older
 * vendor CLIs send alone (newer ones send both), answering as the live service does when it cannot.
 */
export function authenticate(header: string | undefined, model: EmulatorModel, queryKey?: string | null): Caller | EmuResponse {
    const match = /^Bearer\s+(\S+)$/.exec(header ?? "");
    const given = match ? match[1] : header === undefined ? queryKey : undefined;
    const key = given ? model.keys.get(given) : undefined;
    if (!key) return fail(401, "auth_error", INVALID_KEY);
    if (key.revokedStatus) return fail(key.revokedStatus, "auth_error", INVALID_KEY);
    const user = model.users.get(key.userId);
    if (!user) return fail(401, "auth_error", INVALID_KEY);
    return { key, user };
}

/** A scoped key needs the route's permission category; a full-access key has them all. */
export function authorize(caller: Caller, scope: string, status: 401 | 403 = 403): EmuResponse | undefined {
    const granted = caller.key.permissions?.api;
    if (!granted || scope in granted) return undefined;
    // The live body does not say which permission was missing; the client has to know.
    return fail(status, "permission_denied", "This API key does not have permission to access this endpoint");
}

/** Whether `requested` grants nothing beyond what `holder` has (a key cannot widen its own rights). */
export function withinGrant(holder: EmuKey, requested: Record<string, unknown>): boolean {
    const granted = holder.permissions?.api;
    return !granted || Object.keys(requested).every((name) => name in granted);
}
