// Writes the reference pages, docs/resources/*.md and docs/functions/*.md (`npm run docs`): each
// page's hand-written template in scripts/reference/ with its argument and output lists filled in
// from the declarations (the `prop()` schemas, their doc comments) and its examples from examples/snippets/.
import * as fs from "fs";
import * as path from "path";
import { ComputedDeclaration, PropertySchema, declarationsOf } from "../provider/dynamic/properties";
import { ERROR_CODES, ERROR_GROUPS, ErrorCodeEntry, ErrorGroup } from "../provider/errors/codes";
import { offerSearchSchema } from "../provider/client/api/offers";
import { getMachinesArgsSchema } from "../provider/functions/getMachines";
import { API_KEY_COMPUTED_OUTPUTS, apiKeyArgsSchema } from "../provider/resources/apiKey/apiKeyArgs";
import { INSTANCE_COMPUTED_OUTPUTS, INSTANCE_RUNTYPES, instanceArgsSchema } from "../provider/resources/instance/instanceArgs";
import { SSH_KEY_COMPUTED_OUTPUTS, sshKeyArgsSchema } from "../provider/resources/sshKey/sshKeyArgs";
import { VOLUME_COMPUTED_OUTPUTS, volumeArgsSchema } from "../provider/resources/volume/volumeArgs";
import { ENDPOINT_COMPUTED_OUTPUTS, endpointArgsSchema } from "../provider/resources/endpoint/endpointArgs";
import { WORKER_GROUP_COMPUTED_OUTPUTS, workerGroupArgsSchema } from "../provider/resources/workerGroup/workerGroupArgs";
import { volumeOfferSearchSchema } from "../provider/client/api/volumes";
import { VOLUME_OFFER_FILTER_FIELDS, volumeOfferRecordSchema } from "../provider/schemas/volume";
import { TEMPLATE_COMPUTED_OUTPUTS, templateArgsSchema } from "../provider/resources/template/templateArgs";
import { FILTER_OPERATORS, FieldKind } from "../provider/schemas/filters";
import { PERMISSION_NAMES } from "../provider/schemas/permissions";
import { OFFER_FILTER_FIELDS, offerRecordSchema } from "../provider/schemas/offer";
import { templateRecordSchema } from "../provider/schemas/template";
import { TEMPLATE_FILTER_FIELDS } from "../provider/schemas/templateFilters";
import { currentUserSchema } from "../provider/schemas/user";
import { REPO_ROOT } from "../testkit/repoRoot";
import { Policy } from "@pulumi/policy";
import { vastaiPolicies } from "../provider/policy";
import { Member, docBlocks, functionDoc, membersOf, parse } from "./docComments";
import { RESOURCE_KINDS, pluginTypeToken, typeToken } from "../provider/dynamic/typeTokens";
import { ResourceKind } from "../provider/dynamic/shim";

/** Reads a file of the repository by its path from the root; the test passes one that alters a source. */
export type ReadFile = (repoPath: string) => string;
export const readRepoFile: ReadFile = (repoPath) => fs.readFileSync(path.join(REPO_ROOT, repoPath), "utf8");

/** Where a member's doc comment is declared: a schema's object literal or an interface, by name. */
export interface DocSource {
    readonly file: string;
    readonly declaredAs: string;
}

/** A zod object schema, seen through what the pages need of it. */
interface ObjectSchema {
    readonly shape: Readonly<Record<string, unknown>>;
}

export interface ResourcePage {
    readonly kind: "resource";
    readonly page: string;
    readonly schema: PropertySchema;
    readonly args: DocSource;
    /** The interface whose members document the computed outputs (in the args file). */
    readonly outputs: string;
    readonly computed: ComputedDeclaration;
    /** Units of the arguments that have one, by dotted path (`offer.maxPricePerHour`). */
    readonly units?: Readonly<Record<string, string>>;
    /** Types in words where the schema cannot tell them (a custom check), by dotted path. */
    readonly types?: Readonly<Record<string, string>>;
    /** More doc sources for an object argument's fields, by the argument's name. */
    readonly nestedDocs?: Readonly<Record<string, DocSource>>;
    /** Lists of allowed values the template quotes (`<!-- list: name -->`), by name. */
    readonly lists?: Readonly<Record<string, readonly string[]>>;
}

export interface FieldList {
    /** The fields' types, optionality and order; without it, the interface of `docs` gives them. */
    readonly schema?: ObjectSchema;
    readonly docs: DocSource;
    readonly units?: Readonly<Record<string, string>>;
    readonly types?: Readonly<Record<string, string>>;
}

