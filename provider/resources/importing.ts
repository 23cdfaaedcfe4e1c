/**
 * What each kind gives `pulumi import` (through the provider plugin): the resource read by its id
 * alone, and the errors an import fails with. Why the reads take what they take:
 * docs/design/import.md.
 */
import { VastNotFoundError } from "../client/errors";
import { ProviderError } from "../errors/providerError";

type Props = Record<string, unknown>;

/** A resource as an import reads it, for the engine: what a create would have left in state. */
export interface ImportedResource {
    id: string;
    /** The outputs: every input the service shows back, and every computed output it tells. */
    props: Props;
    /** The inputs, in the canonical form `check` gives them (defaults filled in). */
    inputs: Props;
    /**
     * Input properties the service does not show back as a program writes them (an instance's
     * `onstart`, a template's registry password): their value is the program's, as the first plan
     * after the import gives it.
     */
    taken: readonly string[];
}

/** A kind's import. */
export interface Importer {
    /** The account's resource with this id, with nothing else known; an error that says why when it cannot be imported. */
    read(id: string, where: { createSlot?: string }): Promise<ImportedResource>;
    /**
     * At the first plan after the import: what the program says of a taken property that the
     * service shows otherwise (the instance runs another image), each one line; none if it agrees.
     */
    disagreements?(id: string, news: Props): Promise<string[]>;
}

/**
 * The numeric id an import names, or an error saying what the id is: `type` as the program names it
 * (`Template`), `idIs` what the number is and where it is listed.
 */
export function importedId(type: string, id: string, idIs: string): number {
    const n = Number(id);
    if (/^\d+$/.test(id.trim()) && Number.isSafeInteger(n) && n > 0) return n;
    throw new VastNotFoundError({ operation: "import", target: `${type} ${JSON.stringify(id)}` }, `the id must be ${idIs}`, "invalid_input");
}

/**
 * An import of an id the account has none of: a clear error, never an empty success (the engine
 * would record nothing, and say little). `noun` is what the resource is on the service (`template`,
 * `SSH key`), `idIs` what its id is and where the ids are listed.
 */
export function notOnAccount(type: string, id: number, noun: string, idIs: string): VastNotFoundError {
    return new VastNotFoundError(
        { operation: "import", target: `${type} ${id}` },
        `no such ${noun} on this account (the account of the API key in use). Check the id (${idIs}), ` +
            `and that vastai:apiKey (or VAST_API_KEY) is a key of the account that has it: another account's key sees none of its ${noun}s`,
        "not_on_account",
    );
}

/** An import the resource refuses, for a reason of its kind (a key whose secret is shown only once). */
export function notImportable(type: string, id: number, why: string): Error {
    return new ProviderError("not_importable", `vastai: import ${type} ${id} failed: ${why}`);
}
