/**
 * Faults scripted per method and path. Each matching request consumes one use of the first fault
 * that matches it. Some faults replace the answer before the request is handled (the service never
 * acted); `malformed` and `lostAnswer` let the request take effect and then spoil its answer.
 */
export type Fault =
    /** Answer with this status (429, 500, 503, ...) and body, without handling the request. */
    | { kind: "status"; status: number; body?: unknown; text?: string; headers?: Record<string, string> }
    /** Close the connection without answering, without handling the request. */
    | { kind: "reset" }
    /** Wait, then handle the request normally. */
    | { kind: "slow"; delayMs: number }
    /** Handle the request, then answer 200 with a body that is not JSON. */
    | { kind: "malformed" }
    /** Answer HTTP 200 `{success: false}` without handling the request. */
    | { kind: "successFalse"; error?: string; msg?: string }
    /** Handle the request (a create takes effect), then lose the answer: reset, or this status. */
    | { kind: "lostAnswer"; status?: number }
    /** Answer 404 with an `auth_error` body, as a revoked key has been seen to. */
    | { kind: "authError404" };

export interface FaultRule {
    method: string;
    /** Exact path, trailing slash optional; or a RegExp. */
    path: string | RegExp;
    fault: Fault;
    /** How many matching requests it affects; default 1. */
    times?: number;
}

interface ActiveRule extends FaultRule {
    remaining: number;
}

export function normalizePath(path: string): string {
    return path.endsWith("/") ? path : `${path}/`;
}

export class FaultBook {
    private rules: ActiveRule[] = [];

    add(rule: FaultRule): void {
        this.rules.push({ ...rule, remaining: rule.times ?? 1 });
    }

    clear(): void {
        this.rules = [];
    }

    /** Uses up and returns the fault for this request, if one is scripted. */
    take(method: string, path: string): Fault | undefined {
        const rule = this.rules.find(
            (r) =>
                r.remaining > 0 &&
                (r.method === "*" || r.method === method) &&
                (typeof r.path === "string" ? normalizePath(r.path) === normalizePath(path) : r.path.test(path)),
        );
        if (!rule) return undefined;
        rule.remaining--;
        return rule.fault;
    }

    get pending(): number {
        return this.rules.reduce((n, r) => n + r.remaining, 0);
    }
}
