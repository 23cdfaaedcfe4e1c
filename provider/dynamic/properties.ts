import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ProviderError } from "../errors/providerError";

/**
 * One declaration per property. A resource's input properties are its zod args schema, each
 * property wrapped in `prop` with what else there is to know about it; everything else about
 * them (input and output types, the property lists, the wire mapping, secrets, the README table)
 * is derived from that schema by the functions below, applied once per resource.
 */

/** What a change to an input property does: `replace` makes a new resource, `update` changes it in place. */
export type OnChange = "replace" | "update";

/** What is declared about an input property beside its schema. */
export interface PropertyMeta {
    /** The service's field it is sent as; absent for the provider's own settings, which are never sent. */
    readonly wire?: string;
    readonly onChange: OnChange;
    /** Encrypted in state, even when the program gives it as plain text. */
    readonly secret?: boolean;
    /**
     * May hold a credential without being secret (env, scripts, args; a private key pasted for a
     * public one): a check failure names it in its reason, not as its property, because the engine
     * prints a failing property's value beside the failure (see `unquotedFailures`). Secret properties are treated so too.
     */
    readonly mayHoldCredentials?: boolean;
}

/** zod 4 metadata: a registry of its own, so the metadata is typed and apart from `.meta()`'s. */
const declarations = z.registry<PropertyMeta>();

declare const declared: unique symbol;
/** A property's schema as `prop` returns it: the declaration is in its type too, so derived maps are typed exactly. */
export type Declared<S extends z.ZodType, M extends PropertyMeta> = S & { readonly [declared]?: M };

/** Declares an input property: its schema (outermost: after `.optional()` or `.default()`) and its metadata. */
export function prop<S extends z.ZodType, const M extends PropertyMeta>(schema: S, meta: M): Declared<S, M> {
    // A copy, as `.meta()` makes one: a schema shared by several properties keeps each one's metadata.
    const copy = schema.clone();
    declarations.add(copy, meta);
    return copy;
}

/** A resource's args schema: a zod object whose every property is declared with `prop`. */
export interface PropertySchema {
    readonly shape: Readonly<Record<string, z.ZodType>>;
}

export type PropertyOf<S extends PropertySchema> = keyof S["shape"] & string;

/** An input property with its declaration. */
export type PropertyDeclaration<S extends PropertySchema> = PropertyMeta & { readonly name: PropertyOf<S> };

/** Every input property with its declaration, in the schema's order (the order properties are reported in). */
export function declarationsOf<S extends PropertySchema>(schema: S): PropertyDeclaration<S>[] {
    return Object.entries(schema.shape).map(([name, property]) => {
        const meta = declarations.get(property);
        if (!meta) throw new ProviderError("internal", `property "${name}" has no declaration: wrap its schema in prop(schema, { wire, onChange, secret })`);
        return { name: name as PropertyOf<S>, ...meta };
    });
}

/** The input properties. */
export function propertiesOf<S extends PropertySchema>(schema: S): PropertyOf<S>[] {
    return declarationsOf(schema).map((d) => d.name);
}

/** The input properties whose change replaces the resource. */
export function replacedBy<S extends PropertySchema>(schema: S): PropertyOf<S>[] {
    return declarationsOf(schema).filter((d) => d.onChange === "replace").map((d) => d.name);
}

/** The input properties whose change updates the resource in place. */
export function updatedInPlace<S extends PropertySchema>(schema: S): PropertyOf<S>[] {
    return declarationsOf(schema).filter((d) => d.onChange === "update").map((d) => d.name);
}

/** The input properties whose value a check failure must not have printed: secret ones, and those that may hold a credential. */
export function unquotableOf<S extends PropertySchema>(schema: S): PropertyOf<S>[] {
    return declarationsOf(schema).filter((d) => d.secret === true || d.mayHoldCredentials === true).map((d) => d.name);
}

/** The secret input properties. */
export function secretsOf<S extends PropertySchema>(schema: S): PropertyOf<S>[] {
    return declarationsOf(schema).filter((d) => d.secret === true).map((d) => d.name);
}

