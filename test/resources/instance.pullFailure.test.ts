import { OfferScript, pullAccessDenied } from "../../testkit/emulator/model";
import { Emulator } from "../../testkit/emulator/server";
import { PROGRAM_PATHS, ProgramPath, declareOn } from "../../testkit/host/pluginResource";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

// An image that cannot be pulled is the program's mistake: every machine would pull the same image.
// The instance is destroyed and the create fails naming `image`, after one rent. A machine's own
// failure (exited, an OCI runtime error) still moves on to another machine.

const asks = /^\/api\/v0\/asks\/\d+\/?$/;

/** Offers on a GPU of their own, each on a machine of its own, the cheapest first: a search rents them in this order. */
function offersOf(emu: Emulator, gpu: string, scripts: OfferScript[]): number[] {
    return scripts.map((script, i) => {
        const machine = emu.model.addMachine(emu.demoUser.id, { gpu_name: gpu });
        return emu.addOffer(script, 0.2 + i * 0.01, machine.id, { gpu_name: gpu, num_gpus: 1, verified: true, rentable: true, external: false }).id;
    });
}

const bySearch = (gpu: string) => ({ filters: { gpu_name: { eq: gpu } }, maxPricePerHour: 5 });

interface PullCase {
    name: string;
    script: OfferScript;
    /** What the create's failure quotes of the registry's answer. */
    said: string;
}

const PULL_FAILURES: PullCase[] = [
    { name: "pull access denied, left created", script: pullAccessDenied("acme/nope"), said: "pull access denied for acme/nope, repository does not exist or may require 'docker login'" },
    {
        name: "manifest unknown, then exited",
        script: { status: "exited", statusMsg: "  Error response from daemon: manifest for acme/nope:latest not found: manifest unknown: manifest unknown\n" },
        said: '"Error response from daemon: manifest for acme/nope:latest not found: manifest unknown: manifest unknown"',
    },
];

describe.each<ProgramPath>(PROGRAM_PATHS)("an image that cannot be pulled, through the %s path", (path) => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: path === "plugin" }, emulator: { instanceTimings: { loadingAfterMs: 20, runningAfterMs: 150 } } });
    });
    afterAll(() => stack.stop());

    it.each(PULL_FAILURES.map((c) => [c.name, c] as const))("%s: destroyed, the create fails naming `image` after exactly 1 rent, nothing billed", async (_name, c) => {
        const { engine, emu } = stack;
        const gpu = `PULL-${path}-${PULL_FAILURES.indexOf(c)}`.toUpperCase();
        const offers = offersOf(emu, gpu, [c.script, c.script, { status: "running" }]);
        emu.clearLog();
        const error = await engine
            .up(() => declareOn(path, "instance", "nope", { offer: bySearch(gpu), image: "acme/nope:latest", maxCreateAttempts: 3 }))
            .catch((e: Error) => e);

        expect(error).toBeInstanceOf(Error);
        const message = (error as Error).message;
        expect(codeIn(error)).toBe("image_pull_failed");
        expect(message).toContain('create instance by offer search failed: `image` "acme/nope:latest" could not be pulled');
        expect(message).toContain(c.said);
        expect(message).toContain("no other machine was tried; the instance was destroyed");
        expect(message).toContain("give the instance `imageLogin`, or its template a registry login");
        expect(emu.requestsTo("PUT", asks)).toHaveLength(1);
        const made = [...emu.model.instances.values()].filter((i) => offers.includes(i.offerId));
        expect(made).toHaveLength(1);
        expect(made[0].destroyed).toBe(true);
        expect(emu.liveInstances().filter((i) => offers.includes(i.offerId))).toEqual([]);
        expect(engine.state.size).toBe(0);
    });

    it("one whose destroy is refused stays in state, not marked to rent again; correcting `image` replaces it", async () => {
        const { engine, emu } = stack;
        const gpu = `PULL-KEPT-${path}`.toUpperCase();
        const offers = offersOf(emu, gpu, [pullAccessDenied("acme/nope"), { status: "running" }]);
        const program = (image: string) => () => declareOn(path, "instance", "kept", { offer: bySearch(gpu), image });
        emu.clearLog();
        emu.faults.add({ method: "DELETE", path: /^\/api\/v0\/instances\/\d+\/?$/, fault: { kind: "status", status: 400, body: { success: false, error: "invalid_args", msg: "destroy refused" } } });
        const error = await engine.up(program("acme/nope")).catch((e: Error) => e);
        emu.faults.clear();

        expect((error as Error).message).toMatch(/`image` "acme\/nope" could not be pulled.*destroying the instance failed \(.*destroy refused.*\), so it is kept in state/s);
        expect(emu.requestsTo("PUT", asks)).toHaveLength(1);
        const [kept] = emu.liveInstances().filter((i) => offers.includes(i.offerId));
        expect(engine.get("kept")).toMatchObject({ id: String(kept.id), outputs: { image: "acme/nope" } });
        expect(engine.get("kept").outputs).not.toHaveProperty("unfinishedCreate");

        const fixed = await engine.up(program("busybox"));
        expect(fixed.replace).toEqual([{ name: "kept", because: ["image"] }]);
        expect(emu.model.instances.get(kept.id)!.destroyed).toBe(true);
        expect(engine.get("kept").outputs).toMatchObject({ rentedOfferId: offers[1], actualStatus: "running" });
        await engine.destroy();
        expect(emu.liveInstances().filter((i) => offers.includes(i.offerId))).toEqual([]);
    });

    it("a machine's failure (exited, then an OCI runtime error while created) moves on to another machine, which runs", async () => {
        const { engine, emu } = stack;
        const gpu = `MACHINE-FAILS-${path}`.toUpperCase();
        const oci =
            "Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: " +
            "unable to start container process: error during container init: error running hook #0: nvidia-container-cli: initialization error: file not found";
        const offers = offersOf(emu, gpu, [{ status: "exited", statusMsg: "container exited with code 1" }, { status: "created", statusMsg: oci }, { status: "running" }]);
        emu.clearLog();
        const summary = await engine.up(() => declareOn(path, "instance", "moves-on", { offer: bySearch(gpu), image: "busybox", maxCreateAttempts: 3 }));

        expect(summary.create).toEqual(["moves-on"]);
        expect(emu.requestsTo("PUT", asks)).toHaveLength(3);
        const made = [...emu.model.instances.values()].filter((i) => offers.includes(i.offerId));
        expect(made.map((i) => [i.offerId, i.destroyed])).toEqual([
            [offers[0], true],
            [offers[1], true],
            [offers[2], false],
        ]);
        expect(engine.get("moves-on")).toMatchObject({ id: String(made[2].id), outputs: { actualStatus: "running" } });
        await engine.destroy();
        expect(emu.liveInstances().filter((i) => offers.includes(i.offerId))).toEqual([]);
    });
});
