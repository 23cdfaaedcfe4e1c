import { ApiKey, Instance, NetworkVolume, SshKey, Template, Volume, apiKeyPermissions } from "../../provider";
import { OfferListing } from "../../testkit/emulator/model";
import { Emulator } from "../../testkit/emulator/server";
import { TestStack, startStack } from "../../testkit/support/stack";
import { Audit, FaultCase, OPERATIONS, Operation, ResourceUnderTest, auditCase, auditEdit, casesFor, emptyAudit, scriptOf } from "../../testkit/support/faultCases";

/**
 * The money-safety fault suite. Through Pulumi's dynamic-provider host against the emulator, every
 * request that a create, refresh, update and delete of a Template, an Instance, an SshKey, an ApiKey, a Volume and a NetworkVolume makes
 * (and an update that replaces an Instance: a new image on its pinned offer) is spoiled by every fault kind, alone and twice in a row, and a lost create answer is followed by
 * a failure of each of the lookup's first two calls. After every case the engine's state must
 * agree with the emulator: nothing leaked, duplicated or dropped, whether the operation failed or
 * not. The resource kinds run side by side, each against its own emulator and host.
 */

/** Faster than the other host tests: the suite is hundreds of operations. */
const SUITE_TIME_SCALE = 0.005;

const demo = (emu: Emulator) => emu.demoUser.id;

/** A case's instances are those on its own offer. */
const instancesOnCaseOffer: Pick<ResourceUnderTest, "liveIds" | "purge"> = {
    liveIds: (emu, name) => emu.liveInstances().filter((i) => i.offerId === offerFor(emu, name)).map((i) => String(i.id)),
    purge: (emu, name) => {
        for (const i of emu.liveInstances()) if (i.offerId === offerFor(emu, name)) i.destroyed = true;
    },
};

