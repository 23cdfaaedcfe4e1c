import { createHash, randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Log, ProviderContext } from "../../../dynamic/context";
import { ENGINE, THIS_PROCESS_START, engineGone, processStart, stillRunning, watchEngine } from "./journalProcesses";
import { canonicalJson } from "../../canonicalInputs";
import { ChosenOffer, PLACEMENT_ENV } from "../common/placement";

// The create journal: an entry on disk for each instance create under way, so that a `pulumi up`
// stopped before its create returned leaves no paid instance that no stack knows of. Why and how:
// docs/design/instance-create.md ("The create journal").

/** The variable that moves the journal, for machines where the home directory is not writable. */
export const JOURNAL_DIR_ENV = "VASTAI_CREATE_JOURNAL";

/** What an entry says of one create. */
export interface JournalEntry {
    v: 1;
    /** The service's base URL: an entry is only ever matched against the same service. */
    service: string;
    /** sha256 of the salt, the service and the create's inputs: the same program's create again. */
    salt: string;
    fingerprint: string;
    /** The process that made it, and where: an entry of a process still running is its own. */
    pid: number;
    /** When that process started (Linux), so a pid used again by another process is not taken for it. */
    pidStart?: string;
    /**
     * The engine that started that process (Linux): once it has gone, nothing the process returns
     * reaches a state, so the entry is interrupted whether or not the process still runs.
     */
    enginePid?: number;
    engineStart?: string;
    host: string;
    /**
     * The key's account, in entries of earlier versions (creates now record the key's mark only):
     * another account's key never takes the entry over or forgets it.
     */
    accountId?: number;
    /**
     * The mark of the key that made it, never the key (see resources/sameAccount.ts): while the
     * account is not known, that key's "nothing there" is believed, as it sees what it rented.
     */
    keyMark?: string;
    startedAt: string;
    /** The rent last sent (the offer, and what a search said of it), and what it made once it answered. */
    offerId?: number;
    machineId?: number;
    gpuName?: string;
    numGpus?: number;
    token?: string;
    label?: string;
    instanceId?: number;
    /** Machines where earlier attempts' instances would not run: the create that takes this one over avoids them. */
    failedMachineIds?: number[];
}

function journalDir(): string {
    return process.env[JOURNAL_DIR_ENV] || path.join(os.homedir(), ".pulumi-vastai", "creates");
}

function fingerprintOf(salt: string, service: string, inputs: unknown): string {
    return createHash("sha256").update(`${salt}\0${service}\0${canonicalJson(inputs)}`).digest("hex");
}

/**
 * Whether the process that wrote `entry` may still be running: one on another machine is taken
 * to be; one whose engine has gone, or whose pid now belongs to a process started at another
 * time, is not.
 */
