import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
    PulumiArgs,
    prop,
    propertiesOf,
    replacedBy,
    resourceArgs,
    secretsOf,
    updatedInPlace,
    wireFieldsOf,
} from "../../provider/dynamic/properties";
import { CanonicalInputs } from "../../provider/resources/canonicalInputs";
import {
    TEMPLATE_COMPUTED_OUTPUTS,
    TEMPLATE_DEFAULTS,
    TEMPLATE_FIELDS,
    TEMPLATE_PROPERTIES,
    templateArgsSchema,
} from "../../provider/resources/template/templateArgs";
import {
    INSTANCE_COMPUTED,
    INSTANCE_DEFAULTS,
    INSTANCE_IN_PLACE_PROPERTIES,
    INSTANCE_PROPERTIES,
    INSTANCE_REPLACE_PROPERTIES,
    InstanceInputs,
    instanceArgsSchema,
} from "../../provider/resources/instance/instanceArgs";
import { toCreateRequest } from "../../provider/resources/instance/common/instanceMapping";
import { API_KEY_COMPUTED, API_KEY_PROPERTIES, apiKeyArgsSchema } from "../../provider/resources/apiKey/apiKeyArgs";

/**
 * Each property is declared once, in its resource's args schema; everything else is derived.
 * Adding a property to a copy of the template schema must show up in every derived list.
 */
const withMadeUp = templateArgsSchema.extend({
    madeUp: prop(z.string().optional(), { wire: "made_up", onChange: "replace", secret: true }),
});

// Type level: the derived types have the new property, with its type (tsc checks this file).
type MadeUpInputs = z.input<typeof withMadeUp>;
const inputs: MadeUpInputs = { name: "n", image: "busybox", madeUp: "a" };
// @ts-expect-error madeUp is a string
const wrongInputs: MadeUpInputs = { name: "n", image: "busybox", madeUp: 1 };
const args: PulumiArgs<MadeUpInputs> = { name: "n", image: "busybox", madeUp: pulumi.output("a") };
// @ts-expect-error madeUp is a string, not a number
const wrongArgs: PulumiArgs<MadeUpInputs> = { name: "n", image: "busybox", madeUp: pulumi.output(1) };
const canonical: CanonicalInputs<typeof withMadeUp> = { ...TEMPLATE_DEFAULTS, name: "n", image: "busybox", madeUp: "a" };
const madeUpField: "made_up" = wireFieldsOf(withMadeUp).madeUp;

