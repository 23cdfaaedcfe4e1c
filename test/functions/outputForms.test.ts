import * as pulumi from "@pulumi/pulumi";
import {
    VastInvalidArgsError,
    getCurrentUser,
    getCurrentUserOutput,
    getMachines,
    getMachinesOutput,
    searchOffers,
    searchOffersOutput,
    searchTemplates,
    searchTemplatesOutput,
    templateFilters,
} from "../../provider";
import { Emulator } from "../../testkit/emulator/server";
import { programEmulator } from "../../testkit/support/programEmulator";

/**
 * What Pulumi would see of an Output: its value, and whether it is known and secret. Awaited
 * together: a failed Output rejects all three, and one left unawaited would end the process.
 */
async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; known: boolean; secret: boolean }> {
    const internal = output as unknown as { promise(): Promise<T>; isKnown: Promise<boolean> };
    const [value, known, secret] = await Promise.all([internal.promise(), internal.isKnown, pulumi.isSecret(output)]);
    return { value, known, secret };
}

/** An Output whose value is not known yet, as a preview gives for another resource's new id. */
function unknownOutput<T>(): pulumi.Output<T> {
    const OutputClass = pulumi.Output as unknown as new (...args: unknown[]) => pulumi.Output<T>;
    return new OutputClass(new Set(), Promise.resolve(undefined), Promise.resolve(false), Promise.resolve(false), Promise.resolve(new Set()));
}

describe("the functions' Output forms against the emulator", () => {
    const program = programEmulator();
    let emu: Emulator;
    beforeAll(() => {
        emu = program.emu;
    });

    it("give what the plain functions give, their arguments Outputs and Promises at any depth", async () => {
        const me = await getCurrentUser();
        const meOutput = getCurrentUserOutput();
        expect(await settle(meOutput)).toEqual({ value: me, known: true, secret: false });

        expect((await settle(getMachinesOutput({ userId: meOutput.id }))).value).toEqual(await getMachines({ userId: me.id }));
        expect((await settle(getMachinesOutput())).value).toEqual(await getMachines());

        const gpu = pulumi.output("RTX 4090");
        const offers = await settle(searchOffersOutput({ filters: { gpu_name: { in: [gpu, Promise.resolve("H100 SXM")] }, num_gpus: pulumi.output({ eq: 1 }) }, limit: pulumi.output(3) }));
        expect(offers.value).toEqual(await searchOffers({ filters: { gpu_name: { in: ["RTX 4090", "H100 SXM"] }, num_gpus: { eq: 1 } }, limit: 3 }));
        expect(offers.value.length).toBeGreaterThan(0);

        const mine = await settle(searchTemplatesOutput({ creator_id: { eq: meOutput.id } }));
        expect(mine.value).toEqual(await searchTemplates({ creator_id: { eq: me.id } }));
        // A builder, whose values are plain, and filters that are one Output as a whole.
        const built = await settle(searchTemplatesOutput(templateFilters().where("recommended").eq(true)));
        expect(built.value).toEqual(await searchTemplates({ recommended: { eq: true } }));
        expect((await settle(searchTemplatesOutput(pulumi.output({ recommended: { eq: true } })))).value).toEqual(built.value);
        // Before: a builder holding an Output failed in structuredClone ("could not be cloned").
        const fromOutput = await settle(searchTemplatesOutput(templateFilters().where("creator_id").eq(meOutput.id as unknown as number)));
        expect(fromOutput.value).toEqual(mine.value);
    });

    it("a secret key is used, and keeps the result secret; a secret in the arguments does too", async () => {
        const reader = emu.createKey({ api: { user_read: {}, machine_read: {}, misc: {} } });
        const apiKey = pulumi.secret(reader.key);
        const lines: string[] = [];

        const me = await settle(getCurrentUserOutput({ apiKey, log: (line) => lines.push(line) }));
        expect(me).toMatchObject({ known: true, secret: true, value: { id: emu.demoUser.id } });
        expect(emu.requests.at(-1)?.keyId).toBe(reader.id);
        expect(lines).toHaveLength(1);

        expect((await settle(getMachinesOutput({}, { apiKey }))).secret).toBe(true);
        expect((await settle(searchOffersOutput({ limit: 1 }, { apiKey }))).secret).toBe(true);
        expect((await settle(searchTemplatesOutput({}, { apiKey, baseUrl: pulumi.output(emu.url) }))).secret).toBe(true);
        expect((await settle(searchTemplatesOutput({ creator_id: { eq: pulumi.secret(emu.demoUser.id) } }))).secret).toBe(true);
        expect((await settle(searchTemplatesOutput({ creator_id: { eq: emu.demoUser.id } }))).secret).toBe(false);
    });

    it("while an input is unknown (a preview), nothing is sent and the result is unknown", async () => {
        const later = unknownOutput<number>();
        expect((await settle(getMachinesOutput({ userId: later }))).known).toBe(false);
        expect((await settle(searchTemplatesOutput({ id: { eq: later } }))).known).toBe(false);
        expect((await settle(getCurrentUserOutput({ apiKey: unknownOutput<string>() }))).known).toBe(false);
        expect(emu.requests).toHaveLength(0);
    });

    it("check what their inputs resolve to as the plain functions do, naming the field; nothing is sent", async () => {
        const negative = await settle(getMachinesOutput({ userId: pulumi.output(-1) })).catch((e) => e);
        expect(negative).toBeInstanceOf(VastInvalidArgsError);
        expect(negative.message).toMatch(/userId: expected a positive integer \(an account id\), got -1/);
        const empty = await settle(searchOffersOutput({ filters: { gpu_name: { in: pulumi.output([] as string[]) } } })).catch((e) => e);
        expect(empty).toBeInstanceOf(VastInvalidArgsError);
        expect(empty.message).toMatch(/filters\.gpu_name\.in: expected at least one value/);
        await expect(settle(searchTemplatesOutput({ creator_id: { eq: pulumi.output(undefined as unknown as number) } }))).rejects.toThrow(
            /creator_id\.eq: expected a number, got undefined/,
        );
        expect(emu.requests).toHaveLength(0);
    });
});
