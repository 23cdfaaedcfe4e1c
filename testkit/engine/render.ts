import { ProviderHost, Props } from "../host/providerHost";
import { PolicyDiagnostic } from "../policy/policyPackHost";
import { MiniEngine, PlannedStep, StepEvent, UpSummary } from "./miniEngine";

/**
 * What the Pulumi CLI prints, from what `MiniEngine` returns: a preview's plan, each step as it
 * finishes, the resource summary, the stack outputs and the drift a refresh found. Lines only; the
 * caller prints them (the demo to the console).
 */
const SYMBOL: Record<PlannedStep["op"], string> = { create: "+ ", import: "= ", update: "~ ", replace: "+-", delete: "- ", same: "  " };
const PAST: Record<PlannedStep["op"], string> = { create: "created", import: "imported", update: "updated", replace: "replaced", delete: "deleted", same: "unchanged" };

/** `vastai:Template` from the type a dynamic resource registers (`pulumi-nodejs:dynamic:Resource`-style tokens end in it); a plugin's token as it is. */
export function typeLabel(type: string): string {
    if (!type.startsWith("pulumi-nodejs:")) return type;
    const parts = type.split(":");
    return parts.length > 2 ? parts.slice(-2).join(":").replace(/^dynamic\//, "") : type;
}

function because(properties: string[]): string {
    return properties.length > 0 ? `[diff: ${properties.map((p) => `~${p}`).join(" ")}]` : "";
}

/** A preview: one line per resource that changes, with the properties that cause it, then the counts. */
export function renderPlan(plan: PlannedStep[]): string[] {
    const changing = plan.filter((s) => s.op !== "same");
    const width = Math.max(4, ...changing.map((s) => typeLabel(s.type).length));
    const nameWidth = Math.max(4, ...changing.map((s) => s.name.length));
    const lines = changing.map((s) =>
        ` ${SYMBOL[s.op]}  ${typeLabel(s.type).padEnd(width)}  ${s.name.padEnd(nameWidth)}  ${s.op.padEnd(7)}  ${because(s.because)}`.trimEnd(),
    );
    const count = (op: PlannedStep["op"]) => plan.filter((s) => s.op === op).length;
    return [
        ...lines,
        "",
        "Resources:",
        ...(["create", "update", "replace", "delete"] as const).filter((op) => count(op) > 0).map((op) => `    ${SYMBOL[op].trim()} ${count(op)} to ${op}`),
        ...(count("same") > 0 ? [`    ${count("same")} unchanged`] : []),
    ];
}

/** One resource's finished step, as the CLI's progress lists it. */
export function renderStep(event: StepEvent): string {
    const seconds = (event.ms / 1000).toFixed(1);
    // Steps finish one by one, so the columns cannot be sized to fit: common widths keep most aligned.
    return ` ${SYMBOL[event.op]}  ${typeLabel(event.type).padEnd(15)}  ${event.name.padEnd(17)}  ${`${PAST[event.op]} (${seconds}s)`.padEnd(17)}  ${because(event.because)}`.trimEnd();
}

/** The counts after `up`, `refresh` or `destroy`, and how long it took. */
export function renderSummary(summary: UpSummary, seconds: number): string[] {
    const counts: Array<[PlannedStep["op"], number]> = [
        ["create", summary.create.length],
        ["import", summary.import.length],
        ["update", summary.update.length],
        ["replace", summary.replace.length],
        ["delete", summary.delete.length],
    ];
    return [
        "Resources:",
        ...counts.filter(([, n]) => n > 0).map(([op, n]) => `    ${SYMBOL[op].trim()} ${n} ${PAST[op]}`),
        ...(summary.same.length > 0 ? [`    ${summary.same.length} unchanged`] : []),
        "",
        `Duration: ${seconds.toFixed(1)}s`,
    ];
}

/** A policy pack's results after a preview or an update: a pass, or each violation with its level, policy and resource. */
export function renderPolicies(pack: string, diagnostics: PolicyDiagnostic[]): string[] {
    if (diagnostics.length === 0) return ["Policies:", `    ✅ ${pack}`];
    return [
        "Policy Violations:",
        ...diagnostics.flatMap((d) => [
            `    [${d.enforcementLevel}]  ${pack}  ${d.policyName}  (${d.urn ? d.urn.split("::").slice(-2).map(typeLabel).join(": ") : "the stack"})`,
            ...d.message.split("\n").map((line) => `    ${line}`),
        ]),
    ];
}

/** Stack outputs, aligned, values as JSON (the CLI's style). */
export function renderOutputs(outputs: Record<string, unknown>): string[] {
    const width = Math.max(0, ...Object.keys(outputs).map((k) => k.length));
    return ["Outputs:", ...Object.entries(outputs).map(([k, v]) => `    ${k.padEnd(width)}: ${JSON.stringify(v)}`)];
}

/** Each resource's outputs by name, to compare after a refresh. */
export function snapshotOutputs(engine: MiniEngine): Map<string, Props> {
    return new Map([...engine.state.values()].map((e) => [e.name, structuredClone(e.outputs)]));
}

/** What a refresh found changed on the service: one line per changed property, old value to new. */
export function renderDrift(before: Map<string, Props>, engine: MiniEngine): string[] {
    const lines: string[] = [];
    for (const [name, old] of before) {
        const entry = [...engine.state.values()].find((e) => e.name === name);
        if (!entry) {
            lines.push(` -   ${name}  deleted on the service`);
            continue;
        }
        const keys = [...new Set([...Object.keys(old), ...Object.keys(entry.outputs)])].filter(
            (k) => k !== "__provider" && JSON.stringify(old[k]) !== JSON.stringify(entry.outputs[k]),
        );
        for (const k of keys) lines.push(` ~   ${typeLabel(entry.type)}  ${name}  ${k}: ${JSON.stringify(old[k])} => ${JSON.stringify(entry.outputs[k])}`);
    }
    return lines;
}

/**
 * Prints the host's lines as they arrive (the provider's progress while instances boot, warnings,
 * stderr), prefixed as the CLI indents a resource's diagnostics. `flush` prints what has arrived
 * (call it before a line of your own, to keep the order); `stop` flushes and stops.
 */
export function followHost(host: ProviderHost, print: (line: string) => void, everyMs = 25): { flush(): void; stop(): void } {
    let seen = host.output.length;
    const flush = () => {
        while (seen < host.output.length) print(`    | ${host.output[seen++]}`);
    };
    const timer = setInterval(flush, everyMs);
    return {
        flush,
        stop() {
            clearInterval(timer);
            flush();
        },
    };
}
