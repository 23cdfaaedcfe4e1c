// Writes schema.json (`npm run schema`, and `npm run docs`): the provider plugin's package schema,
// from which every language's SDK and the registry's pages are generated. Built from what the
// reference pages are built from (referenceDocs.ts): each resource's `prop()` declarations, its
// computed outputs and their doc comments, and the functions' argument and record schemas; their
// types are made in schemaTypes.ts.
import * as fs from "fs";
import * as path from "path";
import { CONFIG_KEYS, DEFAULT_BASE_URL, ENV_VARS } from "../provider/config/providerConfig";
import { declarationsOf } from "../provider/dynamic/properties";
import { ResourceKind } from "../provider/dynamic/shim";
import { FUNCTION_NAMES, FunctionName, PACKAGE_NAME, RESOURCE_KINDS, TYPE_NAMES, functionToken, pluginTypeToken } from "../provider/dynamic/typeTokens";
import { REPO_ROOT } from "../testkit/repoRoot";
import { classDoc, functionDoc, interfaceDoc, parse, variableDoc } from "./docComments";
import { DocSource, FieldList, FunctionPage, PAGES, ReadFile, ResourcePage, fieldDocsOf, memberDocs, readRepoFile, unwrap } from "./referenceDocs";
import { CONDITIONS, ENV_INPUT, MAP_OF_STRING, ObjectTypeSpec, PropertySpec, SchemaBuilder, code, conditionsNote, describe, pascal, tsDescribe, typeNameOf } from "./schemaTypes";

/** Where each resource's page (its declarations) and class (its doc comment) are. */
const RESOURCE_SOURCES: Record<ResourceKind, { readonly page: string; readonly classFile: string }> = {
    template: { page: "resources/template.md", classFile: "provider/resources/template/template.ts" },
    instance: { page: "resources/instance.md", classFile: "provider/resources/instance/instance.ts" },
    apiKey: { page: "resources/api-key.md", classFile: "provider/resources/apiKey/apiKey.ts" },
    sshKey: { page: "resources/ssh-key.md", classFile: "provider/resources/sshKey/sshKey.ts" },
    volume: { page: "resources/volume.md", classFile: "provider/resources/volume/volume.ts" },
    networkVolume: { page: "resources/network-volume.md", classFile: "provider/resources/volume/networkVolume.ts" },
    endpoint: { page: "resources/endpoint.md", classFile: "provider/resources/endpoint/endpoint.ts" },
    workerGroup: { page: "resources/worker-group.md", classFile: "provider/resources/workerGroup/workerGroup.ts" },
};

/** What each function returns through the plugin: a list of records under one name, or (none given) the record's fields. */
const FUNCTION_RESULTS: Record<FunctionName, { readonly list?: { readonly name: string; readonly description: string }; readonly type: string; readonly subject: string }> = {
    searchOffers: { list: { name: "offers", description: "The offers that match, in the search's order." }, type: "Offer", subject: "the offer" },
    searchVolumeOffers: { list: { name: "offers", description: "The volume offers that match, in the search's order." }, type: "VolumeOffer", subject: "the volume offer" },
    searchTemplates: { list: { name: "templates", description: "The templates that match." }, type: "TemplateRecord", subject: "the template" },
    getMachines: { list: { name: "machines", description: "The account's machines." }, type: "Machine", subject: "the machine" },
    getCurrentUser: { type: "CurrentUser", subject: "the account" },
};

/** searchTemplates takes its conditions as its argument; through the plugin they are its one input, `filters`. */
const TEMPLATE_FILTERS_ABOUT = "Conditions on template fields, all of which must hold.";

/**
 * Whole numbers that TypeScript calls `number` (ids, counts, ports), by the interface that declares
 * them; a nested member (`unfinishedCreate.failedMachineIds`) by its own name.
 */
export const WHOLE_NUMBERS: Readonly<Record<string, readonly string[]>> = {
    TemplateOutputs: ["templateId", "creatorId"],
    InstanceOutputs: ["instanceId", "sshPort", "ports", "machineId", "rentedOfferId", "numGpus", "accountId", "failedMachineIds"],
    ApiKeyOutputs: ["keyId", "accountId"],
    SshKeyOutputs: ["sshKeyId", "accountId"],
    VolumeOutputs: ["volumeId", "machineId", "clusterId", "rentedOfferId"],
    EndpointOutputs: ["endpointId", "accountId"],
    WorkerGroupOutputs: ["workerGroupId", "instanceId"],
    Machine: ["id", "machineId", "numGpus", "cpuCores", "currentRentalsRunning", "currentRentalsResident", "hostingType"],
};

