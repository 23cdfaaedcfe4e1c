import * as pulumi from "@pulumi/pulumi";
import { MiniEngine } from "../../testkit/engine/miniEngine";
import { ProviderHost } from "../../testkit/host/providerHost";

/**
 * The mini engine's own promises, with small dynamic resources defined here: the plan after every
 * `up` must be empty, a list of steps runs as the CLI would, and a failed step shows what the host
 * printed during it.
 */
const keeper: pulumi.dynamic.ResourceProvider = {
    // With `drift`, what create stores is not what it was given, so the next plan replaces it.
    async create(inputs: any) {
        return { id: `keep-${inputs.size}`, outs: inputs.drift ? { ...inputs, size: inputs.size + 1 } : inputs };
    },
    async diff(_id: string, olds: any, news: any) {
        const replaces = olds.size !== news.size ? ["size"] : [];
        return { changes: replaces.length > 0 || olds.note !== news.note, replaces };
    },
    async update(_id: string, _olds: any, news: any) {
        return { outs: news };
    },
};

class Keeper extends pulumi.dynamic.Resource {
    constructor(name: string, args: { size: number; note?: string; drift?: boolean }) {
        super(keeper, name, args, {}, "testkit", "Keeper");
    }
}

const talker: pulumi.dynamic.ResourceProvider = {
    async create(inputs: any) {
        for (let i = 1; i <= inputs.lines; i++) console.log(`talker: line ${i}`);
        throw new Error("talker gave up");
    },
};

class Talker extends pulumi.dynamic.Resource {
    constructor(name: string, args: { lines: number }) {
        super(talker, name, args, {}, "testkit", "Talker");
    }
}

/** Warns on stderr, as the provider's `warn` does, then fails. */
const warner: pulumi.dynamic.ResourceProvider = {
    async create() {
        process.stderr.write("warner: warning: the disk is nearly full\n");
        throw new Error("warner gave up");
    },
};

class Warner extends pulumi.dynamic.Resource {
    constructor(name: string) {
        super(warner, name, {}, {}, "testkit", "Warner");
    }
}

describe("mini engine", () => {
    let host: ProviderHost;
    let engine: MiniEngine;
    beforeAll(async () => {
        host = await ProviderHost.start();
        await host.configure({});
    });
    afterAll(() => host.stop());
    beforeEach(() => {
        engine = new MiniEngine(host);
    });

    it("fails an up whose next plan is not empty, naming the resource; expectChanges allows it", async () => {
        const error = await engine.up(() => [new Keeper("steady", { size: 1 }), new Keeper("drifty", { size: 2, drift: true })]).catch((e) => e);
        expect(error.message).toMatch(/^the plan after this up is not empty: drifty would be replaced \(size\)/);
        expect(error.message).not.toMatch(/steady/);
        // The up itself went through: both are in state.
        expect(engine.get("drifty").outputs.size).toBe(3);

        const summary = await engine.up(() => new Keeper("drifty", { size: 2, drift: true }), { expectChanges: true });
        expect(summary.replace).toEqual([{ name: "drifty", because: ["size"] }]);
        expect(summary.delete).toEqual(["steady"]);
    });

    it("previews an up without changing anything: each resource's step and the properties that cause it", async () => {
        await engine.up(() => [new Keeper("a", { size: 1 }), new Keeper("b", { size: 1 }), new Keeper("c", { size: 1 })]);
        const steps: string[] = [];
        engine.onStep = (event) => steps.push(`${event.op} ${event.name}`);
        const plan = await engine.preview(() => [new Keeper("a", { size: 1, note: "edited" }), new Keeper("b", { size: 2 }), new Keeper("d", { size: 1 })]);
        expect(plan.map((s) => `${s.op} ${s.name} ${s.because.join(",")}`).sort()).toEqual(["create d ", "delete c ", "replace b size", "update a note"]);
        expect(steps).toEqual([]);
        expect([...engine.state.values()].map((e) => `${e.name} ${e.outputs.size} ${e.outputs.note ?? ""}`).sort()).toEqual(["a 1 ", "b 1 ", "c 1 "]);
    });

    it("runs a list of steps and returns each one's summary", async () => {
        const summaries = await engine.run([
            { up: () => [new Keeper("a", { size: 1 }), new Keeper("b", { size: 1 })] },
            { up: () => [new Keeper("a", { size: 1, note: "edited" }), new Keeper("b", { size: 2 })] },
            { refresh: true },
            { destroy: true },
        ]);
        expect(summaries.map(({ create, update, replace, delete: deleted, same }) => ({ create, update, replace, deleted, same }))).toEqual([
            { create: ["a", "b"], update: [], replace: [], deleted: [], same: [] },
            { create: [], update: ["a"], replace: [{ name: "b", because: ["size"] }], deleted: [], same: [] },
            { create: [], update: [], replace: [], deleted: [], same: ["a", "b"] },
            { create: [], update: [], replace: [], deleted: ["b", "a"], same: [] },
        ]);
        expect(engine.state.size).toBe(0);
    });

    it("ends a failed step's message with the host's last lines from that step, and names the step", async () => {
        const error = await engine.run([{ up: () => new Keeper("quiet", { size: 1 }) }, { up: () => new Talker("talker", { lines: 30 }) }]).catch((e) => e);
        const [message, said] = error.message.split("\nprovider host, last lines of this step:\n");
        expect(message).toMatch(/^step 2 \(up\): .*talker gave up/);
        const lines = said.split("\n");
        expect(lines).toHaveLength(20);
        expect(lines[0]).toBe("    | talker: line 11");
        expect(lines[19]).toBe("    | talker: line 30");
    });

    it("a failed step's message carries what the host wrote to stderr too: warnings reach the user", async () => {
        const error = await engine.run([{ up: () => new Warner("warner") }]).catch((e) => e);
        expect(error.message).toMatch(/^step 1 \(up\): .*warner gave up/);
        expect(error.message).toContain("\n    | warner: warning: the disk is nearly full");
    });
});