type MetaOf<T> = T extends { readonly [declared]?: infer M } ? M : never;
type WireOf<T> = MetaOf<T> extends { readonly wire: infer W extends string } ? W : never;

/** Input property → the service's field, for the properties that are sent. */
export type WireFields<S extends PropertySchema> = {
    readonly [K in keyof S["shape"] as WireOf<S["shape"][K]> extends never ? never : K]: WireOf<S["shape"][K]>;
};

/** Input property → the service's field it is sent as; the provider's own settings are not in it. */
export function wireFieldsOf<S extends PropertySchema>(schema: S): WireFields<S> {
    const fields: Record<string, string> = {};
    for (const d of declarationsOf(schema)) if (d.wire !== undefined) fields[d.name] = d.wire;
    return fields as WireFields<S>;
}

type DefaultedOf<S extends PropertySchema> = {
    [K in keyof S["shape"] as S["shape"][K] extends z.ZodDefault ? K : never]: z.output<S["shape"][K]>;
};

/** The defaults (`.default(...)` in the schema) of the properties that have one. */
export function defaultsOf<S extends PropertySchema>(schema: S): Readonly<DefaultedOf<S>> {
    const defaults: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.shape)) {
        if (property instanceof z.ZodDefault) defaults[name] = property.def.defaultValue;
    }
    return defaults as DefaultedOf<S>;
}

/** A program's arguments: each property, and everything inside it, may be a `pulumi.Input`. */
export type PulumiArgs<T> = { [K in keyof T]: pulumi.Input<DeepInput<Exclude<T[K], undefined>>> };
type DeepInput<T> = T extends readonly (infer E)[] ? pulumi.Input<DeepInput<E>>[] : T extends object ? PulumiArgs<T> : T;

/** A resource class's outputs: one `pulumi.Output` per property, `undefined` inside when the property is optional. */
export type ResourceOutputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K] | ({} extends Pick<T, K> ? undefined : never)> };

/**
 * The outputs a provider computes, by name: never inputs. A secret one is encrypted in state
 * through `additionalSecretOutputs`, as it has no input whose secrecy the engine would carry over.
 */
export type ComputedDeclaration = Readonly<Record<string, { readonly secret?: boolean }>>;

/** The computed outputs of a resource: every output that is not an input, each declared once. */
export type ComputedOutputs<Outputs, Inputs> = { readonly [K in Exclude<keyof Outputs, keyof Inputs>]: { readonly secret?: boolean } };

/** The computed outputs' names. */
export function computedOf<C extends ComputedDeclaration>(computed: C): Array<keyof C & string> {
    return Object.keys(computed) as Array<keyof C & string>;
}

/** The secret computed outputs' names. */
export function secretComputedOf<C extends ComputedDeclaration>(computed: C): Array<keyof C & string> {
    return computedOf(computed).filter((name) => computed[name].secret === true);
}

/**
 * What a resource class hands to `pulumi.dynamic.Resource`: the program's arguments, every input
 * property and computed output present (each key becomes an output of the resource, unknown until
 * the provider answers), each secret input in `pulumi.secret` (so it is encrypted in state, input
 * and output, even when given as plain text); and the options, with the secret computed outputs
 * added to `additionalSecretOutputs`.
 */
export function resourceArgs(
    args: object,
    schema: PropertySchema,
    computed: ComputedDeclaration,
    opts: pulumi.CustomResourceOptions | undefined,
): { props: Record<string, unknown>; opts: pulumi.CustomResourceOptions } {
    const props: Record<string, unknown> = { ...args };
    const secrets: readonly string[] = secretsOf(schema);
    for (const name of propertiesOf(schema)) {
        const value = props[name];
        props[name] = value !== undefined && secrets.includes(name) ? pulumi.secret(value) : value;
    }
    for (const name of computedOf(computed)) props[name] = undefined;
    const secretComputed = secretComputedOf(computed);
    if (secretComputed.length === 0) return { props, opts: { ...opts } };
    return { props, opts: { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...secretComputed] } };
}

/** `true` when two types have the same keys: `true satisfies SameKeys<Args, z.input<typeof schema>>` checks a written-out args type. */
export type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : false;
