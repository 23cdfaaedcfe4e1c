/**
 * Faults for tests, three ways: a script for the next requests by position, rules per method and
 * path, and spoiling at random (seeded). Some faults replace the response before the request is
 * handled (the service never acted); others let the request take effect and then spoil or lose
 * its response. faultResponses.ts says what each does on the wire.
 */
export type Fault =
    /** Respond with this status (429, 500, 503, ...) and body, without handling the request. */
    | { kind: "status"; status: number; body?: unknown; text?: string; headers?: Record<string, string> }
    /** Close the connection without answering, without handling the request. */
    | { kind: "reset" }
    /** Wait, then handle the request normally. */
    | { kind: "slow"; delayMs: number }
    /** Handle the request, then answer 200 with a body that is not JSON. */
    | { kind: "malformed" }
    /** Handle the request, then answer 200 (application/json) with the first half of the real response's text. */
    | { kind: "truncated" }
    /** Respond HTTP 200 `{success: false}` without handling the request. */
    | { kind: "successFalse"; error?: string; msg?: string }
    /** Respond HTTP 200 `{success: true}` without handling the request: a delete answered done that keeps what it was to delete. */
    | { kind: "successIgnored" }
    /**
     * Handle the request (a create takes effect), then lose the response: reset, or this status (with
     * this JSON body, or a gateway's page). `twice`: an instance create is carried out twice, as by a
     * front end that re-sent it upstream: a second instance, the same request, on another offer of the machine;
     * a volume create too: a second volume of the same name and size on the same offer, if it fits.
     */
    | { kind: "lostResponse"; status?: number; body?: unknown; twice?: boolean }
    /** Handle the request (a create takes effect at once), then send its real response `delayMs` later: what another create's look meets meanwhile. */
    | { kind: "lateResponse"; delayMs: number }
    /** Handle the request first if `acted`; then never answer, until the client gives up or `holdMs` (default 30 s) passes. */
    | { kind: "timeout"; acted: boolean; holdMs?: number }
    /** Without handling, answer `status` (default 422) with a FastAPI-like body that quotes the request. */
    | { kind: "echoRequest"; status?: number }
    /** Without handling, answer 404 as a wrong base URL or a proxy does: an HTML page, or `{"detail": "Not Found"}`. */
    | { kind: "notFoundPage"; shape: "html" | "detail" }
    /** Respond 404 with an `auth_error` body, as a revoked key has been seen to. */
    | { kind: "authError404" };

export interface FaultRule {
    method: string;
    /** Exact path, trailing slash optional; or a RegExp. */
    path: string | RegExp;
    fault: Fault;
    /** How many matching requests it affects; default 1. */
    times?: number;
    /** How many matching requests pass untouched before it starts; default 0. */
    after?: number;
}

export interface SpoilPlan {
    /** The chance, 0 to 1, that a request gets a fault. */
    rate: number;
    /** The faults to draw from, each equally likely. */
    kinds: Fault[];
    /** The same seed gives the same faults on the same sequence of requests. */
    seed: number;
}

interface ActiveRule extends FaultRule {
    remaining: number;
    passing: number;
}

export function normalizePath(path: string): string {
    return path.endsWith("/") ? path : `${path}/`;
}

export class FaultBook {
    private rules: ActiveRule[] = [];
    private scripted?: Array<Fault | undefined>;
    private spoiler?: { rate: number; kinds: Fault[]; random: () => number };
    private counts = { scriptedSoFar: 0, scriptFired: 0, spoiled: 0 };

    add(rule: FaultRule): void {
        this.rules.push({ ...rule, remaining: rule.times ?? 1, passing: rule.after ?? 0 });
    }

    /**
     * From now on the k-th request, whatever its method and path, gets `list[k - 1]` (undefined:
     * none). Positions are what a fault suite reasons in ("the second call of a create"); a
     * scripted fault wins over rules. Replaces any earlier script.
     */
    script(list: Array<Fault | undefined>): void {
        this.scripted = [...list];
        this.counts.scriptedSoFar = 0;
        this.counts.scriptFired = 0;
    }

    /** From now on every request gets, with chance `rate`, a fault drawn from `kinds`. */
    spoil(plan: SpoilPlan): void {
        if (!(plan.rate >= 0 && plan.rate <= 1)) throw new Error(`spoil rate must be within 0..1, got ${plan.rate}`);
        if (plan.kinds.length === 0) throw new Error("spoil needs at least one fault kind");
        this.spoiler = { rate: plan.rate, kinds: [...plan.kinds], random: mulberry32(plan.seed) };
        this.counts.spoiled = 0;
    }

    /** Removes rules, the script and spoiling, and zeroes their counts. */
    clear(): void {
        this.rules = [];
        this.scripted = undefined;
        this.spoiler = undefined;
        this.counts = { scriptedSoFar: 0, scriptFired: 0, spoiled: 0 };
    }

    /** Uses up and returns the fault for this request, if any: scripted, else a rule, else spoiled. */
    take(method: string, path: string): Fault | undefined {
        let scripted: Fault | undefined;
        if (this.scripted) scripted = this.scripted[this.counts.scriptedSoFar++];
        // Drawn on every request, so a seed gives the same run whatever else applied.
        const drawn = this.draw();
        if (scripted) {
            this.counts.scriptFired++;
            return scripted;
        }
        const rule = this.rules.find(
            (r) =>
                r.remaining > 0 &&
                (r.method === "*" || r.method === method) &&
                (typeof r.path === "string" ? normalizePath(r.path) === normalizePath(path) : r.path.test(path)),
        );
        if (rule && rule.passing > 0) {
            rule.passing--;
        } else if (rule) {
            rule.remaining--;
            return rule.fault;
        }
        if (drawn) this.counts.spoiled++;
        return drawn;
    }

    /** Rule uses not yet taken. */
    get pending(): number {
        return this.rules.reduce((n, r) => n + r.remaining, 0);
    }

    /** Requests counted since `script` was called. */
    get scriptedSoFar(): number {
        return this.counts.scriptedSoFar;
    }

    /** Scripted faults applied since `script` was called. */
    get scriptFired(): number {
        return this.counts.scriptFired;
    }

    /** Requests spoiled since `spoil` was called. */
    get spoiled(): number {
        return this.counts.spoiled;
    }

    private draw(): Fault | undefined {
        const s = this.spoiler;
        if (!s || s.random() >= s.rate) return undefined;
        return s.kinds[Math.floor(s.random() * s.kinds.length)];
    }
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1), the same sequence for the same seed. */
function mulberry32(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