/** The package's facts that package.json states. */
function manifest(read: ReadFile): { version: string; license: string; repository: string; keywords: string[] } {
    const json = JSON.parse(read("package.json"));
    return { version: json.version, license: json.license, repository: json.repository.url.replace(/\.git$/, ""), keywords: json.keywords };
}

function resourceSpec(builder: SchemaBuilder, read: ReadFile, kind: ResourceKind) {
    const sources = RESOURCE_SOURCES[kind];
    const page = PAGES.find((p): p is ResourcePage => p.kind === "resource" && p.page === sources.page);
    if (!page) throw new Error(`no reference page ${sources.page} in PAGES`);
    const name = TYPE_NAMES[kind];
    const docs = memberDocs(read, page.args);
    const inputProperties: Record<string, PropertySpec> = {};
    const properties: Record<string, PropertySpec> = {};
    const requiredInputs: string[] = [];
    for (const d of declarationsOf(page.schema)) {
        const schema = page.schema.shape[d.name];
        const member = docs.get(d.name);
        const u = unwrap(schema);
        const primitiveDefault = ["string", "number", "boolean"].includes(typeof u.defaultValue) ? (u.defaultValue as string | number | boolean) : undefined;
        const type = d.name === "env" ? ENV_INPUT : builder.zodType(schema, typeNameOf(name, d.name), fieldDocsOf(read, page, d.name, member), code(d.name));
        const facts = {
            description: describe(builder.described(member, `${page.args.file}: ${d.name}`), schema),
            ...(d.secret ? { secret: true as const } : {}),
            // Documented, not enforced: the provider's diff says what replaces. `replaceOnChanges` would have the
            // engine replace on any change of it, where the diff knows better (an offer pinned to the one rented, `adopt` removed).
            ...(d.onChange === "replace" ? { willReplaceOnChanges: true as const } : {}),
        };
        inputProperties[d.name] = { ...type, ...facts, ...(primitiveDefault !== undefined ? { default: primitiveDefault } : {}) };
        properties[d.name] = { ...(d.name === "env" ? MAP_OF_STRING : type), ...facts };
        if (!u.optional && !u.hasDefault) requiredInputs.push(d.name);
    }
    const outputs = memberDocs(read, { file: page.args.file, declaredAs: page.outputs });
    const required = [...requiredInputs];
    for (const [output, declared] of Object.entries(page.computed)) {
        const member = outputs.get(output);
        const where = `${page.args.file}: ${page.outputs}.${output}`;
        if (!member?.type) throw new Error(`${where}: no such member with a type`);
        const type = builder.tsType(member.type, typeNameOf(name, output), WHOLE_NUMBERS[page.outputs] ?? [], output);
        properties[output] = { ...type, description: tsDescribe(builder.described(member, where), member.type), ...(declared.secret ? { secret: true as const } : {}) };
        if (!member.optional) required.push(output);
    }
    const description = builder.prose(classDoc(parse(sources.classFile, read(sources.classFile)), name));
    return { description, properties, required, inputProperties, ...(requiredInputs.length ? { requiredInputs } : {}) };
}

/** The doc comment of what documents a record: its schema, or its interface. */
function recordDoc(read: ReadFile, source: DocSource, builder: SchemaBuilder): string {
    const file = parse(source.file, read(source.file));
    const hasSchema = /Schema$/.test(source.declaredAs);
    return builder.prose(hasSchema ? variableDoc(file, source.declaredAs) : interfaceDoc(file, source.declaredAs));
}

/** A list of fields (a search's, a record's) as an object type: from its schema, or from its interface's TypeScript types. */
function fieldsObject(builder: SchemaBuilder, read: ReadFile, fields: FieldList, typeName: string, subject: string, description?: string): ObjectTypeSpec {
    const docs = memberDocs(read, fields.docs);
    if (fields.schema) return builder.zodObject(fields.schema.shape, typeName, docs, subject, description);
    return builder.tsObject(docs, WHOLE_NUMBERS[fields.docs.declaredAs] ?? [], typeName, subject, description);
}

function functionSpec(builder: SchemaBuilder, read: ReadFile, name: FunctionName) {
    const page = PAGES.find((p): p is FunctionPage => p.kind === "function" && p.functions[0] === name);
    if (!page) throw new Error(`no reference page for ${name} in PAGES`);
    const result = FUNCTION_RESULTS[name];
    const parameter = page.parameters.find((p) => p.name !== "options");
    let inputs: ObjectTypeSpec | undefined;
    if (parameter?.fields) inputs = fieldsObject(builder, read, parameter.fields, `${pascal(name)}Args`, code(parameter.name));
    else if (parameter && page.filters) {
        inputs = { type: "object", properties: { [parameter.name]: { ...CONDITIONS, description: `${TEMPLATE_FILTERS_ABOUT} ${conditionsNote(page.filters)}` } } };
    } else if (parameter) throw new Error(`${name}: its parameter ${parameter.name} has no fields to be inputs`);
    // A record listed is a named type, which its doc comment describes; one returned as it is, the function's.
    const record = (description?: string) => fieldsObject(builder, read, page.result, result.type, result.subject, description);
    const outputs: ObjectTypeSpec = result.list
        ? {
              type: "object",
              properties: {
                  [result.list.name]: { type: "array", items: builder.named(result.type, record(recordDoc(read, page.result.docs, builder))), description: result.list.description },
              },
              required: [result.list.name],
          }
        : record();
    const description = builder.prose(functionDoc(parse(page.file, read(page.file)), name));
    return { description, ...(inputs ? { inputs } : {}), outputs };
}

