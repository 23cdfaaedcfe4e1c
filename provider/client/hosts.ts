/** A host name as compared: lower case, an IPv6 address without its brackets. */
export function bareHost(hostname: string): string {
    return hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/** True for `localhost`, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
    const host = bareHost(hostname);
    return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