export interface FunctionParameter {
    readonly name: string;
    readonly optional: boolean;
    /** What the parameter is, in a sentence. */
    readonly about: string;
    readonly fields?: FieldList;
}

export interface FunctionPage {
    readonly kind: "function";
    readonly page: string;
    /** The functions whose doc comments open the page, in `file`. */
    readonly file: string;
    readonly functions: readonly string[];
    readonly parameters: readonly FunctionParameter[];
    /** What one result (one element, for a list) holds. */
    readonly result: FieldList;
    /** The fields a search filters on, with their kinds. */
    readonly filters?: Readonly<Record<string, FieldKind>>;
}

/** A policy pack's page: each policy's name, level, what it checks and its config, from the policies themselves. */
interface PoliciesPage {
    readonly kind: "policies";
    readonly page: string;
    readonly policies: readonly Policy[];
}

/** The error reference: every code, grouped, with what it means and what to do (provider/errors/codes.ts). */
interface ErrorsPage {
    readonly kind: "errors";
    readonly page: string;
}

type Page = ResourcePage | FunctionPage | PoliciesPage | ErrorsPage;

const OPTIONS: FunctionParameter = {
    name: "options",
    optional: true,
    about: "How to reach the service; every field is optional, and a field left out comes from the stack's config, then the environment.",
    fields: { docs: { file: "provider/functions/programClient.ts", declaredAs: "FunctionOptions" } },
};

const INSTANCE_ARGS = "provider/resources/instance/instanceArgs.ts";

/** Volume and NetworkVolume share their declarations: one page shape, two pages. */
function volumePage(page: string): ResourcePage {
    return {
        kind: "resource",
        page,
        schema: volumeArgsSchema,
        args: { file: "provider/resources/volume/volumeArgs.ts", declaredAs: "volumeArgsSchema" },
        outputs: "VolumeOutputs",
        computed: VOLUME_COMPUTED_OUTPUTS,
        units: { sizeGb: "GB", "offer.maxPricePerGbMonth": "USD per GB-month", storageCostPerGbMonth: "USD per GB-month" },
        types: {
            "offer.filters": "conditions on volume offer fields, as [`searchVolumeOffers`](../functions/search-volume-offers.md#filters) takes them",
            "offer.order": "list of `[field, \"asc\" | \"desc\"]`",
        },
        nestedDocs: { offer: { file: "provider/client/api/volumes.ts", declaredAs: "VolumeOfferSearch" } },
    };
}

