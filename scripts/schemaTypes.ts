// The schema's types, from the declarations' own: a zod schema's (the arguments and records), or a
// TypeScript type as written (the computed outputs, `Machine`). One builder collects the named
// object types as it meets them, and every link in a description points into the repository.
import * as ts from "typescript";
import { z } from "zod";
import { volumeOfferSearchSchema } from "../provider/client/api/volumes";
import { PACKAGE_NAME } from "../provider/dynamic/typeTokens";
import { GPU_OCCUPANCY_CODES } from "../provider/functions/gpuOccupancy";
import { INSTANCE_RUNTYPES } from "../provider/resources/instance/instanceArgs";
import { FILTER_OPERATORS, FieldKind } from "../provider/schemas/filters";
import { OFFER_FILTER_FIELDS, offerFiltersSchema } from "../provider/schemas/offer";
import { VOLUME_OFFER_FILTER_FIELDS } from "../provider/schemas/volume";
import { Member, docBlocks, parse } from "./docComments";
import { FIELD_KIND_TYPES, described, forUsers, isInteger, unwrap } from "./referenceDocs";

/** A type as pulumi.json's typeSpec says one: a primitive, a list, a map, a named type or a union. */
export type TypeSpec =
    | { readonly type: "string" | "integer" | "number" | "boolean" }
    | { readonly type: "array"; readonly items: TypeSpec }
    | { readonly type: "object"; readonly additionalProperties: TypeSpec }
    | { readonly $ref: string }
    | { readonly oneOf: readonly TypeSpec[] };

export type PropertySpec = TypeSpec & {
    readonly description: string;
    readonly secret?: true;
    readonly default?: string | number | boolean;
    readonly defaultInfo?: { readonly environment: readonly string[] };
    readonly willReplaceOnChanges?: true;
};

export interface ObjectTypeSpec {
    readonly type: "object";
    readonly description?: string;
    readonly properties: Record<string, PropertySpec>;
    readonly required?: readonly string[];
}

export const ANY: TypeSpec = { $ref: "pulumi.json#/Any" };
export const STRING: TypeSpec = { type: "string" };
export const MAP_OF_STRING: TypeSpec = { type: "object", additionalProperties: STRING };
/** Search conditions, `{ field: { op: value } }`: checked by the provider, to an SDK a map of maps. */
export const CONDITIONS: TypeSpec = { type: "object", additionalProperties: { type: "object", additionalProperties: ANY } };
/** `env` is a map or a flag string as given, and always the canonical map after `check` (canonicalInputs.ts), so in outputs. */
export const ENV_INPUT: TypeSpec = { oneOf: [MAP_OF_STRING, STRING] };

/**
 * The searches' filters, by their schema: each typed per field, which an SDK cannot say; the fields
 * go into the description. Offer conditions are one schema wherever they are taken (an offer
 * search's `filters`, a Template's `extraFilters`), found inside its `.optional()`.
 */
const FILTERS = new Map<unknown, Readonly<Record<string, FieldKind>>>([
    [offerFiltersSchema, OFFER_FILTER_FIELDS],
    [volumeOfferSearchSchema.shape.filters, VOLUME_OFFER_FILTER_FIELDS],
]);

/** The fields of the search conditions `schema` checks, through its `.optional()`; undefined for any other schema. */
function filterFieldsOf(schema: unknown): Readonly<Record<string, FieldKind>> | undefined {
    for (let s = schema; s; ) {
        const fields = FILTERS.get(s);
        if (fields) return fields;
        const def = (s as { _zod?: { def?: { type?: string; innerType?: unknown } } })._zod?.def;
        s = def?.type === "optional" ? def.innerType : undefined;
    }
    return undefined;
}

/** A named type's suffix where the property's own name would mislead: a list's element, an offer query (not an `Offer`). */
const TYPE_SUFFIXES: Readonly<Record<string, string>> = { offer: "OfferQuery", volumes: "Volume" };

/** TypeScript aliases the outputs use, as types; an alias not here fails the build of the schema. */
const TS_ALIASES: Readonly<Record<string, { readonly type: TypeSpec; readonly values?: readonly string[] }>> = {
    EnvMap: { type: MAP_OF_STRING },
    InstanceAccess: { type: STRING, values: INSTANCE_RUNTYPES.filter((r) => r !== "jupyter") },
    GpuOccupancyCode: { type: STRING, values: GPU_OCCUPANCY_CODES },
    MachineRecord: { type: { type: "object", additionalProperties: ANY } },
};

