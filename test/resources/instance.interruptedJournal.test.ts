import { execFileSync } from "child_process";
import * as fs from "fs";
import { Instance } from "../../provider";
import { MiniEngine } from "../../testkit/engine/miniEngine";
import { Emulator } from "../../testkit/emulator/server";
import { ProviderHost, testJournalDir } from "../../testkit/host/providerHost";
import { eventually, startEmulator } from "../../testkit/support/fixtures";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";

/**
 * The journal of creates under way (createJournal.ts) where the machine is not as the create left
 * it: notes of another service, a folder that can no longer be written. A killed run's instance
 * must still be taken over by the next `up`, or the create refused, never rented a second time.
 */
const notes = () => fs.readdirSync(testJournalDir()).filter((f) => f.endsWith(".json"));
const noted = (): Array<{ instanceId?: number }> =>
    notes().flatMap((f) => {
        try {
            return [JSON.parse(fs.readFileSync(`${testJournalDir()}/${f}`, "utf8"))];
        } catch {
            return [];
        }
    });
const rentAnswered = () => noted().some((n) => n.instanceId !== undefined);

/**
 * Makes `dir` unwritable, even for root (where the mode bits are not enforced); undone by
 * `writable`. False when this machine cannot: root in a container without the capability to set
 * the immutable flag (CAP_LINUX_IMMUTABLE), or a file system without it.
 */
function readOnly(dir: string): boolean {
    if (process.getuid?.() !== 0) {
        fs.chmodSync(dir, 0o500);
        return true;
    }
    try {
        execFileSync("chattr", ["+i", dir], { stdio: "ignore" });
        return true;
    } catch {
        return false;
    }
}
function writable(dir: string): void {
    if (process.getuid?.() === 0) execFileSync("chattr", ["-i", dir]);
    else fs.chmodSync(dir, 0o700);
}

