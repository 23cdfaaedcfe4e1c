import { z } from "zod";

/** zod's parse options for every parse in the provider: see `safeParse`. */
const INTERPRETED = { jitless: true } as const;

/**
 * `schema.safeParse(value)` without zod's compiled fast path. On the first parse of an object
 * schema, zod 4 writes a parser for its shape and compiles it (`new Function`), which pays back
 * over thousands of parses of that schema. The provider parses a few values per resource, in a
 * host process that Pulumi starts afresh for each command, so there the compile is all cost: a
 * few ms at the first create of every `pulumi up` (`npm run bench`, Instance create), against a
 * few µs more per parse after. Every parse in the provider goes through here.
 */
export function safeParse<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
    return schema.safeParse(value, INTERPRETED);
}
