import { Fault } from "../emulator/faults";
import { Emulator } from "../emulator/server";
import { MiniEngine } from "../engine/miniEngine";
import { DEFAULT_RETRY } from "../../provider/client/retryPolicy";
import { ResourceKind } from "../../provider/dynamic/shim";

/**
 * The money-safety fault suite's cases and its audit. A case is one operation of one resource
 * (create, refresh, update, delete) with faults at given positions among the requests the
 * operation makes; the audit compares the engine's state with the emulator afterwards.
 */

/** Every fault kind, by the name the summary uses. */
export const FAULT_KINDS: Record<string, Fault> = {
    "lost after the change": { kind: "lostResponse" },
    "500": { kind: "status", status: 500 },
    "502": { kind: "status", status: 502 },
    "503": { kind: "status", status: 503 },
    "429 plain text": { kind: "status", status: 429, text: "API requests too frequent" },
    reset: { kind: "reset" },
    timeout: { kind: "timeout", acted: true },
    malformed: { kind: "malformed" },
    truncated: { kind: "truncated" },
    // A 2xx that says neither success nor failure, the request not handled: never taken as done.
    "200 {}": { kind: "status", status: 200, body: {} },
};

/** The faults an update's call meets on every try: made and unanswered, not made, and unknown. */
const EVERY_TRY_KINDS = ["lost after the change", "500", "reset"];

/** How many calls after a create its re-send may come (the lookup's calls come between). */
const RESEND_REACH = 6;

export type Operation = "create" | "refresh" | "update" | "delete";
export const OPERATIONS: Operation[] = ["create", "refresh", "update", "delete"];

export interface FaultCase {
    operation: Operation;
    /** Request positions (1-based, counted from the start of the operation) and the fault at each. */
    faults: Array<{ at: number; kind: string }>;
    label: string;
}

/**
 * The cases for one operation that makes `calls` requests when nothing fails, `createAt` being the
 * position of its create call, if any: each fault kind at each position; each kind at a position
 * and again at the next (the retry fails too); and a lost create response followed by a failure of
 * the first, then of the second, call after it (the lookup's own calls).
 */
export function casesFor(operation: Operation, calls: number, createAt?: number): FaultCase[] {
    const cases: FaultCase[] = [];
    const add = (faults: FaultCase["faults"]) =>
        cases.push({ operation, faults, label: `${operation}: ${faults.map((f) => `${f.kind} at call ${f.at}`).join(", then ")}` });
    for (let at = 1; at <= calls; at++) {
        for (const kind of Object.keys(FAULT_KINDS)) {
            add([{ at, kind }]);
            add([{ at, kind }, { at: at + 1, kind }]);
        }
    }
    // An edit whose every try fails (its retries spent): the update fails, and state must still
    // say what the service has, or that it cannot know (a response lost after the change).
    if (operation === "update") {
        for (let at = 1; at <= calls; at++) {
            for (const kind of EVERY_TRY_KINDS) add(Array.from({ length: DEFAULT_RETRY.maxAttempts }, (_, i) => ({ at: at + i, kind })));
        }
    }
    if (createAt !== undefined) {
        for (const kind of Object.keys(FAULT_KINDS)) {
            add([{ at: createAt, kind: "lost after the change" }, { at: createAt + 1, kind }]);
            add([{ at: createAt, kind: "lost after the change" }, { at: createAt + 2, kind }]);
        }
        // A create refused unseen (nothing made, outcome unknown), then the re-send's answer lost
        // after it made the thing: wherever the re-send falls after the lookup's calls.
        for (const first of ["500", "reset"]) {
            for (let later = 1; later <= RESEND_REACH; later++) add([{ at: createAt, kind: first }, { at: createAt + later, kind: "lost after the change" }]);
        }
    }
    return cases;
}

/** The emulator's script for a case: position k holds the fault for the k-th request. */
export function scriptOf(c: FaultCase): Array<Fault | undefined> {
    const list: Array<Fault | undefined> = [];
    for (const { at, kind } of c.faults) list[at - 1] = FAULT_KINDS[kind];
    return list;
}