export const PAGES: readonly Page[] = [
    { kind: "policies", page: "policies/vastai-guardrails.md", policies: vastaiPolicies },
    { kind: "errors", page: "errors.md" },
    {
        kind: "resource",
        page: "resources/template.md",
        schema: templateArgsSchema,
        args: { file: "provider/resources/template/templateArgs.ts", declaredAs: "templateArgsSchema" },
        outputs: "TemplateOutputs",
        computed: TEMPLATE_COMPUTED_OUTPUTS,
        units: { recommendedDiskSpace: "GB" },
        types: { env: "flag string, or map of string to string", extraFilters: "map of offer field to `{ op: value }`, as `searchOffers` takes it" },
    },
    {
        kind: "resource",
        page: "resources/instance.md",
        schema: instanceArgsSchema,
        args: { file: INSTANCE_ARGS, declaredAs: "instanceArgsSchema" },
        outputs: "InstanceOutputs",
        computed: INSTANCE_COMPUTED_OUTPUTS,
        units: { disk: "GB", price: "$/hour", readyTimeoutSeconds: "seconds", "offer.maxPricePerHour": "$/hour", "volumeInfo.size": "GB" },
        types: {
            env: "map of string to string, or flag string",
            "offer.filters": "conditions on offer fields, as [`searchOffers`](../functions/search-offers.md#filters) takes them",
            "offer.order": "list of `[field, \"asc\" | \"desc\"]`",
            access: `one of ${INSTANCE_RUNTYPES.filter((r) => r !== "jupyter").map((r) => `\`${r}\``).join(", ")}`,
        },
        nestedDocs: { offer: { file: "provider/client/api/offers.ts", declaredAs: "OfferSearch" }, volumeInfo: { file: INSTANCE_ARGS, declaredAs: "volumeInfoArgsSchema" } },
    },
    {
        kind: "resource",
        page: "resources/api-key.md",
        schema: apiKeyArgsSchema,
        args: { file: "provider/resources/apiKey/apiKeyArgs.ts", declaredAs: "apiKeyArgsSchema" },
        outputs: "ApiKeyOutputs",
        computed: API_KEY_COMPUTED_OUTPUTS,
        types: { permissions: "`PermissionsBuilder`, or object `{ api: { <category>: {} } }`" },
        nestedDocs: { permissions: { file: "provider/resources/apiKey/apiKeyArgs.ts", declaredAs: "grantsSomething" } },
        lists: { permissions: PERMISSION_NAMES },
    },
    {
        kind: "resource",
        page: "resources/ssh-key.md",
        schema: sshKeyArgsSchema,
        args: { file: "provider/resources/sshKey/sshKeyArgs.ts", declaredAs: "sshKeyArgsSchema" },
        outputs: "SshKeyOutputs",
        computed: SSH_KEY_COMPUTED_OUTPUTS,
    },
    {
        kind: "function",
        page: "functions/search-offers.md",
        file: "provider/functions/searchOffers.ts",
        functions: ["searchOffers", "searchOffersOutput"],
        parameters: [
            {
                name: "search",
                optional: true,
                about: "What to look for; left out, the best-ranked offers under the vendor CLI's defaults.",
                fields: {
                    schema: offerSearchSchema,
                    docs: { file: "provider/client/api/offers.ts", declaredAs: "OfferSearch" },
                    types: { filters: "conditions on offer fields, listed under [Filters](#filters)", order: "list of `[field, \"asc\" | \"desc\"]`" },
                },
            },
            OPTIONS,
        ],
        result: { schema: offerRecordSchema, docs: { file: "provider/schemas/offer.ts", declaredAs: "offerRecordSchema" } },
        filters: OFFER_FILTER_FIELDS,
    },
    volumePage("resources/volume.md"),
    volumePage("resources/network-volume.md"),
    {
        kind: "resource",
        page: "resources/endpoint.md",
        schema: endpointArgsSchema,
        args: { file: "provider/resources/endpoint/endpointArgs.ts", declaredAs: "endpointArgsSchema" },
        outputs: "EndpointOutputs",
        computed: ENDPOINT_COMPUTED_OUTPUTS,
        units: { minLoad: "perf units/s", minColdLoad: "perf units/s", maxQueueTime: "seconds", targetQueueTime: "seconds", inactivityTimeout: "seconds" },
    },
    {
        kind: "resource",
        page: "resources/worker-group.md",
        schema: workerGroupArgsSchema,
        args: { file: "provider/resources/workerGroup/workerGroupArgs.ts", declaredAs: "workerGroupArgsSchema" },
        outputs: "WorkerGroupOutputs",
        computed: WORKER_GROUP_COMPUTED_OUTPUTS,
        units: { gpuRamGb: "GB", "offer.maxPricePerHour": "$/hour per worker", "launch.diskGb": "GB" },
        types: {
            "offer.filters": "conditions on offer fields, as [`searchOffers`](../functions/search-offers.md#filters) takes them",
            "launch.env": "map of string to string, or flag string",
            workers: "list of `{ instanceId, status, pricePerHour }`",
        },
        nestedDocs: { offer: { file: "provider/client/api/offers.ts", declaredAs: "OfferSearch" }, launch: { file: "provider/resources/workerGroup/workerGroupArgs.ts", declaredAs: "launchSchema" } },
    },
    {
        kind: "function",
        page: "functions/search-volume-offers.md",
        file: "provider/functions/searchVolumeOffers.ts",
        functions: ["searchVolumeOffers", "searchVolumeOffersOutput"],
        parameters: [
            {
                name: "search",
                optional: true,
                about: "What to look for; left out, the cheapest volume offers under the vendor CLI's defaults.",
                fields: {
                    schema: volumeOfferSearchSchema,
                    docs: { file: "provider/client/api/volumes.ts", declaredAs: "VolumeOfferSearch" },
                    types: { filters: "conditions on volume offer fields, listed under [Filters](#filters)", order: "list of `[field, \"asc\" | \"desc\"]`" },
                },
            },
            OPTIONS,
        ],
        result: { schema: volumeOfferRecordSchema, docs: { file: "provider/schemas/volume.ts", declaredAs: "volumeOfferRecordSchema" } },
        filters: VOLUME_OFFER_FILTER_FIELDS,
    },
    {
        kind: "function",
        page: "functions/search-templates.md",
        file: "provider/functions/searchTemplates.ts",
        functions: ["searchTemplates", "searchTemplatesOutput"],
        parameters: [
            {
                name: "filters",
                optional: true,
                about:
                    "Conditions on template fields, all of which must hold (see [Filters](#filters)): an object `{ field: { op: value } }`, or the builder `templateFilters().where(field).op(value)`.",
            },
            OPTIONS,
        ],
        result: { schema: templateRecordSchema, docs: { file: "provider/schemas/template.ts", declaredAs: "templateRecordSchema" } },
        filters: TEMPLATE_FILTER_FIELDS,
    },
    {
        kind: "function",
        page: "functions/get-machines.md",
        file: "provider/functions/getMachines.ts",
        functions: ["getMachines", "getMachinesOutput"],
        parameters: [
            {
                name: "args",
                optional: true,
                about: "Which account's machines to list.",
                fields: { schema: getMachinesArgsSchema, docs: { file: "provider/functions/getMachines.ts", declaredAs: "GetMachinesArgs" } },
            },
            OPTIONS,
        ],
        result: { docs: { file: "provider/functions/machine.ts", declaredAs: "Machine" } },
    },
    {
        kind: "function",
        page: "functions/get-current-user.md",
        file: "provider/functions/getCurrentUser.ts",
        functions: ["getCurrentUser", "getCurrentUserOutput"],
        parameters: [OPTIONS],
        result: { schema: currentUserSchema, docs: { file: "provider/schemas/user.ts", declaredAs: "currentUserSchema" } },
    },
    {
        kind: "function",
        page: "functions/templates-from-files.md",
        file: "provider/declarative/templateFiles.ts",
        functions: ["templatesFromFiles"],
        parameters: [
            { name: "dir", optional: false, about: "The folder of template files, one YAML or JSON file per template (files in its subfolders are refused)." },
            {
                name: "options",
                optional: true,
                about: "What the files cannot hold.",
                fields: { docs: { file: "provider/declarative/templateFiles.ts", declaredAs: "TemplatesFromFilesOptions" } },
            },
        ],
        result: { docs: { file: "provider/declarative/templateFileReader.ts", declaredAs: "TemplateFile" } },
    },
];