export const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);
export const typeNameOf = (owner: string, property: string) => owner + (TYPE_SUFFIXES[property] ?? pascal(property));
export const code = (value: string) => `\`${value}\``;

/** Builds the schema's parts; `types` collects the named object types as they are met. */
export class SchemaBuilder {
    readonly types = new Map<string, ObjectTypeSpec>();
    private readonly link: (docsPath: string) => string;

    constructor(repository: string) {
        // Registry pages are not beside docs/: a link goes to the file in the repository.
        this.link = (docsPath) => `${repository}/blob/main/docs/${docsPath}`;
    }

    text(doc: string): string {
        return forUsers(doc, this.link);
    }

    /** A member's doc comment, which it must have (as its reference page requires). */
    described(member: Member | undefined, where: string): string {
        return described(member, where, this.link);
    }

    /** A declaration's doc comment without its examples (TypeScript, where every language reads it). */
    prose(doc: string): string {
        return docBlocks(doc)
            .flatMap((block) => ("prose" in block ? [this.text(block.prose)] : []))
            .join("\n\n");
    }

    /** A reference to the named object type `name`; one name made twice must be one shape. */
    named(name: string, spec: ObjectTypeSpec): TypeSpec {
        const token = `${PACKAGE_NAME}:index:${name}`;
        const known = this.types.get(token);
        if (known && JSON.stringify(known) !== JSON.stringify(spec)) throw new Error(`two shapes are both named ${token}: give one of them a TYPE_SUFFIXES entry`);
        this.types.set(token, spec);
        return { $ref: `#/types/${token}` };
    }

    /** A zod schema's type; an object in it is a named type, `typeName`, its fields documented by `docs`. */
    zodType(schema: unknown, typeName: string, docs: ReadonlyMap<string, Member>, subject: string): TypeSpec {
        if (filterFieldsOf(schema)) return CONDITIONS;
        const def = unwrap(schema).inner;
        switch (def.type) {
            case "string":
            case "enum":
                return STRING;
            case "boolean":
                return { type: "boolean" };
            case "number":
                return { type: isInteger(def) ? "integer" : "number" };
            case "array":
                return { type: "array", items: this.zodType(def.element, typeName, docs, subject) };
            case "tuple": {
                // `[field, "asc" | "desc"]`: a list of one type, or of anything.
                const items = (def.items ?? []).map((item) => this.zodType(item, typeName, docs, subject));
                const same = items.every((item) => JSON.stringify(item) === JSON.stringify(items[0]));
                return { type: "array", items: same && items.length > 0 ? items[0] : ANY };
            }
            case "record":
                return { type: "object", additionalProperties: this.zodType(def.valueType, typeName, docs, subject) };
            case "union":
                return { oneOf: (def.options ?? []).map((option) => this.zodType(option, typeName, docs, subject)) };
            case "object":
                return this.named(typeName, this.zodObject(def.shape ?? {}, typeName, docs, subject));
            case "unknown":
            case "any":
            case "custom":
                return ANY;
            default:
                throw new Error(`${typeName}: no schema type for a zod ${def.type}`);
        }
    }

    /** An object type from a zod shape: every field, required when it is neither optional, nullable nor defaulted. */
    zodObject(shape: Readonly<Record<string, unknown>>, typeName: string, docs: ReadonlyMap<string, Member>, subject: string, description?: string): ObjectTypeSpec {
        const properties: Record<string, PropertySpec> = {};
        const required: string[] = [];
        for (const [name, schema] of Object.entries(shape)) {
            if (neverReturned(schema)) continue;
            const member = docs.get(name);
            const doc = member?.doc ? this.text(member.doc) : `${code(name)} of ${subject}.`;
            const type = this.zodType(schema, typeNameOf(typeName, name), member?.nested ?? new Map(), code(name));
            properties[name] = { ...type, description: describe(doc, schema) };
            const u = unwrap(schema);
            if (!u.optional && !u.nullable && !u.hasDefault) required.push(name);
        }
        return { type: "object", ...(description ? { description } : {}), properties, ...(required.length ? { required } : {}) };
    }

    /** A TypeScript type as written (an output's, a `Machine` field's); `whole` says its numbers are. */
    tsType(text: string, typeName: string, whole: readonly string[], name: string): TypeSpec {
        const source = parse("type.ts", `type T = ${text};`);
        const alias = source.statements[0] as ts.TypeAliasDeclaration;
        return this.tsNode(source, alias.type, typeName, whole, name);
    }