const RESOURCES: ResourceUnderTest[] = [
    {
        type: "Template",
        program: (_emu, name, edited) => () => new Template(name, { name, image: "busybox", desc: edited ? "edited" : "first" }),
        liveIds: (emu, name) =>
            [...emu.model.templates.values()].filter((t) => !t.deleted && t.creator_id === demo(emu) && t.fields.name === name).map((t) => String(t.id)),
        purge: (emu, name) => {
            for (const t of emu.model.templates.values()) if (t.fields.name === name) t.deleted = true;
        },
        editDisagrees: (emu, id, outputs) => {
            const desc = emu.model.templates.get(Number(id))?.fields.desc;
            return desc === outputs.desc ? undefined : `state says desc ${JSON.stringify(outputs.desc)}, the service ${JSON.stringify(desc)}`;
        },
        // Failed: the description state holds is the service's, or state says it is unsure (editUnconfirmed).
        failedEditMisreported: (emu, id, outputs) => {
            const desc = emu.model.templates.get(Number(id))?.fields.desc;
            return desc === outputs.desc || outputs.editUnconfirmed === true ? undefined : `state says desc ${JSON.stringify(outputs.desc)}, the service ${JSON.stringify(desc)}`;
        },
    },
    {
        type: "Instance",
        program: (emu, name, edited) => {
            const offer = offerFor(emu, name);
            return () => new Instance(name, { offerId: offer, image: "busybox", label: edited ? `${name}-edited` : name });
        },
        ...instancesOnCaseOffer,
        editDisagrees: labelDisagrees,
        failedEditMisreported: labelMisreported,
    },
    {
        // The update is a stop in place (a state change, then a wait for it), not a label edit.
        type: "Instance (stop)",
        program: (emu, name, edited) => {
            const offer = offerFor(emu, name);
            return () => new Instance(name, { offerId: offer, image: "busybox", desiredState: edited ? "stopped" : "running" });
        },
        ...instancesOnCaseOffer,
        editDisagrees: (emu, id, outputs) => {
            const status = emu.instanceView(Number(id))?.actual_status;
            return status === "stopped" && outputs.actualStatus === "stopped" ? undefined : `state says ${outputs.actualStatus}, the service ${status}`;
        },
    },
    {
        // Interruptible; the update is a bid change in place, whose answer may be lost like any other.
        type: "Instance (bid)",
        program: (emu, name, edited) => {
            const offer = offerFor(emu, name);
            return () => new Instance(name, { offerId: offer, image: "busybox", price: edited ? 0.5 : 0.3 });
        },
        ...instancesOnCaseOffer,
        editDisagrees: (emu, id, outputs) => {
            const bid = emu.instanceView(Number(id))?.dph_total;
            return bid === outputs.price && outputs.bidUnconfirmed === undefined ? undefined : `state says $${outputs.price} (unconfirmed: ${outputs.bidUnconfirmed}), the service $${bid}`;
        },
        // Failed: the bid state holds is the service's, or state says it is unsure (bidUnconfirmed).
        failedEditMisreported: (emu, id, outputs) => {
            const bid = emu.instanceView(Number(id))?.dph_total;
            return bid === outputs.price || outputs.bidUnconfirmed !== undefined ? undefined : `state says $${outputs.price}, the service $${bid}`;
        },
    },
    {
        // Created stopped (`target_state` in the create, then a stop asked all the same); the update is a label edit.
        type: "Instance (created stopped)",
        program: (emu, name, edited) => {
            const offer = offerFor(emu, name);
            return () => new Instance(name, { offerId: offer, image: "busybox", desiredState: "stopped", label: edited ? `${name}-edited` : name });
        },
        ...instancesOnCaseOffer,
        editDisagrees: labelDisagrees,
        failedEditMisreported: labelMisreported,
    },
    {
        // Rented by search: the case's own offer is the only match (its GPU model is the case's name).
        type: "Instance (search)",
        program: (emu, name, edited) => {
            offerFor(emu, name, { gpu_name: name, verified: true, rentable: true, external: false });
            return () => new Instance(name, { offer: { filters: { gpu_name: { eq: name } } }, image: "busybox", label: edited ? `${name}-edited` : name });
        },
        ...instancesOnCaseOffer,
        editDisagrees: labelDisagrees,
        failedEditMisreported: labelMisreported,
    },
    {
        // The update replaces: a new image on the same offer, so the old instance goes first (one
        // offer, one instance), and a lost answer on either side must leave one instance in state.
        // (A template edit replacing an instance on it is not here: when the template's step fails,
        // Pulumi's SDK rejects each dependent's registration unhandled, which fails a jest test
        // outright. It was probed apart, every call spoiled once and twice: none leaked.)
        type: "Instance (replace)",
        operations: ["update"],
        program: (emu, name, edited) => {
            const offer = offerFor(emu, name);
            return () => new Instance(name, { offerId: offer, image: edited ? "alpine" : "busybox" });
        },
        ...instancesOnCaseOffer,
        editDisagrees: (emu, id) => {
            const image = emu.model.instances.get(Number(id))?.effective.image;
            return image === "alpine" ? undefined : `the service's instance ${id} runs ${image}`;
        },
    },
    {
        type: "SshKey",
        // The comment names the case; the key body changes with an edit, which replaces the key.
        program: (_emu, name, edited) => () =>
            new SshKey(name, { publicKey: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${Buffer.from(name).toString("base64").replace(/=/g, "")}${edited ? "Ed" : ""} ${name}` }),
        liveIds: (emu, name) =>
            [...emu.model.sshKeys.values()].filter((k) => k.userId === demo(emu) && k.publicKey.endsWith(` ${name}`)).map((k) => String(k.id)),
        purge: (emu, name) => {
            for (const k of emu.model.sshKeys.values()) if (k.publicKey.endsWith(` ${name}`)) emu.model.sshKeys.delete(k.id);
        },
    },
    {
        type: "ApiKey",
        program: (_emu, name, edited) => () =>
            new ApiKey(name, { name, permissions: edited ? apiKeyPermissions("user_read", "instance_read") : apiKeyPermissions("user_read") }),
        liveIds: (emu, name) =>
            [...emu.model.keys.values()].filter((k) => k.name === name && !k.revokedStatus && k.userId === demo(emu)).map((k) => String(k.id)),
        purge: (emu, name) => {
            for (const k of emu.model.keys.values()) if (k.name === name) k.revokedStatus = 401;
        },
    },
    {
        // On the case's own volume offer. An update is a replacement (no call changes a volume), a
        // create and a delete of the calls below, so it is left out: the suite's time is the CI's.
        type: "Volume",
        operations: ["create", "refresh", "delete"],
        program: (emu, name, edited) => {
            const offerId = volumeOfferFor(emu, name);
            return () => new Volume(name, { offerId, sizeGb: edited ? 11 : 10, name: volumeName(name) });
        },
        liveIds: (emu, name) => emu.liveVolumes().filter((v) => v.name === volumeName(name)).map((v) => String(v.id)),
        purge: (emu, name) => {
            for (const v of emu.model.volumes.values()) if (v.name === volumeName(name)) v.deleted = true;
        },
    },
    {
        // In a storage cluster of the case's own. The code is the Volume's but for the create's and
        // the search's routes, so its create alone is spoiled here: the rest is the Volume's above.
        type: "NetworkVolume",
        operations: ["create"],
        program: (emu, name, edited) => {
            const offerId = volumeOfferFor(emu, name, true);
            return () => new NetworkVolume(name, { offerId, sizeGb: edited ? 11 : 10, name: volumeName(name) });
        },
        liveIds: (emu, name) => emu.liveVolumes().filter((v) => v.name === volumeName(name)).map((v) => String(v.id)),
        purge: (emu, name) => {
            for (const v of emu.model.volumes.values()) if (v.name === volumeName(name)) v.deleted = true;
        },
    },
];

/** A case's volume name: its name as the service takes one (letters, digits, underscores). */
const volumeName = (name: string) => name.replace(/[^A-Za-z0-9_]/g, "_");

const volumeOffers = new Map<string, number>();
/** The case's own volume offer, made at its first use. */
function volumeOfferFor(emu: Emulator, name: string, network = false): number {
    let id = volumeOffers.get(name);
    if (id === undefined) volumeOffers.set(name, (id = emu.addVolumeOffer({ diskSpace: 100, network }).id));
    return id;
}

/** An instance's label in state and on the service. */
function labelDisagrees(emu: Emulator, id: string, outputs: Record<string, unknown>): string | undefined {
    const label = emu.instanceView(Number(id))?.label;
    return label === outputs.label ? undefined : `state says label ${JSON.stringify(outputs.label)}, the service ${JSON.stringify(label)}`;
}

/** Failed: the label state holds is the service's, or state says it is unsure (labelUnconfirmed). */
function labelMisreported(emu: Emulator, id: string, outputs: Record<string, unknown>): string | undefined {
    return outputs.labelUnconfirmed === true ? undefined : labelDisagrees(emu, id, outputs);
}

/** One offer per case, so a case's instances are told apart by their offer. */
const offers = new Map<string, number>();
function offerFor(emu: Emulator, name: string, listing?: Partial<OfferListing>): number {
    let id = offers.get(name);
    if (id === undefined) offers.set(name, (id = emu.addOffer(undefined, undefined, undefined, listing).id));
    return id;
}

/**
 * Runs `operation` on the case's resource (made first, without faults, unless it is a create),
 * with `c`'s faults. Says whether it succeeded and which id state held when the faults began.
 */
async function operate(stack: TestStack, r: ResourceUnderTest, name: string, operation: Operation, c?: FaultCase): Promise<{ ok: boolean; before?: string }> {
    const { emu, engine } = stack;
    // The resource first, without faults. On a loaded machine even this may meet a timeout, which
    // the provider survives like any fault; the case then runs on whatever state that left.
    if (operation !== "create") await engine.up(r.program(emu, name, false)).catch(() => undefined);
    const before = [...engine.state.values()].find((e) => e.name === name)?.id;
    emu.clearLog();
    if (c) emu.faults.script(scriptOf(c));
    try {
        if (operation === "create") await engine.up(r.program(emu, name, false));
        else if (operation === "refresh") await engine.refresh();
        else if (operation === "update") await engine.up(r.program(emu, name, true));
        else await engine.destroy();
        return { ok: true, before };
    } catch {
        return { ok: false, before };
    }
}

/** Requests each operation makes when nothing fails, and where its create call is. */
async function measure(stack: TestStack, r: ResourceUnderTest): Promise<Record<Operation, { calls: number; createAt?: number }>> {
    const measured = {} as Record<Operation, { calls: number; createAt?: number }>;
    for (const operation of r.operations ?? OPERATIONS) {
        const name = `measure-${r.type.replace(/\W+/g, "")}-${operation}`.toLowerCase();
        const { ok } = await operate(stack, r, name, operation);
        const log = stack.emu.requests;
        const create = log.findIndex((q) => q.method !== "GET" && q.method !== "DELETE" && q.route?.endsWith("create"));
        measured[operation] = { calls: log.length, createAt: create >= 0 ? create + 1 : undefined };
        // The audit can only judge what it can see: a clean create must show exactly the one thing state holds.
        if (operation === "create" && ok) {
            const held = [...stack.engine.state.values()].filter((e) => e.name === name).map((e) => e.id);
            expect({ type: r.type, live: r.liveIds(stack.emu, name) }).toEqual({ type: r.type, live: held });
            expect(held).toHaveLength(1);
        }
        await stack.engine.destroy();
    }
    return measured;
}

async function cleanUp(stack: TestStack): Promise<void> {
    for (let attempt = 1; ; attempt++) {
        try {
            await stack.engine.destroy();
            return;
        } catch (e) {
            if (attempt >= 3) throw e;
        }
    }
}

async function runSuite(r: ResourceUnderTest): Promise<Audit & { cases: number }> {
    const stack = await startStack({
        emulator: { rateLimitScale: SUITE_TIME_SCALE, instanceTimings: { loadingAfterMs: 10, runningAfterMs: 30 }, offerReturnAfterMs: 20 },
        host: { env: { VASTAI_TIME_SCALE: String(SUITE_TIME_SCALE) } },
    });
    const audit = emptyAudit();
    let cases = 0;
    try {
        const measured = await measure(stack, r);
        for (const operation of r.operations ?? OPERATIONS) {
            const { calls, createAt } = measured[operation];
            for (const c of casesFor(operation, calls, createAt)) {
                const name = `${r.type.replace(/\W+/g, "")}-${++cases}`.toLowerCase();
                const { ok, before } = await operate(stack, r, name, operation, c);
                audit.fired += stack.emu.faults.scriptFired;
                stack.emu.faults.clear();
                if (!ok) audit.failed++;
                auditCase(audit, r, stack.emu, stack.engine, name, before, c.label);
                if (operation === "update") auditEdit(audit, r, stack.emu, stack.engine, name, c.label, ok);
                // Clean up without faults (a few tries, for a loaded machine): the next case starts from an empty stack.
                await cleanUp(stack).catch((e) => audit.problems.push(`${r.type} ${c.label}: destroy afterwards failed: ${e.message}`));
                r.purge(stack.emu, name);
                stack.engine.state.clear();
                stack.engine.pendingDeletes.length = 0;
            }
        }
    } finally {
        await stack.stop();
    }
    return { ...audit, cases };
}

describe("money safety: every call of every operation, spoiled once and twice, and each call of an update on every try", () => {
    it("leaves nothing leaked, duplicated or dropped", async () => {
        const started = Date.now();
        // MONEY_SAFETY_ONLY=Volume runs one kind, for work on it; the suite runs them all.
        const only = process.env.MONEY_SAFETY_ONLY;
        const kinds = only ? RESOURCES.filter((r) => r.type === only) : RESOURCES;
        const results = await Promise.all(kinds.map(runSuite));
        const total = results.reduce(
            (sum, a) => ({
                cases: sum.cases + a.cases,
                fired: sum.fired + a.fired,
                failed: sum.failed + a.failed,
                leaked: sum.leaked + a.leaked,
                duplicated: sum.duplicated + a.duplicated,
                dropped: sum.dropped + a.dropped,
                disagreed: sum.disagreed + a.disagreed,
                misreported: sum.misreported + a.misreported,
            }),
            { cases: 0, fired: 0, failed: 0, leaked: 0, duplicated: 0, dropped: 0, disagreed: 0, misreported: 0 },
        );
        const problems = results.flatMap((a) => a.problems);
        process.stdout.write(
            `money safety: ${total.cases} cases, ${total.fired} faults fired, ${total.failed} operations failed and were left safe; ` +
                `leaked ${total.leaked}, duplicated ${total.duplicated}, dropped ${total.dropped}; ` +
                `edits that succeeded but disagree with the service ${total.disagreed}, failed edits that state misreports ${total.misreported} ` +
                `(${kinds.map((r, i) => `${r.type} ${results[i].cases}`).join(", ")}; ${Math.round((Date.now() - started) / 1000)} s)\n`,
        );
        expect(problems).toEqual([]);
        expect(total).toMatchObject({ leaked: 0, duplicated: 0, dropped: 0, disagreed: 0, misreported: 0 });
        if (!only) expect(total.cases).toBeGreaterThanOrEqual(300);
    }, 600_000);
});
