import * as fs from "fs";

// Which processes a journal entry belongs to on this machine (the provider process and its engine),
// read from Linux `/proc`: an entry is interrupted once either has gone.

/** When process `pid` started, in clock ticks since boot (Linux `/proc`); undefined elsewhere. */
export function processStart(pid: number): string | undefined {
    try {
        // The fields after the command's closing parenthesis; the start time is the 22nd field, the 20th of these.
        return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[19];
    } catch {
        return undefined;
    }
}

export const THIS_PROCESS_START = processStart(process.pid);

/**
 * Whether process `pid` is still the one that started at `start` (Linux `/proc`): false once it
 * has ended or its pid is another process's, undefined when that cannot be read (not Linux, or a
 * failed read, which proves nothing).
 */
export function stillRunning(pid: number, start: string): boolean | undefined {
    let stat: string;
    try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === "ENOENT" && fs.existsSync("/proc/self/stat") ? false : undefined;
    }
    return stat.split(") ")[1]?.split(" ")[19] === start;
}

/** The parent of process `pid` (Linux `/proc`); undefined elsewhere. */
function parentOf(pid: number): number | undefined {
    try {
        return Number(fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]) || undefined;
    } catch {
        return undefined;
    }
}

/** Whether process `pid` runs Pulumi's plugin script for dynamic providers (Linux `/proc`). */
function isPluginScript(pid: number): boolean {
    try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pulumi-resource-pulumi-nodejs");
    } catch {
        return false;
    }
}

/**
 * The engine that started this process; once it has gone, nothing this process returns reaches a
 * state. The CLI starts a dynamic provider through `pulumi-resource-pulumi-nodejs`, a shell script
 * that runs node without exec, in a process group of its own: a CLI killed outright leaves that
 * shell running, so the engine is then the shell's parent, not this process's.
 */
const PARENT = process.ppid;
export const ENGINE = (() => {
    const pid = (isPluginScript(PARENT) && parentOf(PARENT)) || PARENT;
    return { pid, start: processStart(pid) };
})();

/** The engine has gone: this process's parent changed, or the engine's pid is no longer the process it was. */
export function engineGone(): boolean {
    if (process.ppid !== PARENT) return true;
    return ENGINE.start !== undefined && stillRunning(ENGINE.pid, ENGINE.start) === false;
}

/** How often a process with creates under way checks that its engine is still there. */
const ENGINE_CHECK_MS = 1000;
let watching = false;

/**
 * From a process's first create on: once its engine has gone, the process ends, as a kill would
 * end it. What it would still do reaches no state, and its journal entries already read as interrupted (see
 * `JournalEntry.enginePid`): the next `up` may take its instance over, and this process must not rent, nor
 * write a journal entry that another process has claimed since.
 */
export function watchEngine(): void {
    if (watching) return;
    watching = true;
    setInterval(() => {
        if (engineGone()) process.exit(1);
    }, ENGINE_CHECK_MS).unref();
}