// ---- Types in words, from the zod schema ----

/** The parts of a zod 4 definition the pages (and the package schema) read. */
export interface Def {
    readonly type: string;
    readonly innerType?: Schema;
    readonly in?: Schema;
    readonly element?: Schema;
    readonly valueType?: Schema;
    readonly options?: readonly Schema[];
    readonly items?: readonly Schema[];
    readonly entries?: Readonly<Record<string, string>>;
    readonly shape?: Readonly<Record<string, Schema>>;
    readonly defaultValue?: unknown;
    readonly checks?: ReadonlyArray<{ readonly _zod: { readonly def: CheckDef } }>;
}
interface CheckDef {
    readonly check: string;
    readonly format?: string;
    readonly value?: number;
    readonly inclusive?: boolean;
    readonly minimum?: number;
    readonly maximum?: number;
}
interface Schema {
    readonly _zod: { readonly def: Def };
}
const defOf = (schema: unknown): Def => (schema as Schema)._zod.def;

/** A property's schema without its optional, nullable and default wrappers, and what they said. */
export function unwrap(schema: unknown): { inner: Def; optional: boolean; nullable: boolean; hasDefault: boolean; defaultValue?: unknown } {
    let def = defOf(schema);
    const found = { optional: false, nullable: false, hasDefault: false, defaultValue: undefined as unknown };
    for (;;) {
        if (def.type === "optional") found.optional = true;
        else if (def.type === "nullable") found.nullable = true;
        else if (def.type === "default") {
            found.hasDefault = true;
            found.defaultValue = def.defaultValue;
        } else if (def.type !== "pipe") break;
        def = defOf(def.type === "pipe" ? def.in : def.innerType);
    }
    return { inner: def, ...found };
}

const checksOf = (def: Def): CheckDef[] => (def.checks ?? []).map((c) => c._zod.def);
/** A number schema that takes whole numbers only (`.int()`). */
export const isInteger = (def: Def): boolean => checksOf(def).some((c) => c.check === "number_format" && /int/.test(c.format ?? ""));
const code = (value: unknown) => `\`${typeof value === "string" ? value : JSON.stringify(value)}\``;

function typeWords(def: Def): string {
    switch (def.type) {
        case "string":
        case "boolean":
            return def.type;
        case "number":
            return isInteger(def) ? "integer" : "number";
        case "enum":
            return `one of ${Object.values(def.entries ?? {}).map(code).join(", ")}`;
        case "array":
            return `list of ${typeWords(unwrap(def.element).inner)}`;
        case "record":
            return `map of string to ${typeWords(unwrap(def.valueType).inner)}`;
        case "union":
            return (def.options ?? []).map((o) => typeWords(unwrap(o).inner)).join(" or ");
        case "object":
            return "object";
        case "unknown":
        case "any":
        case "custom":
            return "any value";
        default:
            return def.type;
    }
}

