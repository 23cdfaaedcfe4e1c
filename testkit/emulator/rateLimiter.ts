import { Answer } from "./answer";

/**
 * The live service's limit: a minimum interval between calls to one endpoint by one identity.
 * A call that comes too soon gets a 429 with a plain-text body and no `Retry-After`. Only accepted
 * calls move the window, so a client that waits its turn always gets through.
 */
export class RateLimiter {
    private lastAccepted = new Map<string, number>();
    rejected = 0;

    constructor(public scale: number) {}

    check(lane: string, intervalMs: number, at = Date.now()): Answer | undefined {
        const interval = intervalMs * this.scale;
        const last = this.lastAccepted.get(lane);
        if (interval > 0 && last !== undefined && at - last < interval) {
            this.rejected++;
            return { status: 429, body: "API requests too frequent", text: true };
        }
        this.lastAccepted.set(lane, at);
        return undefined;
    }

    reset(): void {
        this.lastAccepted.clear();
        this.rejected = 0;
    }
}