describe("one declaration per property", () => {
    it("a property added to the template schema is in every derived list", () => {
        expect(propertiesOf(withMadeUp)).toEqual([...TEMPLATE_PROPERTIES, "madeUp"]);
        expect(replacedBy(withMadeUp)).toEqual([...replacedBy(templateArgsSchema), "madeUp"]);
        expect(updatedInPlace(withMadeUp)).toEqual(updatedInPlace(templateArgsSchema));
        expect(secretsOf(withMadeUp)).toEqual(["dockerLoginPass", "madeUp"]);
        expect(wireFieldsOf(withMadeUp)).toEqual({ ...TEMPLATE_FIELDS, madeUp: "made_up" });
        expect(madeUpField).toBe("made_up");
        // and the schema checks it, as `check` does
        expect(withMadeUp.safeParse(inputs).success).toBe(true);
        expect(withMadeUp.safeParse(wrongInputs).success).toBe(false);
        expect(withMadeUp.parse({ name: "n", image: "busybox" })).toEqual({ ...TEMPLATE_DEFAULTS, name: "n", image: "busybox" });
        expect(canonical.madeUp).toBe("a");
        expect(wrongArgs).toBeDefined();
    });

    it("a secret property is secret in the resource's registration; computed outputs are there, unknown", async () => {
        const { props, opts } = resourceArgs(args, withMadeUp, TEMPLATE_COMPUTED_OUTPUTS, undefined);
        expect(Object.keys(props)).toEqual(expect.arrayContaining(["madeUp", "dockerLoginPass", "templateId", "hashId"]));
        expect(pulumi.Output.isInstance(props.madeUp)).toBe(true);
        expect(await pulumi.isSecret(props.madeUp as pulumi.Output<string>)).toBe(true);
        expect(props.dockerLoginPass).toBeUndefined(); // not given: nothing to wrap
        expect(props.templateId).toBeUndefined();
        expect(opts.additionalSecretOutputs).toBeUndefined();
    });

    it("a property without a declaration is refused when the lists are derived", () => {
        const undeclared = templateArgsSchema.extend({ forgotten: z.string().optional() });
        expect(() => propertiesOf(undeclared)).toThrow(/"forgotten" has no declaration/);
    });

    it("each resource's exported lists are the derivations of its schema", () => {
        expect(TEMPLATE_PROPERTIES).toEqual(propertiesOf(templateArgsSchema));
        expect(TEMPLATE_FIELDS).toEqual(wireFieldsOf(templateArgsSchema));
        expect(TEMPLATE_FIELDS).toMatchObject({ argsStr: "args_str", dockerLoginPass: "docker_login_pass", recommendedDiskSpace: "recommended_disk_space" });
        expect(TEMPLATE_DEFAULTS).toEqual({ tag: "latest", runtype: "args", recommendedDiskSpace: 8, private: true });
        expect(replacedBy(templateArgsSchema)).toEqual(["adopt"]);
        expect(secretsOf(templateArgsSchema)).toEqual(["dockerLoginPass"]);

        expect(INSTANCE_PROPERTIES).toEqual(propertiesOf(instanceArgsSchema));
        expect(INSTANCE_IN_PLACE_PROPERTIES).toEqual(["offer", "label", "desiredState", "price", "imageLogin", "waitForRunning", "readyTimeoutSeconds", "maxCreateAttempts", "checkImage"]);
        expect(INSTANCE_REPLACE_PROPERTIES).toEqual(INSTANCE_PROPERTIES.filter((p) => !INSTANCE_IN_PLACE_PROPERTIES.includes(p)));
        expect(INSTANCE_DEFAULTS).toEqual({ desiredState: "running", waitForRunning: true, readyTimeoutSeconds: 900, maxCreateAttempts: 3 });
        expect(secretsOf(instanceArgsSchema)).toEqual(["imageLogin"]);
        expect(INSTANCE_COMPUTED).toContain("effectiveEnv");

        expect(API_KEY_PROPERTIES).toEqual(["name", "permissions"]);
        expect(replacedBy(apiKeyArgsSchema)).toEqual(API_KEY_PROPERTIES);
        expect(API_KEY_COMPUTED).toEqual(["keyId", "key", "accountId"]);
    });

    it("an instance's create request carries each property under its declared field", () => {
        const inputs: InstanceInputs = {
            offerId: 1,
            image: "busybox",
            env: { MODE: "train" },
            onstart: "echo hi",
            args: ["a"],
            argsStr: "b",
            runtype: "args",
            disk: 16,
            price: 0.5,
            imageLogin: "-u bot -p token ghcr.io",
            volumeInfo: { createNew: false, volumeId: 7, mountPath: "/data" },
            label: "trainer",
            ...INSTANCE_DEFAULTS,
        };
        const fields: Record<string, string> = wireFieldsOf(instanceArgsSchema);
        const sent = (request: object) => Object.keys(request).sort();
        // Every property is a field of the create.
        const without = (...properties: string[]) => Object.entries(fields).filter(([p]) => !properties.includes(p)).map(([, field]) => field).sort();
        expect(sent(toCreateRequest(inputs, undefined).request)).toEqual(without("templateHashId"));
        // With a template, runtype is the template's (the service refuses both).
        expect(sent(toCreateRequest({ ...inputs, templateHashId: "abc" }, undefined).request)).toEqual(without("runtype"));
    });
});