/** The bounds a schema checks, in words: "at least 8", "at most 1024 characters". */
function boundWords(def: Def): string[] {
    return checksOf(def).flatMap((c) => {
        if (c.check === "greater_than") return [c.inclusive ? `at least ${c.value}` : `more than ${c.value}`];
        if (c.check === "less_than") return [c.inclusive ? `at most ${c.value}` : `less than ${c.value}`];
        if (c.check === "min_length" && c.minimum === 1) return ["not empty"];
        if (c.check === "min_length") return [`at least ${c.minimum} characters`];
        if (c.check === "max_length") return [`at most ${c.maximum} characters`];
        return [];
    });
}

/** A TypeScript type as written, in words where it is a plain one. */
function tsTypeWords(type: string | undefined): string {
    if (type === undefined) return "any value";
    if (/^(string|number|boolean)$/.test(type)) return type;
    const list = /^(\w+)\[\]$/.exec(type);
    if (list) return `list of ${tsTypeWords(list[1])}`;
    const map = /^Record<string, (.+)>$/.exec(type);
    if (map) return `map of string to ${tsTypeWords(map[1])}`;
    if (type === "EnvMap") return "map of string to string";
    return code(type);
}

// ---- Text for users ----

/** Where a link to a file under docs/ (`live-service.md`, `resources/instance.md`) points; from a page, a path beside it. */
export type DocsLink = (docsPath: string) => string;
const fromPage: DocsLink = (docsPath) => `../${docsPath}`;

/**
 * A doc comment as a user page says it: the contract's section citations (`§`) left out, the
 * project's documents linked (from docs/<folder>/, unless `link` says otherwise).
 */
