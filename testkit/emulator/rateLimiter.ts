import { EmuResponse } from "./response";

/**
 * The live service's limit: a minimum interval between calls to one endpoint by one identity (a
 * token bucket of one token, docs/live-service.md "Rate limits per endpoint"). A call that comes too
 * soon gets a 429 with a plain-text body and no `Retry-After`: "API requests too frequent",
 * followed by "endpoint threshold=<seconds>" when `namesThreshold` (the vendor docs show both
 * forms; which endpoints name it is not documented). Only accepted calls move the window, as the
 * live service's rejections cost no tokens, unless `countsRejections`: then every call does.
 */
export class RateLimiter {
    private lastCounted = new Map<string, number>();
    rejected = 0;

    constructor(
        public scale: number,
        public namesThreshold = true,
        public countsRejections = false,
    ) {}

    check(bucket: string, intervalMs: number, at = Date.now()): EmuResponse | undefined {
        const interval = intervalMs * this.scale;
        const last = this.lastCounted.get(bucket);
        if (interval > 0 && last !== undefined && at - last < interval) {
            this.rejected++;
            if (this.countsRejections) this.lastCounted.set(bucket, at);
            const threshold = this.namesThreshold ? ` endpoint threshold=${secondsText(interval)}` : "";
            return { status: 429, body: `API requests too frequent${threshold}`, text: true };
        }
        this.lastCounted.set(bucket, at);
        return undefined;
    }

    reset(): void {
        this.lastCounted.clear();
        this.rejected = 0;
    }
}

/** Seconds as the live service writes them: `3.0`, `0.5`, `0.005`. */
function secondsText(ms: number): string {
    const seconds = Number((ms / 1000).toFixed(3));
    return Number.isInteger(seconds) ? seconds.toFixed(1) : String(seconds);
}
