import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { CreateRecord, JOURNAL_DIR_ENV } from "../../provider/resources/instance/journal/createJournal";

/**
 * Which notes of creates under way count as interrupted (their process gone) and are taken over by
 * a create with the same inputs. Notes are written by a create here, then rewritten as another
 * process (or machine) would have left them.
 */
describe("the journal of instance creates", () => {
    const ctx = { log: { progress: () => undefined, warn: () => undefined }, currentUserId: async () => 1001, keyMark: () => "0123abcd" };
    const service = "http://127.0.0.1:1";
    const inputs = { image: "busybox", offerId: 7, env: { A: "1", B: "2" }, __provider: "code" };
    let dir: string;
    beforeEach(() => {
        // A directory per case: the journal reads a directory's notes once per process.
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "journal-unit-"));
        process.env[JOURNAL_DIR_ENV] = dir;
    });
    afterEach(() => {
        delete process.env[JOURNAL_DIR_ENV];
        fs.rmSync(dir, { recursive: true, force: true });
    });

    /** A note for `inputs` as a create leaves it once its rent answered, then edited as `as` says. */
    async function leftNote(as: (note: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
        const record = await CreateRecord.begin(ctx, service, inputs);
        record.placing({ offerId: 7 }, "7-abc", undefined);
        const [file] = fs.readdirSync(dir);
        const note = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
        fs.writeFileSync(path.join(dir, file), JSON.stringify(as(note)));
        // Another directory for the create that reads it: this process has read `dir` already.
        const next = fs.mkdtempSync(path.join(os.tmpdir(), "journal-unit-"));
        fs.renameSync(path.join(dir, file), path.join(next, file));
        fs.rmSync(dir, { recursive: true, force: true });
        dir = next;
        process.env[JOURNAL_DIR_ENV] = dir;
    }

    it("a note of a process that has ended is taken over by a create with the same inputs, in any key order", async () => {
        await leftNote((note) => ({ ...note, pid: 2 ** 22 + 1, pidStart: undefined }));
        const record = await CreateRecord.begin(ctx, service, { __provider: "other code", env: { B: "2", A: "1" }, offerId: 7, image: "busybox" });
        expect(record.interrupted).toBe(true);
        expect(record.offer).toEqual({ offerId: 7 });
        expect(record.token).toBe("7-abc");
    });

    it("a pid used again by a process started at another time is not the note's process", async () => {
        await leftNote((note) => ({ ...note, pidStart: "1" })); // this process's pid, another start
        expect((await CreateRecord.begin(ctx, service, inputs)).interrupted).toBe(true);
    });

    it("a note of a process still running, of another machine, of other inputs or of another account is left alone", async () => {
        for (const [edit, news, account] of [
            [(note: Record<string, unknown>) => note, inputs, 1001], // this process, still running
            [(note: Record<string, unknown>) => ({ ...note, pid: 2 ** 22 + 1, host: "elsewhere" }), inputs, 1001],
            [(note: Record<string, unknown>) => ({ ...note, pid: 2 ** 22 + 1, pidStart: undefined }), { ...inputs, image: "alpine" }, 1001],
            [(note: Record<string, unknown>) => ({ ...note, pid: 2 ** 22 + 1, pidStart: undefined, accountId: 1002 }), inputs, 1001],
        ] as const) {
            await leftNote(edit);
            const record = await CreateRecord.begin({ ...ctx, currentUserId: async () => account }, service, news);
            expect(record.interrupted).toBe(false);
            expect(fs.readdirSync(dir)).toHaveLength(1);
        }
    });
});