/** How one resource kind is made, changed and found on the emulator. */
export interface ResourceUnderTest {
    type: string;
    /** What the program declares: on the dynamic path its class, through the plugin a generated SDK's resource. */
    kind: ResourceKind;
    /** The program's arguments for case `name` (making what it rents on first use); `edited` gives those an update applies. */
    args(emu: Emulator, name: string, edited: boolean): object;
    /** The operations spoiled for this resource (default `OPERATIONS`): a replace is only an update's. */
    operations?: Operation[];
    /** Ids of what exists on the emulator for case `name`, not deleted. */
    liveIds(emu: Emulator, name: string): string[];
    /** Removes what is left for case `name` straight from the emulator's model (cleanup). */
    purge(emu: Emulator, name: string): void;
    /**
     * After an update that succeeded: what state says of the edit and what the service has, when
     * they differ (an edit the service did not make must not read as made); undefined when they agree.
     */
    editDisagrees?(emu: Emulator, id: string, outputs: Record<string, unknown>): string | undefined;
    /**
     * After an update that failed: what state says of the edit that the service contradicts,
     * without state saying it is unsure (a program put back as before would then plan no change
     * while the service keeps the failed update's edit); undefined when state tells the truth.
     */
    failedEditMisreported?(emu: Emulator, id: string, outputs: Record<string, unknown>): string | undefined;
}

export interface Audit {
    leaked: number;
    duplicated: number;
    dropped: number;
    /** Updates that succeeded while state and the service disagree on the edit. */
    disagreed: number;
    /** Updates that failed while state misreports the edit the service has (`failedEditMisreported`). */
    misreported: number;
    /** Operations that failed (allowed: the invariants must hold either way). */
    failed: number;
    /** Faults that fired: a case whose positions lie past the operation's end counts none. */
    fired: number;
    problems: string[];
}

export function emptyAudit(): Audit {
    return { leaked: 0, duplicated: 0, dropped: 0, disagreed: 0, misreported: 0, failed: 0, fired: 0, problems: [] };
}

/**
 * Compares state with the emulator for case `name` after its operation. Each thing that exists
 * on the service and that no state entry (nor a replaced one pending deletion) points at is:
 * - dropped: state had it before the operation and lost it;
 * - duplicated: a second copy beside one that state holds;
 * - leaked: otherwise.
 */
export function auditCase(
    audit: Audit,
    r: ResourceUnderTest,
    emu: Emulator,
    engine: MiniEngine,
    name: string,
    before: string | undefined,
    label: string,
): void {
    const live = r.liveIds(emu, name);
    const tracked = new Set(
        [...engine.state.values(), ...engine.pendingDeletes].filter((e) => e.name === name).map((e) => e.id),
    );
    const held = live.filter((id) => tracked.has(id));
    for (const id of live.filter((id) => !tracked.has(id))) {
        const kind = id === before ? "dropped" : held.length > 0 ? "duplicated" : "leaked";
        audit[kind]++;
        audit.problems.push(`${r.type} ${label}: ${id} ${kind} (state holds ${[...tracked].join(", ") || "nothing"})`);
    }
}

/** After an update that succeeded: state's entry for case `name` must say what the service has of the edit. */
export function auditEdit(audit: Audit, r: ResourceUnderTest, emu: Emulator, engine: MiniEngine, name: string, label: string, ok: boolean): void {
    const entry = [...engine.state.values()].find((e) => e.name === name);
    const outputs = entry?.outputs as Record<string, unknown> | undefined;
    const problem = entry && (ok ? r.editDisagrees?.(emu, entry.id, outputs!) : r.failedEditMisreported?.(emu, entry.id, outputs!));
    if (!problem) return;
    audit[ok ? "disagreed" : "misreported"]++;
    audit.problems.push(`${r.type} ${label}: the update ${ok ? "succeeded" : "failed"}, and ${problem}`);
}