/** The provider's settings: stack config `vastai:*`, or an explicit provider's arguments. */
function settings(): Record<"apiKey" | "baseUrl", PropertySpec> {
    return {
        apiKey: {
            type: "string",
            secret: true,
            // No defaultInfo: an SDK would copy the variable into an explicit provider's inputs, so into state.
            description: `The Vast.ai API key (https://cloud.vast.ai/manage-keys/); set it with \`pulumi config set --secret ${CONFIG_KEYS.apiKey} <key>\`. Without it, the provider reads the \`${ENV_VARS.apiKey}\` environment variable.`,
        },
        baseUrl: {
            type: "string",
            default: DEFAULT_BASE_URL,
            defaultInfo: { environment: [ENV_VARS.baseUrl] },
            description: `The service's URL (\`${CONFIG_KEYS.baseUrl}\`); without it, the \`${ENV_VARS.baseUrl}\` environment variable, then \`${DEFAULT_BASE_URL}\`. Only \`https://\`, or \`http://\` to a loopback address (an emulator), is accepted.`,
        },
    };
}

/** The package schema, as schema.json holds it. */
export function packageSchema(read: ReadFile = readRepoFile): Record<string, unknown> {
    const facts = manifest(read);
    const builder = new SchemaBuilder(facts.repository);
    const resources = Object.fromEntries(RESOURCE_KINDS.map((kind) => [pluginTypeToken(kind), resourceSpec(builder, read, kind)]));
    const functions = Object.fromEntries(FUNCTION_NAMES.map((name) => [functionToken(name), functionSpec(builder, read, name)]));
    const host = facts.repository.replace(/^https:\/\//, "");
    const config = settings();
    return {
        name: PACKAGE_NAME,
        displayName: "Vast.ai",
        version: facts.version,
        description: "Vast.ai's GPU marketplace as code: templates, GPU instances, volumes, API keys and SSH keys, and searches of offers, templates and machines.",
        keywords: [...facts.keywords.filter((k) => k !== "dynamic-provider"), "category/cloud"],
        homepage: facts.repository,
        license: facts.license,
        repository: facts.repository,
        publisher: "pulumi-vastai",
        meta: { moduleFormat: "(.*)" },
        language: {
            csharp: { rootNamespace: "PulumiVastai", packageReferences: { Pulumi: "3.*" }, respectSchemaVersion: true },
            go: { importBasePath: `${host}/sdk/go/${PACKAGE_NAME}`, respectSchemaVersion: true },
            java: { basePackage: "io.github.pulumivastai" },
            nodejs: { packageName: `@pulumi-vastai/${PACKAGE_NAME}`, respectSchemaVersion: true },
            python: { packageName: `pulumi_${PACKAGE_NAME}`, respectSchemaVersion: true },
        },
        config: { variables: config },
        provider: {
            description:
                `The Vast.ai provider: its settings are the stack's config (\`${CONFIG_KEYS.apiKey}\`, \`${CONFIG_KEYS.baseUrl}\`) or an explicit provider's arguments, ` +
                `then the environment (\`${ENV_VARS.apiKey}\`, \`${ENV_VARS.baseUrl}\`). An egress proxy is no setting: the provider reads the \`HTTPS_PROXY\` and \`NO_PROXY\` environment variables.`,
            inputProperties: config,
        },
        types: Object.fromEntries([...builder.types].sort(([a], [b]) => a.localeCompare(b))),
        resources,
        functions,
    };
}

/** schema.json's text: two-space JSON and a final newline. */
export function packageSchemaText(read: ReadFile = readRepoFile): string {
    const text = `${JSON.stringify(packageSchema(read), null, 2)}\n`;
    if (text.includes("§")) throw new Error(`schema.json: a "§" citation reached a description: say it in words, or link the document`);
    return text;
}

export const SCHEMA_FILE = path.join(REPO_ROOT, "schema.json");

if (require.main === module) {
    fs.writeFileSync(SCHEMA_FILE, packageSchemaText());
    console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE) || SCHEMA_FILE}`);
}