describe("interrupted creates: notes of other services, a journal no longer writable", () => {
    let emu: Emulator;
    let other: Emulator;
    const hosts: ProviderHost[] = [];
    beforeAll(async () => {
        // Slow to boot: a run is killed while it waits for running. Two services whose instance ids start alike.
        const timings = { rateLimitScale: TEST_TIME_SCALE, instanceTimings: { loadingAfterMs: 50, runningAfterMs: 1500 } };
        emu = await startEmulator(timings);
        other = await startEmulator(timings);
    });
    afterAll(async () => {
        for (const host of hosts) await host.stop();
        await emu.stop();
        await other.stop();
    });

    async function run(on: Emulator = emu, viaEngine = false, apiKey = on.demoKey): Promise<MiniEngine> {
        const host = await ProviderHost.start({ env: { VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) }, viaEngine });
        hosts.push(host);
        await host.configure({ "vastai:apiKey": apiKey, "vastai:baseUrl": on.url });
        return new MiniEngine(host);
    }

    async function upKilled(engine: MiniEngine, program: () => Instance): Promise<void> {
        const up = engine.up(program).catch((e: Error) => e);
        await eventually(async () => rentAnswered());
        await engine.host.kill();
        expect(await up).toBeInstanceOf(Error);
    }

    it("a stack on another service holding an instance of the same id does not forget the note: the next up takes the instance over", async () => {
        const offer = emu.addOffer();
        const program = () => new Instance("first", { offerId: offer.id, image: "busybox" });
        await upKilled(await run(), program);
        const [rented] = emu.liveInstances().filter((i) => i.offerId === offer.id);

        // Another service (a second endpoint) whose first instance has the same id, read and destroyed by its stack.
        const elsewhere = await run(other);
        await elsewhere.up(() => new Instance("elsewhere", { offerId: other.addOffer().id, image: "busybox", waitForRunning: false }));
        expect(elsewhere.get("elsewhere").id).toBe(String(rented.id));
        await elsewhere.refresh();
        await elsewhere.destroy();
        expect(notes()).toHaveLength(1);

        const next = await run();
        await next.up(program);
        expect(next.get("first").id).toBe(String(rented.id));
        expect(emu.requestsTo("PUT", new RegExp(`^/api/v0/asks/${offer.id}/?$`))).toHaveLength(1);
        await next.destroy();
        expect(emu.liveInstances()).toEqual([]);
        expect(notes()).toEqual([]);
    });

    it("a note that cannot be claimed (its folder made read-only) refuses the create rather than rent a second instance", async () => {
        const filters = { gpu_name: { eq: "JOURNAL-RO" } };
        const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: "JOURNAL-RO" });
        const listing = { gpu_name: "JOURNAL-RO", num_gpus: 1, verified: true, rentable: true, external: false };
        for (let i = 0; i < 2; i++) emu.addOffer({ status: "running" }, 0.3, machine.id, listing);
        const program = () => new Instance("searched", { offer: { filters }, image: "busybox" });
        await upKilled(await run(), program);
        const [rented] = emu.liveInstances().filter((i) => i.machineId === machine.id);

        if (readOnly(testJournalDir())) {
            try {
                const refused = await run();
                const error = await refused.up(program).catch((e: Error) => e);
                expect(error).toBeInstanceOf(Error);
                expect((error as Error).message).toContain(`${notes()[0]}`);
                expect(emu.liveInstances().filter((i) => i.machineId === machine.id)).toHaveLength(1);
                expect(refused.state.size).toBe(0);
            } finally {
                writable(testJournalDir());
            }
        } else {
            // Said, not passed over in silence: the refusal itself is not shown on this machine.
            process.stdout.write("instance.interruptedJournal: root cannot make a folder read-only here (chattr +i refused); the refusal is not shown\n");
        }

        const next = await run();
        await next.up(program);
        expect(next.get("searched").id).toBe(String(rented.id));
        await next.destroy();
        expect(emu.liveInstances()).toEqual([]);
        await eventually(async () => notes().length === 0);
    });

    it("a note this version cannot read (cut short, of another version) is named at each command, never passed over in silence", async () => {
        const dir = testJournalDir();
        fs.writeFileSync(`${dir}/cut-short.json`, '{"v":1,"service":"http://127.0.0.1:1","salt":"ab');
        fs.writeFileSync(`${dir}/newer.json`, JSON.stringify({ v: 2, service: emu.url, pid: 1 }));
        try {
            for (let command = 0; command < 2; command++) {
                const engine = await run();
                await engine.up(() => new Instance("beside", { offerId: emu.addOffer().id, image: "busybox", waitForRunning: false }));
                for (const file of ["cut-short.json", "newer.json"]) {
                    const warned = engine.host.output.filter((l) => l.includes(`${dir}/${file} cannot be read as a note of an instance create`));
                    expect(warned).toHaveLength(1);
                }
                expect(engine.host.output.join("\n")).toContain("not a note this version can read (v: 2)");
                await engine.destroy();
                await engine.host.stop();
            }
        } finally {
            fs.rmSync(`${dir}/cut-short.json`);
            fs.rmSync(`${dir}/newer.json`);
        }
        expect(emu.liveInstances()).toEqual([]);
    });

    it("an engine killed outright, its host left running under Pulumi's plugin script: the next up takes the instance over at once, never rents a second", async () => {
        const filters = { gpu_name: { eq: "ORPHANED" } };
        const machine = emu.model.addMachine(emu.otherUser.id, { gpu_name: "ORPHANED" });
        const listing = { gpu_name: "ORPHANED", num_gpus: 1, verified: true, rentable: true, external: false };
        const offers = [0, 1].map(() => emu.addOffer({ status: "running" }, 0.3, machine.id, listing));
        const rents = () => offers.flatMap((o) => emu.requestsTo("PUT", new RegExp(`^/api/v0/asks/${o.id}/?$`)));
        const program = () => new Instance("orphaned", { offer: { filters }, image: "busybox" });

        const orphaned = await run(emu, true);
        const up = orphaned.up(program).catch((e: Error) => e);
        await eventually(async () => rentAnswered());
        // The CLI dies; its plugins' process group (the script's shell, the host) is still there, the instance booting.
        await orphaned.host.killEngine();
        const [rented] = emu.liveInstances().filter((i) => i.machineId === machine.id);

        const next = await run();
        await next.up(program);
        expect(next.get("orphaned").id).toBe(String(rented.id));
        expect(rents()).toHaveLength(1);
        expect(emu.liveInstances().filter((i) => i.machineId === machine.id)).toHaveLength(1);
        // The host ended on its own: what it would still do reaches no state.
        expect(await up).toBeInstanceOf(Error);
        await orphaned.host.stop();

        await next.destroy();
        expect(emu.liveInstances()).toEqual([]);
        expect(notes()).toEqual([]);
    });

    it("a rent that never reached the service, made with a key that cannot tell its account: the same key's next up finds nothing, rents, and the note goes", async () => {
        const offer = emu.addOffer();
        const program = () => new Instance("never-sent", { offerId: offer.id, image: "busybox" });
        // A key without user_read: the note cannot say whose it is. The rent is held, unanswered, and never acted on.
        const scoped = emu.createKey({ api: { instance_read: {}, instance_write: {} } }).key;
        emu.faults.add({ method: "PUT", path: /^\/api\/v0\/asks\/\d+\/?$/, times: 1, fault: { kind: "timeout", acted: false, holdMs: 60_000 } });
        const killed = await run(emu, false, scoped);
        const up = killed.up(program).catch((e: Error) => e);
        await eventually(async () => emu.requestsTo("PUT", new RegExp(`^/api/v0/asks/${offer.id}/?$`)).length === 1 && notes().length === 1);
        await killed.host.kill();
        await up;
        emu.faults.clear();
        expect(emu.liveInstances()).toEqual([]);

        const next = await run(emu, false, scoped);
        await next.up(program);
        expect(emu.liveInstances()).toHaveLength(1);
        await next.destroy();
        await next.host.stop();
        expect(emu.liveInstances()).toEqual([]);
        // Nothing was rented by the stopped run, and the same key said so: no note left to warn about at every command.
        expect(notes()).toEqual([]);
    });
});
