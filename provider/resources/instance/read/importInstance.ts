import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { containsUnknown } from "../../../dynamic/unknowns";
import { InstanceRecord } from "../../../schemas/instance";
import { INSTANCE_LIMITS } from "../../../schemas/limits";
import { Importer, importedId, notImportable, notOnAccount } from "../../importing";
import { createdBy, keyAccount } from "../../sameAccount";
import { INSTANCE_PROPERTIES, InstanceInputs, InstanceProperty } from "../instanceArgs";
import { CREATE_KEY_ENV, keyOf } from "../common/createKey";
import { createdWithDisagreements, envDisagreements } from "../common/createdWith";
import { holdsInState } from "../common/heldInstances";
import { instanceUnlessGone } from "../common/instanceLookup";
import { accessOf, definedOnly, inputsFromRecord, instanceOutputs, normalizeInputs, reportedByService } from "../common/instanceMapping";
import { lookupTemplate } from "../common/templateLookup";
import { endedWarning, frozenWarning } from "../wait/readiness";

// An instance read by its id alone, as `pulumi import` reads it (docs/design/import.md): its steps
// in order: find it, or fail saying so; refuse one another resource's create is taking; record it.

const ID_IS = "the instance's numeric id; `vastai show instances` lists them";

/** What an import reads back as a program writes it; every other input is the program's, once it agrees with the instance. */
const READ_BACK: readonly InstanceProperty[] = ["adopt", "label", "desiredState"];
const TAKEN = INSTANCE_PROPERTIES.filter((p) => !READ_BACK.includes(p));

export const instanceImporter = (ctx: ProviderContext): Importer => ({
    /** The instance as the account has it, gone only as a refresh believes it (three looks, the service's own words); never an empty success. */
    async read(id, { createSlot }) {
        const instanceId = importedId("Instance", id, ID_IS);
        const vast = ctx.client();
        const account = keyAccount(ctx);
        const record = await instanceUnlessGone(ctx, vast, instanceId, {});
        if (!record) throw notOnAccount("Instance", instanceId, "instance", ID_IS);
        refuseAnotherResourcesCreate(record, createSlot);
        holdsInState(vast.baseUrl, record.id);
        const warning = endedWarning(record.id, record, false) ?? frozenWarning(record.id, record);
        if (warning) ctx.log.warn(warning);
        const inputs = importedInputs(record);
        const access = accessOf(undefined, await templateOf(vast, record));
        // `effectiveEnv` is left out: which part of the env is the program's the record does not say, and a
        // value may be a secret, which `pulumi import` (no program, no secret outputs declared) would store in plain text.
        const reported = { ...definedOnly(reportedByService(record)), ...definedOnly({ access }), ...(await createdBy(ctx, account)) };
        return { id: String(record.id), props: { ...instanceOutputs(inputs, record.id, reported, undefined) }, inputs: { ...inputs }, taken: TAKEN };
    },

    /** What only a new instance would change (image, template, disk, bid or none, an env value), as an adoption refuses it. */
    async disagreements(id, news) {
        const record = await ctx.client().instances.show(Number(id));
        if (!record) return [];
        const known = Object.fromEntries(Object.entries(news).filter(([, value]) => !containsUnknown(value))) as unknown as InstanceInputs;
        return [...createdWithDisagreements(record, known), ...envDisagreements(record, known.env)];
    },
});

/**
 * What the instance shows of its making, as the inputs a program would give (what `pulumi import`
 * writes into the program it generates): `adopt` (it was rented elsewhere), its label and state,
 * its image, template and disk as the service spells them; the rest at their defaults.
 */
function importedInputs(record: InstanceRecord): InstanceInputs {
    const disk = record.disk_space;
    return normalizeInputs(
        definedOnly({
            ...inputsFromRecord(record, {}),
            adopt: record.id,
            label: record.label ? record.label : undefined,
            image: record.image_uuid ?? undefined,
            templateHashId: record.template_hash_id ?? undefined,
            disk: typeof disk === "number" && disk >= INSTANCE_LIMITS.diskMinGb ? disk : undefined,
        }),
    );
}

/** Its template, for the access it gives; none when it has none, or the account cannot see it (a lookup that fails leaves `access` out). */
async function templateOf(vast: VastClient, record: InstanceRecord) {
    if (!record.template_hash_id) return undefined;
    return lookupTemplate(vast, record.template_hash_id).catch(() => undefined);
}

/** One rented by an interrupted create of another resource: that resource's next `up` takes it over, and two states would hold it. */
function refuseAnotherResourcesCreate(record: InstanceRecord, createSlot: string | undefined): void {
    const rentedFor = keyOf(record);
    if (rentedFor === undefined || createSlot === undefined || rentedFor.slot === createSlot) return;
    throw notImportable(
        "Instance",
        record.id,
        `it was rented by a \`pulumi up\` of another resource (or another stack) (${CREATE_KEY_ENV} in its env), whose next \`pulumi up\` ` +
            "takes it over if its state does not hold it: two stacks would hold one instance, and a destroy of either would end it. " +
            "Manage it where it was rented (an alias moves it between resources of one stack), or destroy it there",
    );
}
