import * as fs from "fs";
import * as path from "path";
import Ajv2020 from "ajv/dist/2020";
import { offerSearchSchema } from "../../provider/client/api/offers";
import { volumeOfferSearchSchema } from "../../provider/client/api/volumes";
import { DEFAULT_BASE_URL } from "../../provider/config/providerConfig";
import { PropertySchema, declarationsOf, defaultsOf } from "../../provider/dynamic/properties";
import { ResourceKind } from "../../provider/dynamic/shim";
import { FUNCTION_NAMES, RESOURCE_KINDS, functionToken, pluginTypeToken } from "../../provider/dynamic/typeTokens";
import { getMachinesArgsSchema } from "../../provider/functions/getMachines";
import { API_KEY_COMPUTED_OUTPUTS, apiKeyArgsSchema } from "../../provider/resources/apiKey/apiKeyArgs";
import { INSTANCE_COMPUTED_OUTPUTS, instanceArgsSchema } from "../../provider/resources/instance/instanceArgs";
import { SSH_KEY_COMPUTED_OUTPUTS, sshKeyArgsSchema } from "../../provider/resources/sshKey/sshKeyArgs";
import { TEMPLATE_COMPUTED_OUTPUTS, templateArgsSchema } from "../../provider/resources/template/templateArgs";
import { VOLUME_COMPUTED_OUTPUTS, volumeArgsSchema } from "../../provider/resources/volume/volumeArgs";
import { ENDPOINT_COMPUTED_OUTPUTS, endpointArgsSchema } from "../../provider/resources/endpoint/endpointArgs";
import { WORKER_GROUP_COMPUTED_OUTPUTS, workerGroupArgsSchema } from "../../provider/resources/workerGroup/workerGroupArgs";
import { offerFiltersSchema } from "../../provider/schemas/offer";
import { currentUserSchema } from "../../provider/schemas/user";
import { membersOf, parse } from "../../scripts/docComments";
import { SCHEMA_FILE, WHOLE_NUMBERS, packageSchema, packageSchemaText } from "../../scripts/packageSchema";
import { ReadFile, readRepoFile, unwrap } from "../../scripts/referenceDocs";
import { REPO_ROOT } from "../../testkit/repoRoot";

/**
 * schema.json, the provider plugin's package schema (every SDK is generated from it), is generated
 * from the resources' declarations (`npm run schema`). Generated again here, it must be the committed
 * file, a package schema by Pulumi's own metaschema, and say of every property what its declaration says.
 */
const FIX = "Run `npm run schema` to regenerate schema.json, and commit it.";

// Pulumi's package metaschema: pulumi/pulumi pkg/codegen/schema/pulumi.json (Apache-2.0), as of
// commit bd47908e0d1d, copied as it is. Replace it with a newer copy when Pulumi changes it.
const METASCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test", "fixtures", "pulumi-package-metaschema.json"), "utf8"));

type Spec = Record<string, any>;
const schema = packageSchema() as Spec;
const manifest = JSON.parse(readRepoFile("package.json"));

const RESOURCES: Record<ResourceKind, { schema: PropertySchema; computed: Readonly<Record<string, { secret?: boolean }>>; outputs: string; file: string }> = {
    template: { schema: templateArgsSchema, computed: TEMPLATE_COMPUTED_OUTPUTS, outputs: "TemplateOutputs", file: "provider/resources/template/templateArgs.ts" },
    instance: { schema: instanceArgsSchema, computed: INSTANCE_COMPUTED_OUTPUTS, outputs: "InstanceOutputs", file: "provider/resources/instance/instanceArgs.ts" },
    apiKey: { schema: apiKeyArgsSchema, computed: API_KEY_COMPUTED_OUTPUTS, outputs: "ApiKeyOutputs", file: "provider/resources/apiKey/apiKeyArgs.ts" },
    sshKey: { schema: sshKeyArgsSchema, computed: SSH_KEY_COMPUTED_OUTPUTS, outputs: "SshKeyOutputs", file: "provider/resources/sshKey/sshKeyArgs.ts" },
    volume: { schema: volumeArgsSchema, computed: VOLUME_COMPUTED_OUTPUTS, outputs: "VolumeOutputs", file: "provider/resources/volume/volumeArgs.ts" },
    networkVolume: { schema: volumeArgsSchema, computed: VOLUME_COMPUTED_OUTPUTS, outputs: "VolumeOutputs", file: "provider/resources/volume/volumeArgs.ts" },
    endpoint: { schema: endpointArgsSchema, computed: ENDPOINT_COMPUTED_OUTPUTS, outputs: "EndpointOutputs", file: "provider/resources/endpoint/endpointArgs.ts" },
    workerGroup: { schema: workerGroupArgsSchema, computed: WORKER_GROUP_COMPUTED_OUTPUTS, outputs: "WorkerGroupOutputs", file: "provider/resources/workerGroup/workerGroupArgs.ts" },
};