function mayBeRunning(entry: JournalEntry): boolean {
    if (entry.host !== os.hostname()) return true;
    if (entry.enginePid !== undefined && entry.engineStart !== undefined && stillRunning(entry.enginePid, entry.engineStart) === false) return false;
    if (entry.pidStart !== undefined) {
        const start = processStart(entry.pid);
        if (start !== undefined) return start === entry.pidStart;
    }
    if (entry.pid === process.pid) return true;
    try {
        process.kill(entry.pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === "EPERM";
    }
}

let unwritableWarned = false;

/**
 * Runs a write to the journal; a failure is a warning (once per process), never the create's
 * failure. Synchronous on purpose: a few small files, written before a rent is sent, cost less on
 * the main thread than a queue for the thread pool beside the create's own network work.
 */
function bestEffort(log: Log, what: () => void): void {
    try {
        what();
    } catch (e) {
        if (unwritableWarned) return;
        unwritableWarned = true;
        log.warn(
            `could not keep a note of instance creates in ${journalDir()} (${(e as Error).message}): should this \`pulumi up\` be ` +
                `stopped while an instance is being created, the next one could not take it over. Set ${JOURNAL_DIR_ENV} to a writable directory`,
        );
    }
}

/** The directory, made once per process. */
let madeDir: string | undefined;
function ensureDir(dir: string): void {
    if (madeDir === dir) return;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    madeDir = dir;
}

/** The entries of interrupted creates, read once per process: one left by a process that ends meanwhile waits for the next command. */
let leftBehind: { dir: string; entries: { file: string; data: JournalEntry }[] } | undefined;
function leftBehindIn(dir: string): { file: string; data: JournalEntry }[] {
    if (leftBehind?.dir !== dir) leftBehind = { dir, entries: readEntries(dir).filter(interrupted) };
    return leftBehind.entries;
}

/**
 * Whether `entry` was made with this key's account: yes when it names none. Another account's
 * key cannot see its instance, so it must neither take it over nor read it as gone; when the
 * account cannot be told, it is taken not to be.
 */
export async function sameAccount(ctx: Pick<ProviderContext, "currentUserId">, entry: JournalEntry): Promise<boolean> {
    if (entry.accountId === undefined) return true;
    return ctx.currentUserId().then(
        (me) => me === entry.accountId,
        () => false,
    );
}

/**
 * Whether this key takes `entry` over without a look: the key that made it (its mark), or, for a
 * entry that names its account (earlier versions), a key of that account. An entry of another key is
 * the caller's to judge (`othersEntry` in `begin`).
 */
export async function ownEntry(ctx: Pick<ProviderContext, "currentUserId" | "keyMark">, entry: JournalEntry): Promise<boolean> {
    if (entry.accountId !== undefined) return sameAccount(ctx, entry);
    return entry.keyMark === undefined || entry.keyMark === ctx.keyMark();
}

/** The create's failure, before any rent, when an interrupted create's entry with its inputs cannot be claimed. */
function unclaimable(file: string, entry: JournalEntry, cause: Error): Error {
    const which = entry.instanceId !== undefined ? `instance ${entry.instanceId}` : `an instance with ${PLACEMENT_ENV}=${entry.token} in its env`;
    return new Error(
        `vastai: a \`pulumi up\` stopped at ${entry.startedAt} while creating this instance on offer ${entry.offerId}, and its note ${file} ` +
            `cannot be claimed (${cause.message}), so ${which} cannot be taken over: nothing was rented, as another would be paid beside it. ` +
            `Make ${path.dirname(file)} writable and run \`pulumi up\` again; to rent anew instead, destroy that instance in the Vast.ai console and delete the note`,
        { cause },
    );
}

/** Entry files this process has claimed or written: never claimed twice, by two creates of one run. */
const ownFiles = new Set<string>();

/** A file name for a new entry in `dir`, this process's own from now on. */
function newFile(dir: string): string {
    const file = path.join(dir, `${randomBytes(8).toString("hex")}.json`);
    ownFiles.add(file);
    return file;
}

/**
 * A file name for an entry this process claims, which names it as the claimer
 * (`<random>.by-<pid>-<start>.json`). Claimed by renaming, the entry still names the stopped process
 * until the claimer has written it anew: another process reading the folder in between would take
 * it for an interrupted create and claim it too, and both would take over one instance.
 */
function claimFile(dir: string): string {
    const file = path.join(dir, `${randomBytes(8).toString("hex")}.by-${process.pid}-${THIS_PROCESS_START ?? "unknown"}.json`);
    ownFiles.add(file);
    return file;
}

/** An entry whose create stopped: its process is not running, nor is the process that claimed it, if one did. */
function interrupted({ file, data }: { file: string; data: JournalEntry }): boolean {
    if (mayBeRunning(data)) return false;
    const claimer = /\.by-(\d+)-(\w+)\.json$/.exec(file);
    if (!claimer) return true;
    const pidStart = claimer[2] === "unknown" ? undefined : claimer[2];
    return !mayBeRunning({ ...data, pid: Number(claimer[1]), pidStart, enginePid: undefined, engineStart: undefined });
}

/** The entry of a new create of `inputs` on `service`, before any rent. */
function newEntry(service: string, inputs: unknown, keyMark: string): JournalEntry {
    const salt = randomBytes(8).toString("hex");
    return {
        v: 1,
        service,
        salt,
        fingerprint: fingerprintOf(salt, service, inputs),
        pid: process.pid,
        pidStart: THIS_PROCESS_START,
        enginePid: ENGINE.pid,
        engineStart: ENGINE.start,
        host: os.hostname(),
        keyMark,
        startedAt: new Date().toISOString(),
    };
}

/** One create's entry. Written only once a rent is about to be sent: a create that rents nothing leaves no trace. */
export class CreateRecord {
    private constructor(
        private readonly log: Log,
        private file: string,
        private entry: JournalEntry,
        /**
         * When this record claimed a stopped create's entry: that entry as it was left, and the
         * one this create starts from should it be put back (see `release`).
         */
        private readonly claim?: { left: JournalEntry; fresh: JournalEntry },
    ) {}

    /** The entry was left by a create that was stopped: its instance may exist. */
    get interrupted(): boolean {
        return this.claim !== undefined;
    }

    /**
     * The record of a create of `inputs` on `service`: an interrupted create's entry with the same
     * inputs that this key may take over, claimed for this create; or a new one. Its own entries
     * (`ownEntry`) are taken first; another key's only when `othersEntry` says so (this key sees
     * its instance: it is then the same account's). Another key's "nothing there" proves nothing,
     * since it may be another account's: claiming that entry, it would hide it from the key that
     * can settle it, which would then rent a second instance. The account is asked only when a
     * entry names one (see resources/sameAccount.ts).
     */
    static async begin(
        ctx: Pick<ProviderContext, "log" | "currentUserId" | "keyMark">,
        service: string,
        inputs: unknown,
        othersEntry: (entry: JournalEntry) => Promise<boolean> = async () => false,
    ): Promise<CreateRecord> {
        watchEngine();
        const dir = journalDir();
        const candidates = leftBehindIn(dir).filter((e) => e.data.service === service && fingerprintOf(e.data.salt, service, inputs) === e.data.fingerprint);
        const owned = await Promise.all(candidates.map(async (entry) => ({ entry, own: await ownEntry(ctx, entry.data) })));
        // Its own entries first (a stable sort keeps the rest in order).
        for (const { entry, own } of owned.sort((a, b) => Number(b.own) - Number(a.own))) {
            if (ownFiles.has(entry.file)) continue;
            if (!own && !(await othersEntry(entry.data))) continue;
            // Claimed by renaming it: of two processes (or two creates here) only one rename succeeds.
            const claimed = claimFile(dir);
            try {
                fs.renameSync(entry.file, claimed);
            } catch (e) {
                ownFiles.delete(claimed);
                // Gone: another create claimed it first. Still there (a folder made read-only): its
                // instance may run, and this create would rent a second one beside it.
                if ((e as NodeJS.ErrnoException).code === "ENOENT" || entry.data.token === undefined) continue;
                throw unclaimable(entry.file, entry.data, e as Error);
            }
            const record = new CreateRecord(ctx.log, claimed, { ...entry.data, pid: process.pid, pidStart: THIS_PROCESS_START, enginePid: ENGINE.pid, engineStart: ENGINE.start, host: os.hostname() }, {
                left: entry.data,
                fresh: newEntry(service, inputs, ctx.keyMark()),
            });
            record.onDisk = true;
            record.write();
            return record;
        }
        return new CreateRecord(ctx.log, newFile(dir), newEntry(service, inputs, ctx.keyMark()));
    }

    /** The offer of the rent last sent, as it was chosen. */
    get offer(): ChosenOffer | undefined {
        const { offerId, machineId, gpuName, numGpus } = this.entry;
        return offerId === undefined ? undefined : { offerId, machineId, gpuName, numGpus };
    }
    get token(): string | undefined {
        return this.entry.token;
    }
    get label(): string | undefined {
        return this.entry.label;
    }
    get instanceId(): number | undefined {
        return this.entry.instanceId;
    }
    get startedAt(): string {
        return this.entry.startedAt;
    }
    /** Machines where the interrupted create's attempts would not run. */
    get failedMachineIds(): number[] {
        return this.entry.failedMachineIds ?? [];
    }

    get accountId(): number | undefined {
        return this.entry.accountId;
    }
    get keyMark(): string | undefined {
        return this.entry.keyMark;
    }

    /**
     * Whether an instance this create rented may exist that the engine has not been given: a rent
     * was sent, and neither found to have made nothing nor its instance confirmed destroyed.
     */
    get mayHoldInstance(): boolean {
        return this.entry.token !== undefined;
    }

    /** A rent is about to be sent: from now an instance may exist, findable by its token. Written before the send. */
    placing(offer: ChosenOffer, token: string, label: string | undefined, failedMachineIds: number[] = []): void {
        if (engineGone()) process.exit(1); // no rent for no one (see watchEngine)
        const { offerId, machineId, gpuName, numGpus } = offer;
        const failed = failedMachineIds.length > 0 ? { failedMachineIds } : {};
        this.entry = { ...this.entry, offerId, machineId, gpuName, numGpus, token, label, instanceId: undefined, ...failed };
        this.write();
    }

    /**
     * The rent answered: the instance it made. Kept in memory until `keep` (before the wait for
     * it to boot): a create that returns at once writes nothing more, and one cut short before
     * then is found by its token.
     */
    placed(instanceId: number): void {
        this.entry = { ...this.entry, instanceId };
        this.unsaved = true;
    }

    /** Writes what `placed` learnt, before a long wait. */
    keep(): void {
        if (this.unsaved && this.mayHoldInstance) this.write();
    }

    /** The last rent made nothing, or its instance is confirmed destroyed: nothing of it to recover. */
    cleared(): void {
        const { offerId, machineId, gpuName, numGpus, token, label, instanceId, ...kept } = this.entry;
        this.entry = kept;
        if (this.closed || !this.onDisk) return;
        try {
            fs.rmSync(this.file, { force: true });
            this.onDisk = false;
        } catch {
            this.write(); // the entry then says nothing was placed
        }
    }

    /**
     * The claimed entry is not this create's to settle (its account cannot be told, so "gone" may
     * only mean another account's key): put back as the stopped create left it, for its own
     * account's next command, and this create goes on with an entry of its own.
     */
    release(): void {
        if (!this.claim) return;
        const { left, fresh } = this.claim;
        bestEffort(this.log, () => writeWhole(this.file, left));
        ownFiles.delete(this.file);
        this.file = newFile(path.dirname(this.file));
        this.entry = fresh;
        this.onDisk = false;
        this.unsaved = false;
    }

    /** The create ends with its outcome known (the engine has the instance, or none exists): nothing left to recover. */
    close(): void {
        if (this.mayHoldInstance && engineGone()) return this.handOver();
        this.closed = true;
        ownFiles.delete(this.file);
        if (!this.onDisk) return;
        try {
            fs.rmSync(this.file, { force: true });
        } catch (e) {
            // Left there, it would read as interrupted once this process ends, and a later create
            // with the same inputs could take over an instance this stack holds.
            this.log.warn(`could not remove ${this.file} (${(e as Error).message}), the note of a create that has ended: delete it by hand`);
        }
    }

    /**
     * The engine that would have recorded the instance has gone (killed while this host went on):
     * the entry stays, as the engine's own, so that it reads as interrupted now and the next `up`
     * takes the instance over.
     */
    private handOver(): void {
        this.entry = { ...this.entry, pid: ENGINE.pid, pidStart: ENGINE.start };
        this.write();
        this.closed = true;
        ownFiles.delete(this.file);
        this.log.warn(`the engine went away before instance ${this.entry.instanceId ?? `on offer ${this.entry.offerId}`} reached its state: the next \`pulumi up\` takes it over (${this.file})`);
    }

    private closed = false;
    /** The file holds an entry (a claimed one does from the start). */
    private onDisk = false;
    /** `placed` learnt something the file does not say yet. */
    private unsaved = false;

    private write(): void {
        if (this.closed) return; // nothing after the end may bring the entry back
        const dir = path.dirname(this.file);
        bestEffort(this.log, () => {
            ensureDir(dir);
            writeWhole(this.file, this.entry);
            this.onDisk = true;
            this.unsaved = false;
        });
    }
}

/**
 * Writes `entry` whole, then renames it into place: a process killed mid-write leaves the last
 * entry or none, never half of one (which would read as no entry at all).
 */
function writeWhole(file: string, entry: JournalEntry): void {
    const partial = `${file}.partial`;
    fs.writeFileSync(partial, JSON.stringify(entry), { mode: 0o600 });
    fs.renameSync(partial, file);
}

/** Entries left on `service` by creates whose process is no longer running, with their files. */
export function interruptedEntries(service: string): { file: string; data: JournalEntry }[] {
    return readEntries(journalDir()).filter((e) => e.data.service === service && !ownFiles.has(e.file) && interrupted(e));
}

/**
 * Forgets the interrupted entries of an instance that state holds (one read or changed by its
 * id): brought in since, as `pulumi refresh` can bring in a create the engine dropped. Kept, such
 * an entry would have a later create with the same inputs take over an instance a stack holds.
 * Only entries of the stack's own service: another service's ids count from the same start, so
 * there the same id is another instance. `service` is asked only when an entry has that id (a
 * diff must not need a client otherwise); when it cannot be told, nothing is forgotten.
 */
export function forgetHeld(service: () => string, instanceId: number): void {
    const held = leftBehindIn(journalDir()).filter((e) => e.data.instanceId === instanceId);
    if (held.length === 0) return;
    let url: string;
    try {
        url = service();
    } catch {
        return;
    }
    for (const entry of held) if (entry.data.service === url) forget(entry.file);
}

/** Forgets an interrupted entry whose instance turned out gone. */
export function forget(file: string): void {
    try {
        fs.rmSync(file, { force: true });
    } catch {
        // Still there: it warns again next time, and is forgotten then.
    }
}

/**
 * The entries in the journal that cannot be read as an entry of this version (unreadable, not JSON,
 * or of another version), with why: each may be a stopped create's, whose instance no stack holds.
 */
export function unreadableEntries(): { file: string; reason: string }[] {
    const unreadable: { file: string; reason: string }[] = [];
    readEntries(journalDir(), unreadable);
    return unreadable;
}

/**
 * Every readable entry in `dir`; a missing directory has none. A file that is not an entry of
 * this version is skipped, and given in `unreadable` when asked; one removed meanwhile (by its
 * own create, or claimed) is not.
 */
function readEntries(dir: string, unreadable?: { file: string; reason: string }[]): { file: string; data: JournalEntry }[] {
    let names: string[];
    try {
        names = fs.readdirSync(dir);
    } catch (e) {
        // None there, or none can be (not a directory): nothing to say. Unreadable: entries may be there.
        if (!["ENOENT", "ENOTDIR"].includes((e as NodeJS.ErrnoException).code ?? "")) unreadable?.push({ file: dir, reason: (e as Error).message });
        return [];
    }
    const entries: { file: string; data: JournalEntry }[] = [];
    for (const name of names.filter((n) => n.endsWith(".json"))) {
        const file = path.join(dir, name);
        try {
            const data = JSON.parse(fs.readFileSync(file, "utf8")) as JournalEntry;
            if (data?.v === 1 && typeof data.service === "string" && typeof data.pid === "number") entries.push({ file, data });
            else unreadable?.push({ file, reason: `not a note this version can read (v: ${JSON.stringify(data?.v)})` });
        } catch (e) {
            if ((e as NodeJS.ErrnoException).code !== "ENOENT") unreadable?.push({ file, reason: (e as Error).message });
        }
    }
    return entries;
}
