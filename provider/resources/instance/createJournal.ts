import { createHash, randomBytes } from "crypto";
import { promises as fs } from "fs";
import * as os from "os";
import * as path from "path";
import { Log } from "../../dynamic/context";

/**
 * A note on disk of each instance create under way, so that a `pulumi up` stopped before its
 * create returned (a second Ctrl-C while an instance boots, a killed CI job) does not leave a
 * paid instance that no stack knows of. The engine then drops the create (a "pending operation"),
 * and dynamic resources cannot be imported: without this note the instance could only be found in
 * the web console.
 *
 * Each create writes its entry before a rent is sent (the offer and the placement token the
 * create carries), adds the instance's id once the rent answers, and removes the entry when the
 * create returns to the engine, which then keeps the instance in state. An entry left behind by a
 * process that is no longer running is an interrupted create: the next create with the same
 * inputs on this machine takes its instance over instead of renting another (createResume.ts),
 * and any other instance operation names it in a warning until then.
 *
 * The directory is `~/.pulumi-vastai/creates`, or `VASTAI_CREATE_JOURNAL`. Entries hold no
 * credential and no input in clear: the inputs are kept as a salted hash. A directory that cannot
 * be written costs the recovery, never the create: a warning says so once.
 */

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
    host: string;
    startedAt: string;
    /** The rent last sent, and what it made once it answered. */
    offerId?: number;
    token?: string;
    label?: string;
    instanceId?: number;
}

function journalDir(): string {
    return process.env[JOURNAL_DIR_ENV] || path.join(os.homedir(), ".pulumi-vastai", "creates");
}

/** The inputs as one string, keys sorted, `__provider` (the serialized code, not an input) left out. */
function canonicalJson(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
    if (value !== null && typeof value === "object") {
        const keys = Object.keys(value).filter((k) => k !== "__provider" && (value as Record<string, unknown>)[k] !== undefined).sort();
        return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
    }
    return JSON.stringify(value) ?? "null";
}

function fingerprintOf(salt: string, service: string, inputs: unknown): string {
    return createHash("sha256").update(`${salt}\0${service}\0${canonicalJson(inputs)}`).digest("hex");
}

/** Whether the process that wrote `entry` may still be running (one on another machine is taken to be). */
function mayBeRunning(entry: JournalEntry): boolean {
    if (entry.host !== os.hostname()) return true;
    if (entry.pid === process.pid) return true;
    try {
        process.kill(entry.pid, 0);
        return true;
    } catch (e) {
        return (e as NodeJS.ErrnoException).code === "EPERM";
    }
}

let unwritableWarned = false;

/** Runs a write to the journal; a failure is a warning (once per process), never the create's failure. */
async function bestEffort(log: Log, what: () => Promise<void>): Promise<void> {
    try {
        await what();
    } catch (e) {
        if (unwritableWarned) return;
        unwritableWarned = true;
        log.warn(
            `could not keep a note of instance creates in ${journalDir()} (${(e as Error).message}): should this \`pulumi up\` be ` +
                `stopped before an instance is created, the next one could not take it over. Set ${JOURNAL_DIR_ENV} to a writable directory`,
        );
    }
}

/** Entry files this process has claimed or written: never claimed twice, by two creates of one run. */
const ownFiles = new Set<string>();

/** One create's entry. Written only once a rent is about to be sent: a create that rents nothing leaves no trace. */
export class CreateRecord {
    private constructor(
        private readonly log: Log,
        private readonly file: string,
        private entry: JournalEntry,
        /** The entry was left by a create that was stopped: its instance may exist (see createResume.ts). */
        readonly interrupted: boolean,
    ) {}

    /**
     * The record of a create of `inputs` on `service`: an interrupted create's entry with the same
     * inputs, claimed for this create, or a new one.
     */
    static async begin(log: Log, service: string, inputs: unknown): Promise<CreateRecord> {
        const dir = journalDir();
        for (const entry of await readEntries(dir)) {
            if (entry.data.service !== service || ownFiles.has(entry.file) || mayBeRunning(entry.data)) continue;
            if (fingerprintOf(entry.data.salt, service, inputs) !== entry.data.fingerprint) continue;
            // Claimed by renaming it: of two processes (or two creates here) only one rename succeeds.
            const claimed = path.join(dir, `${randomBytes(8).toString("hex")}.json`);
            ownFiles.add(claimed);
            try {
                await fs.rename(entry.file, claimed);
            } catch {
                ownFiles.delete(claimed);
                continue;
            }
            const record = new CreateRecord(log, claimed, { ...entry.data, pid: process.pid, host: os.hostname() }, true);
            await record.write();
            return record;
        }
        const salt = randomBytes(8).toString("hex");
        const file = path.join(dir, `${randomBytes(8).toString("hex")}.json`);
        ownFiles.add(file);
        const entry: JournalEntry = {
            v: 1,
            service,
            salt,
            fingerprint: fingerprintOf(salt, service, inputs),
            pid: process.pid,
            host: os.hostname(),
            startedAt: new Date().toISOString(),
        };
        return new CreateRecord(log, file, entry, false);
    }

    get offerId(): number | undefined {
        return this.entry.offerId;
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

    /** A rent is about to be sent: from now an instance may exist, findable by its token. */
    async placing(offerId: number, token: string, label: string | undefined): Promise<void> {
        this.entry = { ...this.entry, offerId, token, label, instanceId: undefined };
        await this.write();
    }

    /** The rent answered: the instance it made. */
    async placed(instanceId: number): Promise<void> {
        this.entry = { ...this.entry, instanceId };
        await this.write();
    }

    /** The create ends with its outcome known (the engine has the instance, or none exists): nothing left to recover. */
    async close(): Promise<void> {
        ownFiles.delete(this.file);
        await fs.rm(this.file, { force: true }).catch(() => undefined);
    }

    private write(): Promise<void> {
        const dir = path.dirname(this.file);
        return bestEffort(this.log, async () => {
            await fs.mkdir(dir, { recursive: true, mode: 0o700 });
            // Written whole, then renamed: a process killed mid-write leaves the last entry, not half of one.
            const partial = `${this.file}.partial`;
            await fs.writeFile(partial, JSON.stringify(this.entry), { mode: 0o600 });
            await fs.rename(partial, this.file);
        });
    }
}

/** Entries left on `service` by creates whose process is no longer running, with their files. */
export async function interruptedEntries(service: string): Promise<{ file: string; data: JournalEntry }[]> {
    return (await readEntries(journalDir())).filter((e) => e.data.service === service && !ownFiles.has(e.file) && !mayBeRunning(e.data));
}

/** Forgets an interrupted entry whose instance turned out gone. */
export async function forget(file: string): Promise<void> {
    await fs.rm(file, { force: true }).catch(() => undefined);
}

/** Every readable entry in `dir`; a missing directory has none, an unreadable file is skipped. */
async function readEntries(dir: string): Promise<{ file: string; data: JournalEntry }[]> {
    let names: string[];
    try {
        names = await fs.readdir(dir);
    } catch {
        return [];
    }
    const entries: { file: string; data: JournalEntry }[] = [];
    for (const name of names.filter((n) => n.endsWith(".json"))) {
        const file = path.join(dir, name);
        try {
            const data = JSON.parse(await fs.readFile(file, "utf8")) as JournalEntry;
            if (data.v === 1 && typeof data.service === "string" && typeof data.pid === "number") entries.push({ file, data });
        } catch {
            // Removed meanwhile by its own create, or not ours: skipped.
        }
    }
    return entries;
}