/** A property's kind as the schema says it: a primitive, `array`, `map`, `object` (a named type), `union` or `any`. */
function specKind(spec: Spec): string {
    if (spec.oneOf) return "union";
    if (spec.$ref) return spec.$ref === "pulumi.json#/Any" ? "any" : "object";
    if (spec.type === "object") return "map";
    return spec.type;
}

/** The same kind, as a zod schema says it. */
/** Search conditions: a zod object checked per field, and to an SDK a map of maps (scripts/schemaTypes.ts). */
const CONDITIONS_DEF = unwrap(offerFiltersSchema).inner;

function zodKind(property: unknown): string {
    const def = unwrap(property).inner;
    if (def === CONDITIONS_DEF) return "map";
    const kinds: Record<string, string> = { string: "string", enum: "string", boolean: "boolean", array: "array", record: "map", object: "object", union: "union" };
    if (def.type === "number") return (def.checks ?? []).some((c) => /int/.test(c._zod.def.format ?? "")) ? "integer" : "number";
    return kinds[def.type] ?? "any";
}

/** The same kind, as a TypeScript type (an output's) says it; `whole` when it is listed as a whole number. */
function tsKind(type: string, whole: boolean): string {
    if (type === "number") return whole ? "integer" : "number";
    if (/^(string|boolean)$/.test(type)) return type;
    if (/\[\]$/.test(type)) return "array";
    if (/^(Record<string, .+>|EnvMap)$/.test(type)) return "map";
    if (/^\{/.test(type)) return "object";
    return "string"; // an alias of string literals (InstanceAccess)
}

/** Every value under a key named `key`, anywhere in `value`. */
function valuesOf(value: unknown, key: string): unknown[] {
    if (Array.isArray(value)) return value.flatMap((v) => valuesOf(v, key));
    if (value === null || typeof value !== "object") return [];
    return Object.entries(value).flatMap(([k, v]) => (k === key ? [v, ...valuesOf(v, key)] : valuesOf(v, key)));
}

describe("schema.json", () => {
    it("is what the declarations generate", () => {
        const generated = packageSchemaText();
        const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, "utf8") : undefined;
        if (committed === undefined) throw new Error(`schema.json is missing. ${FIX}`);
        if (committed !== generated) {
            const lines = generated.split("\n");
            const old = committed.split("\n");
            const at = lines.findIndex((line, i) => line !== old[i]);
            throw new Error(`schema.json differs from its declarations, first at line ${at + 1}:\n  generated: ${lines[at]}\n  committed: ${old[at]}\n\n${FIX}`);
        }
    });

    it("a changed doc comment changes it (the check bites)", () => {
        const file = "provider/resources/template/templateArgs.ts";
        const altered: ReadFile = (repoPath) =>
            repoPath === file ? readRepoFile(repoPath).replace("/** Container image path, without the tag. */", "/** The image, without its tag. */") : readRepoFile(repoPath);
        expect(altered(file)).not.toBe(readRepoFile(file));
        const image = (packageSchema(altered) as Spec).resources[pluginTypeToken("template")].inputProperties.image;
        expect(image.description).toBe("The image, without its tag.");
    });

    it("is a package schema by Pulumi's metaschema", () => {
        // strict off: the metaschema has a keyword ajv does not know ("desciption", sic). Its two formats
        // are checked as far as they matter here: a regex compiles; a $ref is checked below, by what it names.
        const ajv = new Ajv2020({ strict: false, allErrors: true, formats: { regex: (text: string) => isRegex(text), "uri-reference": true } });
        const validate = ajv.compile(METASCHEMA);
        expect(validate(schema) ? [] : validate.errors).toEqual([]);
        // And it bites: a type Pulumi does not have fails.
        const broken = JSON.parse(JSON.stringify(schema));
        broken.resources[pluginTypeToken("sshKey")].inputProperties.publicKey.type = "text";
        expect(validate(broken)).toBe(false);
    });

    it("has package.json's version, and its name is the plugin's", () => {
        expect(schema.version).toBe(manifest.version);
        expect(schema.name).toBe("vastai");
        expect(schema.language.python.packageName).toBe("pulumi_vastai");
    });

    it("the provider's settings: apiKey secret, baseUrl with its default; the same as stack config", () => {
        expect(schema.provider.inputProperties).toEqual(schema.config.variables);
        expect(schema.config.variables.apiKey).toMatchObject({ type: "string", secret: true, description: expect.stringContaining("VAST_API_KEY") });
        expect(schema.config.variables.apiKey.defaultInfo).toBeUndefined(); // an SDK would put the variable's key into an explicit provider's state
        expect(schema.config.variables.baseUrl).toMatchObject({ type: "string", default: DEFAULT_BASE_URL, defaultInfo: { environment: ["VAST_URL"] } });
        expect(schema.provider.description).toContain("HTTPS_PROXY");
    });

    it.each(RESOURCE_KINDS)("%s: each declared property and computed output, with its type, secrecy, default and replacement", (kind) => {
        const { schema: args, computed, outputs, file } = RESOURCES[kind];
        const resource = schema.resources[pluginTypeToken(kind)];
        const declarations = declarationsOf(args);
        expect(Object.keys(resource.inputProperties)).toEqual(declarations.map((d) => d.name));
        expect(Object.keys(resource.properties)).toEqual([...declarations.map((d) => d.name), ...Object.keys(computed)]);
        const defaults: Record<string, unknown> = defaultsOf(args);
        for (const d of declarations) {
            const input = resource.inputProperties[d.name];
            const output = resource.properties[d.name];
            const facts = (spec: Spec) => ({ property: d.name, kind: specKind(spec), secret: spec.secret === true, replaces: spec.willReplaceOnChanges === true });
            const declared = { property: d.name, kind: zodKind(args.shape[d.name]), secret: d.secret === true, replaces: d.onChange === "replace" };
            expect(facts(input)).toEqual(declared);
            // In outputs env is the canonical map that check makes of a flag string.
            expect(facts(output)).toEqual(d.name === "env" ? { ...declared, kind: "map" } : declared);
            expect({ property: d.name, default: input.default }).toEqual({ property: d.name, default: defaults[d.name] });
        }
        // Required: what the schema refuses to leave out (a superRefine's one-of stays optional).
        const required = declarations.filter((d) => !args.shape[d.name].safeParse(undefined).success).map((d) => d.name);
        expect(resource.requiredInputs ?? []).toEqual(required);
        const members = membersOf(parse(file, readRepoFile(file)), outputs);
        for (const [name, declared] of Object.entries(computed)) {
            const member = members.get(name)!;
            const spec = resource.properties[name];
            const whole = (WHOLE_NUMBERS[outputs] ?? []).includes(name);
            expect({ output: name, kind: specKind(spec), secret: spec.secret === true }).toEqual({ output: name, kind: tsKind(member.type!, whole), secret: declared.secret === true });
            expect({ output: name, required: resource.required.includes(name) }).toEqual({ output: name, required: !member.optional });
        }
    });

    it("no property makes the engine replace on its change: the provider's diff decides (willReplaceOnChanges documents it)", () => {
        expect(valuesOf(schema, "replaceOnChanges")).toEqual([]);
    });

    it("the whole numbers it lists are numbers TypeScript declares", () => {
        const sources: Record<string, string> = { ...Object.fromEntries(Object.values(RESOURCES).map((r) => [r.outputs, r.file])), Machine: "provider/functions/machine.ts" };
        for (const [declaredAs, names] of Object.entries(WHOLE_NUMBERS)) {
            const members = membersOf(parse(sources[declaredAs], readRepoFile(sources[declaredAs])), declaredAs);
            const typeOf = (name: string) => members.get(name)?.type ?? [...members.values()].find((m) => m.type?.includes(`${name}:`))?.type;
            for (const name of names) expect({ declaredAs, name, type: typeOf(name) }).toEqual({ declaredAs, name, type: expect.stringMatching(/\bnumber\b/) });
        }
    });

    it("the functions take and return what the plugin answers with", () => {
        const fn = (name: (typeof FUNCTION_NAMES)[number]) => schema.functions[functionToken(name)];
        expect(Object.keys(schema.functions)).toEqual(FUNCTION_NAMES.map(functionToken));
        const list = (name: string, type: string) => ({ type: "object", properties: { [name]: expect.objectContaining({ type: "array", items: { $ref: `#/types/vastai:index:${type}` } }) }, required: [name] });
        expect(Object.keys(fn("searchOffers").inputs.properties)).toEqual(Object.keys(offerSearchSchema.shape));
        expect(fn("searchOffers").outputs).toEqual(list("offers", "Offer"));
        expect(Object.keys(fn("searchVolumeOffers").inputs.properties)).toEqual(Object.keys(volumeOfferSearchSchema.shape));
        expect(fn("searchVolumeOffers").outputs).toEqual(list("offers", "VolumeOffer"));
        expect(Object.keys(fn("searchTemplates").inputs.properties)).toEqual(["filters"]);
        expect(fn("searchTemplates").outputs).toEqual(list("templates", "TemplateRecord"));
        expect(fn("getMachines").inputs.properties).toEqual({ userId: expect.objectContaining({ type: "integer" }) });
        expect(Object.keys(fn("getMachines").inputs.properties)).toEqual(Object.keys(getMachinesArgsSchema.shape));
        expect(fn("getMachines").outputs).toEqual(list("machines", "Machine"));
        expect(fn("getCurrentUser").inputs).toBeUndefined();
        expect(Object.keys(fn("getCurrentUser").outputs.properties)).toEqual(Object.keys(currentUserSchema.shape));
        expect(valuesOf(schema, "api_key")).toEqual([]);
        // Filters are maps of field to a map of operator to value: typed per field only by the provider.
        const conditions = { type: "object", additionalProperties: { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } } };
        for (const name of ["searchOffers", "searchVolumeOffers", "searchTemplates"] as const) expect(fn(name).inputs.properties.filters).toMatchObject(conditions);
        expect(fn("searchOffers").inputs.properties.order).toMatchObject({ type: "array", items: { type: "array", items: { type: "string" } } });
        // A field the record drops while parsing is no output.
        expect(schema.types["vastai:index:TemplateRecord"].properties.docker_login_pass).toBeUndefined();
    });

    it("every $ref names a type it defines, or Pulumi's Any; every type it defines is used", () => {
        const refs = valuesOf(schema, "$ref") as string[];
        const tokens = Object.keys(schema.types);
        for (const ref of refs) expect({ ref, known: ref === "pulumi.json#/Any" || tokens.includes(ref.replace(/^#\/types\//, "")) }).toEqual({ ref, known: true });
        for (const token of tokens) expect({ token, used: refs.includes(`#/types/${token}`) }).toEqual({ token, used: true });
    });

    it("describes everything, and its links into the repository lead to files", () => {
        const described = (owner: string, properties: Record<string, Spec>) =>
            Object.entries(properties).forEach(([name, spec]) => expect({ owner, name, description: spec.description }).toEqual({ owner, name, description: expect.stringMatching(/\S/) }));
        for (const [token, resource] of Object.entries<Spec>(schema.resources)) {
            expect(resource.description).toMatch(/\S/);
            described(token, resource.inputProperties);
            described(token, resource.properties);
        }
        for (const [token, fn] of Object.entries<Spec>(schema.functions)) {
            expect(fn.description).toMatch(/\S/);
            described(token, fn.inputs?.properties ?? {});
            described(token, fn.outputs.properties);
        }
        for (const [token, type] of Object.entries<Spec>(schema.types)) described(token, type.properties);
        described("config", schema.config.variables);
        const prefix = `${manifest.repository.url}/blob/main/`;
        const linked = [...JSON.stringify(schema).matchAll(/\]\((https:[^)\s]+)\)/g)].map((m) => m[1]).filter((url) => url.startsWith(prefix));
        expect(linked.length).toBeGreaterThan(0);
        for (const url of linked) expect({ url, exists: fs.existsSync(path.join(REPO_ROOT, url.slice(prefix.length).split("#")[0])) }).toEqual({ url, exists: true });
    });
});

function isRegex(text: string): boolean {
    try {
        new RegExp(text);
        return true;
    } catch {
        return false;
    }
}
