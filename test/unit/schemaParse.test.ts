import * as fs from "fs";
import * as path from "path";
import { z } from "zod";
import { safeParse } from "../../provider/schemas/parse";

const PROVIDER = path.resolve(__dirname, "..", "..", "provider");

function sourceFiles(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : [];
    });
}

/** Runs `work` with the global `Function` constructor counted (zod compiles its fast path with it). */
function functionsCompiledBy(work: () => void): number {
    const original = globalThis.Function;
    let compiled = 0;
    globalThis.Function = new Proxy(original, {
        construct(target, args, newTarget) {
            compiled++;
            return Reflect.construct(target, args, newTarget);
        },
    });
    try {
        work();
    } finally {
        globalThis.Function = original;
    }
    return compiled;
}

const shape = () => z.looseObject({ id: z.number().int(), label: z.string().nullish(), ports: z.record(z.string(), z.unknown()).nullish() });

describe("parsing with zod (provider/schemas/parse.ts)", () => {
    it("compiles nothing, where zod's own first parse of an object schema does", () => {
        const value = { id: 7, label: "x", extra: true };
        expect(functionsCompiledBy(() => shape().safeParse(value))).toBeGreaterThan(0);
        expect(functionsCompiledBy(() => safeParse(shape(), value))).toBe(0);
    });

    it("answers as zod does", () => {
        const schema = shape();
        for (const value of [{ id: 7, label: "x", extra: true }, { id: 7.5 }, { label: 3 }, null, "text"]) {
            const ours = safeParse(schema, value);
            const zods = schema.safeParse(value);
            expect(ours.success).toBe(zods.success);
            expect(ours.success ? ours.data : ours.error.issues).toEqual(zods.success ? zods.data : zods.error.issues);
        }
    });

    it("is the one place the provider parses", () => {
        const elsewhere = sourceFiles(PROVIDER)
            .filter((file) => path.relative(PROVIDER, file) !== path.join("schemas", "parse.ts"))
            // A schema's parse methods; not JSON's, Date's or the transport's own `this.parse`.
            .filter((file) => /(?<!\b(JSON|Date|this))\.(safeParse|parse|parseAsync|safeParseAsync)\(/.test(fs.readFileSync(file, "utf8")))
            .map((file) => path.relative(PROVIDER, file));
        expect(elsewhere).toEqual([]);
    });
});