    private tsNode(source: ts.SourceFile, node: ts.TypeNode, typeName: string, whole: readonly string[], name: string): TypeSpec {
        if (node.kind === ts.SyntaxKind.StringKeyword) return STRING;
        if (node.kind === ts.SyntaxKind.BooleanKeyword) return { type: "boolean" };
        if (node.kind === ts.SyntaxKind.NumberKeyword) return { type: whole.includes(name) ? "integer" : "number" };
        if (ts.isArrayTypeNode(node)) return { type: "array", items: this.tsNode(source, node.elementType, typeName, whole, name) };
        if (ts.isTypeReferenceNode(node)) {
            const reference = node.typeName.getText(source);
            const [key, value] = node.typeArguments ?? [];
            if (reference === "Record" && key?.kind === ts.SyntaxKind.StringKeyword && value) {
                return { type: "object", additionalProperties: this.tsNode(source, value, typeName, whole, name) };
            }
            if (TS_ALIASES[reference]) return TS_ALIASES[reference].type;
        }
        if (ts.isTypeLiteralNode(node)) {
            const properties: Record<string, PropertySpec> = {};
            const required: string[] = [];
            for (const member of node.members.filter(ts.isPropertySignature)) {
                const field = member.name.getText(source);
                const doc = ts.getJSDocCommentsAndTags(member).map((d) => ts.getTextOfJSDocComment(d.comment) ?? "").join(" ");
                const type = this.tsNode(source, member.type!, typeNameOf(typeName, field), whole, field);
                properties[field] = { ...type, description: doc ? this.text(doc) : `${code(field)} of ${code(name)}.` };
                if (!member.questionToken) required.push(field);
            }
            return this.named(typeName, { type: "object", properties, ...(required.length ? { required } : {}) });
        }
        throw new Error(`${typeName}: no schema type for the TypeScript type ${node.getText(source)}: add it to TS_ALIASES`);
    }

    /** An interface's members as an object type, each typed by its TypeScript type (`Machine`). */
    tsObject(docs: ReadonlyMap<string, Member>, whole: readonly string[], typeName: string, subject: string, description?: string): ObjectTypeSpec {
        const properties: Record<string, PropertySpec> = {};
        const required: string[] = [];
        for (const m of docs.values()) {
            const type = this.tsType(m.type!, typeNameOf(typeName, m.name), whole, m.name);
            properties[m.name] = { ...type, description: tsDescribe(m.doc ? this.text(m.doc) : `${code(m.name)} of ${subject}.`, m.type) };
            if (!m.optional) required.push(m.name);
        }
        return { type: "object", ...(description ? { description } : {}), properties, ...(required.length ? { required } : {}) };
    }
}

/** A field the record drops while parsing (a template's `docker_login_pass`) never reaches a program: it is not in the type. */
function neverReturned(schema: unknown): boolean {
    const parsed = (schema as z.ZodType).safeParse("a value");
    return parsed.success && parsed.data === undefined;
}

/** A description with what it leaves out: an enum's values, a search's operators and fields. */
export function describe(doc: string, schema: unknown): string {
    const fields = filterFieldsOf(schema);
    if (fields) return `${doc} ${conditionsNote(fields)}`;
    const def = unwrap(schema).inner;
    return def.type === "enum" ? withValues(doc, Object.values(def.entries ?? {})) : doc;
}

export function tsDescribe(doc: string, type: string | undefined): string {
    const values = TS_ALIASES[type?.replace(/\[\]$/, "") ?? ""]?.values;
    return values ? withValues(doc, values) : doc;
}

/** "One of ..." after a doc comment that does not already name every value. */
function withValues(doc: string, values: readonly string[]): string {
    return values.every((v) => doc.includes(code(v))) ? doc : `${doc} One of ${values.map(code).join(", ")}.`;
}

export function conditionsNote(fields: Readonly<Record<string, FieldKind>>): string {
    const operators = FILTER_OPERATORS.map(code).join(", ");
    const kinds = Object.entries(fields).map(([field, kind]) => `${code(field)} (${FIELD_KIND_TYPES[kind]})`).join(", ");
    return `Each condition is \`{ field: { op: value } }\`, \`op\` one of ${operators} (\`in\` and \`notin\` take a list). The fields: ${kinds}.`;
}