export function forUsers(text: string, link: DocsLink = fromPage): string {
    return text
        .replace(/\s*\((?:see )?docs\/service-contract\.md §[\d.]+\)/g, "")
        .replace(/(?<![[(/])docs\/(service-contract|live-service)\.md(?: "[^"]*")?/g, (_m, doc: string) => `[docs/${doc}.md](${link(`${doc}.md`)})`)
        .replace(/\bdocs\/(resources|functions)\/([\w-]+\.md)/g, (_m, folder: string, page: string) => `[${folder}/${page}](${link(`${folder}/${page}`)})`);
}

/** A member's doc comment for users; one without is an error, naming `where`. */
export function described(member: Member | undefined, where: string, link: DocsLink = fromPage): string {
    if (!member?.doc) throw new Error(`${where} has no doc comment: write one (it is what the reference page says of it)`);
    return forUsers(member.doc, link);
}

// ---- Lists ----

interface Entry {
    readonly name: string;
    readonly facts: readonly string[];
    readonly doc: string;
}

const entryLine = (e: Entry) => `- \`${e.name}\` (${e.facts.join("; ")})${e.doc ? ` ${e.doc}` : ""}`;

function requiredAndOptional(entries: ReadonlyArray<Entry & { required: boolean }>, level: string): string {
    const required = entries.filter((e) => e.required);
    const optional = entries.filter((e) => !e.required);
    // As the registry's pages: a section only when it has entries.
    const section = (title: string, es: readonly Entry[]) => (es.length === 0 ? [] : [`${level} ${title}\n\n${es.map(entryLine).join("\n")}`]);
    return [...section("Required", required), ...section("Optional", optional)].join("\n\n");
}

/** The facts of a schema field: its type and unit with its bounds, and its default. */
function schemaFacts(schema: unknown, pathName: string, units: Readonly<Record<string, string>>, types: Readonly<Record<string, string>>) {
    const u = unwrap(schema);
    const typeAndBounds = [types[pathName] ?? typeWords(u.inner) + (u.nullable ? ", or null" : ""), units[pathName], ...boundWords(u.inner)].filter(Boolean).join(", ");
    const facts = [typeAndBounds];
    if (u.hasDefault) facts.push(`default ${code(u.defaultValue)}`);
    return { facts, required: !u.optional && !u.hasDefault, inner: u.inner };
}

export function memberDocs(read: ReadFile, source: DocSource): Map<string, Member> {
    return membersOf(parse(source.file, read(source.file)), source.declaredAs);
}

/** The doc comments of an object argument's fields: the page's other source for them, and those written inside its declaration. */
export function fieldDocsOf(read: ReadFile, page: ResourcePage, name: string, member: Member | undefined): Map<string, Member> {
    const extra = page.nestedDocs?.[name] ? memberDocs(read, page.nestedDocs[name]) : new Map<string, Member>();
    return new Map([...extra, ...(member?.nested ?? new Map())]);
}

/** A list of fields: from a schema (types, defaults, order) documented by `docs`, or an interface's members. */
function fieldEntries(read: ReadFile, fields: FieldList): Array<Entry & { required: boolean }> {
    const docs = memberDocs(read, fields.docs);
    const units = fields.units ?? {};
    const types = fields.types ?? {};
    if (!fields.schema) {
        return [...docs.values()].map((m) => ({
            name: m.name,
            facts: [[types[m.name] ?? tsTypeWords(m.type), units[m.name]].filter(Boolean).join(", ")],
            doc: m.doc ? forUsers(m.doc) : "",
            required: !m.optional,
        }));
    }
    return Object.entries(fields.schema.shape).map(([name, schema]) => {
        const { facts, required } = schemaFacts(schema, name, units, types);
        const doc = docs.get(name);
        return { name, facts, doc: doc?.doc ? forUsers(doc.doc) : "", required };
    });
}

function resourceArguments(read: ReadFile, page: ResourcePage): string {
    const docs = memberDocs(read, page.args);
    const units = page.units ?? {};
    const types = page.types ?? {};
    const nested: string[] = [];
    const entries = declarationsOf(page.schema).map((d) => {
        const { facts, required, inner } = schemaFacts(page.schema.shape[d.name], d.name, units, types);
        facts.push(d.onChange === "replace" ? "forces replacement" : "updates in place");
        if (d.secret) facts.push("secret");
        facts.push(d.wire === undefined ? "no service field" : `service field \`${d.wire}\``);
        const member = docs.get(d.name);
        if (inner.type === "object" && inner.shape && types[d.name] === undefined) {
            const fieldDocs = fieldDocsOf(read, page, d.name, member);
            const fields = Object.entries(inner.shape).map(([name, schema]) => {
                const field = schemaFacts(schema, `${d.name}.${name}`, units, types);
                return { name, facts: field.facts, doc: described(fieldDocs.get(name), `${page.args.file}: ${d.name}.${name}`), required: field.required };
            });
            nested.push(`### Nested schema for \`${d.name}\`\n\n${requiredAndOptional(fields, "####")}`);
        }
        return { name: d.name, facts, doc: described(member, `${page.args.file}: ${d.name}`), required };
    });
    return [requiredAndOptional(entries, "###"), ...nested].join("\n\n");
}

function resourceOutputs(read: ReadFile, page: ResourcePage): string {
    const docs = memberDocs(read, { file: page.args.file, declaredAs: page.outputs });
    const types = page.types ?? {};
    const lines = Object.entries(page.computed).map(([name, declared]) => {
        const member = docs.get(name);
        const facts = [types[name] ?? tsTypeWords(member?.type)];
        if (declared.secret) facts.push("secret");
        return entryLine({ name, facts, doc: described(member, `${page.args.file}: ${page.outputs}.${name}`) });
    });
    return `Every argument is an output too, as given with its defaults filled in. Besides them:\n\n${lines.join("\n")}`;
}

/** A function's doc comment as Markdown: its prose as paragraphs, its indented example as a plain code block (a fragment: only whole snippet files are fenced as ts, and compiled). */
function functionText(doc: string): string {
    return docBlocks(doc)
        .map((block) => ("prose" in block ? forUsers(block.prose) : "```\n" + block.example + "\n```"))
        .join("\n\n");
}

function functionDescription(read: ReadFile, page: FunctionPage): string {
    const source = parse(page.file, read(page.file));
    return page.functions.map((name, i) => (i === 0 ? "" : `**\`${name}\`**: `) + functionText(functionDoc(source, name))).join("\n\n");
}

function functionArguments(read: ReadFile, page: FunctionPage): string {
    const signature = `${page.functions[0]}(${page.parameters.map((p) => p.name + (p.optional ? "?" : "")).join(", ")})`;
    const sections = page.parameters.map((p) => {
        const head = `### \`${p.name}\`${p.optional ? " (optional)" : ""}\n\n${p.about}`;
        return p.fields ? `${head}\n\n${requiredAndOptional(fieldEntries(read, p.fields), "####")}` : head;
    });
    return [`\`${signature}\``, ...sections].join("\n\n");
}

function functionResult(read: ReadFile, page: FunctionPage): string {
    // A field the service may leave out or send as null is, to a reader, one that may be absent.
    return fieldEntries(read, page.result)
        .map((e) => entryLine({ ...e, facts: e.required ? e.facts : [...e.facts.map((f) => f.replace(/, or null$/, "")), "may be absent"] }))
        .join("\n");
}

/** A filter field's kind as its type is called. */
export const FIELD_KIND_TYPES: Readonly<Record<FieldKind, "integer" | "number" | "boolean" | "string">> = { int: "integer", float: "number", bool: "boolean", string: "string" };

function filterTable(fields: Readonly<Record<string, FieldKind>>): string {
    const rows = Object.entries(fields).map(([field, kind]) => `| \`${field}\` | ${FIELD_KIND_TYPES[kind]} |`);
    return [
        `Each condition is \`{ field: { op: value } }\`, \`op\` one of ${FILTER_OPERATORS.map(code).join(", ")} (\`in\` and \`notin\` take a list). A value must be of its field's type: the compiler checks it, and so does the function before anything is sent.`,
        "",
        "| Field | Type |",
        "| --- | --- |",
        ...rows,
    ].join("\n");
}

// ---- Pages ----

/** Each policy: a heading, its default level, what it checks, and its config properties as the CLI's config file takes them. */
function policyReference(policies: readonly Policy[]): string {
    return policies
        .map((p) => {
            const properties = Object.entries(p.configSchema?.properties ?? {}) as Array<[string, { type?: string; items?: { type?: string }; default?: unknown; description?: string }]>;
            const config = properties.map(([name, s]) => {
                const type = s.type === "array" ? `list of ${s.items?.type ?? "value"}s` : s.type === "integer" ? "whole number" : (s.type ?? "value");
                const fallback = s.default === undefined ? "" : `, default \`${JSON.stringify(s.default)}\``;
                return `- \`${name}\` (${type}${fallback}): ${s.description ?? ""}`;
            });
            return [
                `### ${p.name}`,
                "",
                `${p.description} Default level: \`${p.enforcementLevel ?? "advisory"}\`.`,
                "",
                config.length > 0 ? `Config:\n\n${config.join("\n")}` : "Config: none besides `enforcementLevel`.",
            ].join("\n");
        })
        .join("\n\n");
}

/** Every error code, under its group's heading, in the table's order. */
function errorReference(): string {
    const entries = Object.entries(ERROR_CODES) as Array<[string, ErrorCodeEntry]>;
    const entry = ([code, e]: [string, ErrorCodeEntry]) => `### \`${code}\`\n\n${e.means}\n\n**What to do:** ${e.whatToDo}`;
    return (Object.entries(ERROR_GROUPS) as Array<[ErrorGroup, string]>)
        .map(([group, heading]) => [`## ${heading}`, ...entries.filter(([, e]) => e.group === group).map(entry)].join("\n\n"))
        .join("\n\n");
}

const TEMPLATES = "scripts/reference";
const SNIPPETS = "examples/snippets";

/** The page's hand-written template: `scripts/reference/` and the page's own path under docs/. */
export function templateOf(page: string): string {
    return `${TEMPLATES}/${page}`;
}

function banner(page: Page): string {
    return `<!-- Generated by \`npm run docs\` (scripts/referenceDocs.ts) from ${templateOf(page.page)} and the declarations it names: edit those, not this file. -->`;
}

// ---- The provider plugin's lines: the type token, the import command ----

/** The resource a reference page documents, by its file name: `resources/network-volume.md` is `networkVolume`. */
function kindOfPage(page: string): ResourceKind {
    const kind = path.posix.basename(page, ".md").replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
    if (!(RESOURCE_KINDS as readonly string[]).includes(kind)) throw new Error(`${page}: no resource kind "${kind}" for its type token`);
    return kind as ResourceKind;
}

/** `<!-- token -->`: the type token other languages use, and the TypeScript class's. */
function tokenLine(page: string): string {
    const kind = kindOfPage(page);
    return (
        `Type token (Python, Go, C#, Java, YAML): \`${pluginTypeToken(kind)}\` ([other languages](../guides/other-languages.md)). ` +
        `The TypeScript class is \`${typeToken(kind)}\` in state.`
    );
}

/** `<!-- import: <name> <id> -->`: the `pulumi import` command, as a shell block. */
function importCommand(page: string, name: string, id: string): string {
    return "```sh\n" + `pulumi import ${pluginTypeToken(kindOfPage(page))} ${name} ${id}\n` + "```";
}

/** One page's Markdown: its template with every marker filled in. */
export function renderPage(page: Page, read: ReadFile = readRepoFile): string {
    const template = read(templateOf(page.page));
    const fill = (marker: string): string => {
        const example = /^example: (\S+)$/.exec(marker);
        if (example) return "```ts\n" + read(`${SNIPPETS}/${example[1]}`).replace(/\n*$/, "\n") + "```";
        const list = /^list: (\w+)$/.exec(marker);
        if (list && page.kind === "resource" && page.lists?.[list[1]]) return page.lists[list[1]].map(code).join(", ") + ".";
        if (page.kind === "resource" && marker === "token") return tokenLine(page.page);
        const imported = /^import: (\S+) (\S+)$/.exec(marker);
        if (imported && page.kind === "resource") return importCommand(page.page, imported[1], imported[2]);
        if (page.kind === "resource" && marker === "arguments") return resourceArguments(read, page);
        if (page.kind === "resource" && marker === "outputs") return resourceOutputs(read, page);
        if (page.kind === "function" && marker === "description") return functionDescription(read, page);
        if (page.kind === "function" && marker === "arguments") return functionArguments(read, page);
        if (page.kind === "function" && marker === "result") return functionResult(read, page);
        if (page.kind === "function" && marker === "filters" && page.filters) return filterTable(page.filters);
        if (page.kind === "policies" && marker === "policies") return policyReference(page.policies);
        if (page.kind === "errors" && marker === "errors") return errorReference();
        throw new Error(`${templateOf(page.page)}: unknown marker <!-- ${marker} -->`);
    };
    const required =
        page.kind === "resource"
            ? ["token", "arguments", "outputs"]
            : page.kind === "policies"
              ? ["policies"]
              : page.kind === "errors"
                ? ["errors"]
                : ["description", "arguments", "result", ...(page.filters ? ["filters"] : [])];
    for (const marker of required) {
        if (!template.includes(`<!-- ${marker} -->`)) throw new Error(`${templateOf(page.page)}: no <!-- ${marker} --> marker`);
    }
    const text = `${banner(page)}\n\n${template.replace(/^<!-- (.+?) -->$/gm, (_m, marker: string) => fill(marker))}`;
    if (text.includes("§")) throw new Error(`${page.page}: a "§" citation reached the page: say it in words, or link the document`);
    return text;
}

/** Every reference page: its path under docs/ and its text. */
export function referencePages(read: ReadFile = readRepoFile): Array<{ page: string; text: string }> {
    return PAGES.map((page) => ({ page: page.page, text: renderPage(page, read) }));
}

const GENERATED_FOLDERS = ["resources", "functions", "policies"];

/** The Markdown files under docs/resources/ and docs/functions/ now. */
function committedPages(): string[] {
    return GENERATED_FOLDERS.flatMap((folder) => {
        const dir = path.join(REPO_ROOT, "docs", folder);
        return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".md")).map((f) => `${folder}/${f}`) : [];
    });
}

/** What differs between the generated pages and the files in docs/, one line each: empty when they agree. */
export function differences(pages: ReadonlyArray<{ page: string; text: string }>, readDocs: (page: string) => string | undefined): string[] {
    const found: string[] = [];
    for (const { page, text } of pages) {
        const committed = readDocs(page);
        if (committed === undefined) found.push(`docs/${page} is missing`);
        else if (committed !== text) {
            const lines = text.split("\n");
            const old = committed.split("\n");
            const at = lines.findIndex((line, i) => line !== old[i]);
            found.push(`docs/${page} differs from its declarations, first at line ${at + 1}:\n  generated: ${lines[at] ?? "(end of file)"}\n  committed: ${old[at] ?? "(end of file)"}`);
        }
    }
    for (const page of committedPages()) {
        if (!pages.some((p) => p.page === page)) found.push(`docs/${page} is no generated page: remove it, or add it to PAGES in scripts/referenceDocs.ts`);
    }
    return found;
}

export function readCommitted(page: string): string | undefined {
    const file = path.join(REPO_ROOT, "docs", page);
    return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
}

/** Writes every page, and removes a page under docs/resources/ or docs/functions/ that is no longer generated. */
export function writePages(): void {
    const pages = referencePages();
    for (const { page, text } of pages) {
        fs.mkdirSync(path.dirname(path.join(REPO_ROOT, "docs", page)), { recursive: true });
        fs.writeFileSync(path.join(REPO_ROOT, "docs", page), text);
    }
    for (const page of committedPages()) if (!pages.some((p) => p.page === page)) fs.rmSync(path.join(REPO_ROOT, "docs", page));
    console.log(`wrote ${pages.map((p) => `docs/${p.page}`).join(", ")}`);
}

if (require.main === module) writePages();
