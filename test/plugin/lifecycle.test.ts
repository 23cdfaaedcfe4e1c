import { ResourceKind } from "../../provider/dynamic/shim";
import { PROGRAM_PATHS, ProgramPath, declareOn } from "../../testkit/host/pluginResource";
import { Emulator } from "../../testkit/emulator/server";
import { StepEvent } from "../../testkit/engine/miniEngine";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * Every resource's lifecycle through both front doors, from one table: Pulumi's dynamic-provider
 * host with the TypeScript classes, and the provider plugin with the resources a generated SDK
 * declares. Create, refresh, update in place (same id), replace (new id, old one gone from the
 * service), destroy verified on the service; the engine checks after every `up` that the next
 * plan is empty. Through the plugin, an update's plan lists exactly what the program changed.
 */
interface Change {
    args: object;
    /** The properties the plan names. */
    because: string[];
}

interface LifecycleCase {
    kind: ResourceKind;
    /** Makes what the case rents on the emulator; returns the program's arguments at each step. */
    arrange(emu: Emulator): { create: object; update?: Change; replace?: Change };
    /** Whether the service holds the resource with this id. */
    held(emu: Emulator, id: string): boolean;
}

const LAPTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyLaptop0000000000000000 me@laptop";
const DESKTOP = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTestsOnlyDesktop000000000000000 me@desktop";

function volumeCase(kind: "volume" | "networkVolume"): LifecycleCase {
    return {
        kind,
        arrange(emu) {
            const network = kind === "networkVolume";
            const machineId = network ? undefined : emu.model.addMachine(emu.demoUser.id, { gpu_name: "VOLUME-HOST" }).id;
            const geolocation = network ? "Oslo, NO" : "Bergen, NO";
            emu.addVolumeOffer({ machineId, network, diskSpace: 500, storageCost: 0.1, geolocation });
            const offer = { filters: { geolocation: { eq: geolocation } }, maxPricePerGbMonth: 0.2 };
            const dearer = { ...offer, maxPricePerGbMonth: 0.3 }; // a search only chooses at create: recorded in place
            return { create: { offer, sizeGb: 20 }, update: { args: { offer: dearer, sizeGb: 20 }, because: ["offer"] }, replace: { args: { offer: dearer, sizeGb: 30 }, because: ["sizeGb"] } };
        },
        held: (emu, id) => emu.liveVolumes().some((v) => String(v.id) === id),
    };
}

const CASES: LifecycleCase[] = [
    {
        kind: "template",
        arrange: () => ({
            create: { name: "trainer", image: "pytorch/pytorch", tag: "2.3.0", recommendedDiskSpace: 20 },
            update: { args: { name: "trainer", image: "pytorch/pytorch", tag: "2.4.0", recommendedDiskSpace: 20 }, because: ["tag"] },
        }),
        held: (emu, id) => emu.model.templates.get(Number(id))?.deleted === false,
    },
    {
        kind: "instance",
        arrange(emu) {
            const offer = emu.addOffer();
            const base = { offerId: offer.id, image: "nvidia/cuda:12.4.1-base-ubuntu22.04", disk: 16, label: "trainer-1" };
            emu.addOffer(); // the replacement's, on another machine: the old instance keeps its offer until it is gone
            return {
                create: base,
                update: { args: { ...base, label: "trainer-2" }, because: ["label"] },
                replace: { args: { offer: { filters: { gpu_name: { in: ["RTX 4090", "RTX 3090"] } }, maxPricePerHour: 5 }, image: "nvidia/cuda:12.6.0-base-ubuntu24.04", disk: 16, label: "trainer-2" }, because: ["image"] },
            };
        },
        held: (emu, id) => emu.liveInstances().some((i) => String(i.id) === id),
    },
    {
        kind: "apiKey",
        arrange: () => ({
            create: { name: "ci-reader", permissions: { api: { user_read: {} } } },
            replace: { args: { name: "ci-reader", permissions: { api: { user_read: {}, instance_read: {} } } }, because: ["permissions"] },
        }),
        held: (emu, id) => emu.model.findKeyById(Number(id)) !== undefined && emu.model.findKeyById(Number(id))!.revokedStatus === undefined,
    },
    {
        kind: "sshKey",
        arrange: () => ({ create: { publicKey: LAPTOP }, replace: { args: { publicKey: DESKTOP }, because: ["publicKey"] } }),
        held: (emu, id) => emu.model.sshKeys.has(Number(id)),
    },
    volumeCase("volume"),
    volumeCase("networkVolume"),
];

describe.each<ProgramPath>(PROGRAM_PATHS)("every resource's lifecycle through the %s path", (path) => {
    let stack: TestStack;
    const steps: StepEvent[] = [];
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: path === "plugin" } });
        stack.engine.onStep = (event) => steps.push(event);
    });
    afterAll(() => stack.stop());

    it.each(CASES.map((c) => [c.kind, c] as const))("%s: create, refresh, update in place, replace, destroy", async (kind, c) => {
        const { engine, emu } = stack;
        const plan = c.arrange(emu);
        const name = `${kind}-${path}`;
        const up = (args: object) => engine.up(() => declareOn(path, kind, name, args));

        expect((await up(plan.create)).create).toEqual([name]);
        const first = engine.get(name);
        expect(first.type).toBe(path === "plugin" ? `vastai:index:${first.type.split(":").pop()}` : `pulumi-nodejs:dynamic/vastai:${first.type.split(":").pop()}`);
        expect(c.held(emu, first.id)).toBe(true);
        expect((await engine.refresh()).same).toEqual([name]);

        if (plan.update) {
            steps.length = 0;
            expect((await up(plan.update.args)).update).toEqual([name]);
            expect(engine.get(name).id).toBe(first.id);
            const because = steps.find((s) => s.op === "update")!.because;
            // The plugin's detailed diff names exactly what changed; the dynamic host lists every changed input, internal ones too.
            if (path === "plugin") expect(because).toEqual(plan.update.because);
            else expect(because).toEqual(expect.arrayContaining(plan.update.because));
        } else {
            // No property changes in place: an Update (as the engine sends after a failed create) changes nothing and keeps every output.
            const held = engine.get(name);
            const { __provider: _, ...outputs } = held.outputs;
            const updated = await stack.host.update(held.id, held.urn, held.outputs, held.inputs, held.inputs);
            expect(updated.properties).toMatchObject(outputs);
        }

        let last = engine.get(name).id;
        if (plan.replace) {
            const replaced = await up(plan.replace.args);
            expect(replaced.replace).toEqual([{ name, because: plan.replace.because }]);
            last = engine.get(name).id;
            expect(last).not.toBe(first.id);
            expect(c.held(emu, first.id)).toBe(false);
            expect(c.held(emu, last)).toBe(true);
        }

        expect(await engine.destroy()).toEqual([name]);
        expect(c.held(emu, last)).toBe(false);
    });
});
