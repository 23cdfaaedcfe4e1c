import * as path from "path";
import * as ts from "typescript";

const ROOT = path.resolve(__dirname, "..", "..");
const MUST_FAIL = path.join(__dirname, "templateFilters.must-fail.ts");

interface Found {
    line: number;
    code: string;
    message: string;
}

/** Compiles `file` with the project's tsconfig options (as `tsc -p .` would) and returns every diagnostic. */
function compile(file: string): { inFile: Found[]; elsewhere: string[] } {
    const config = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, "tsconfig.json"), {}, {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
            throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
    })!;
    const program = ts.createProgram([file], { ...config.options, noEmit: true, incremental: false });
    const inFile: Found[] = [];
    const elsewhere: string[] = [];
    for (const d of ts.getPreEmitDiagnostics(program)) {
        const message = ts.flattenDiagnosticMessageText(d.messageText, " ");
        if (d.file && path.resolve(d.file.fileName) === file) {
            inFile.push({ line: d.file.getLineAndCharacterOfPosition(d.start!).line + 1, code: `TS${d.code}`, message });
        } else {
            elsewhere.push(`${d.file?.fileName ?? "(global)"}: TS${d.code} ${message}`);
        }
    }
    return { inFile, elsewhere };
}

/** The errors the file announces: `// error TSnnnn: why` on the line above each. */
function expectedErrors(file: string): Array<{ line: number; code: string }> {
    const lines = ts.sys.readFile(file)!.split("\n");
    return lines.flatMap((text, i) => {
        const marker = /^\s*\/\/ error (TS\d+):/.exec(text);
        return marker ? [{ line: i + 2, code: marker[1] }] : [];
    });
}

describe("providers are typed against Pulumi's ResourceProvider with their own outputs (compile-time)", () => {
    it("a diff that reads an output create does not write, or a create that leaves one out, fails to type-check where marked", () => {
        const file = path.join(ROOT, "test", "resources", "providerTypes.must-fail.ts");
        const expected = expectedErrors(file);
        expect(expected).toHaveLength(2);
        const { inFile, elsewhere } = compile(file);
        expect(elsewhere).toEqual([]);
        expect(inFile.map(({ line, code }) => ({ line, code }))).toEqual(expected);
    });
});

describe("template filters are typed per field (compile-time)", () => {
    it("a string on a numeric field, and every other mistyped filter in the must-fail file, fails to type-check exactly where marked", () => {
        const expected = expectedErrors(MUST_FAIL);
        expect(expected.length).toBeGreaterThanOrEqual(10);

        const { inFile, elsewhere } = compile(MUST_FAIL);
        expect(elsewhere).toEqual([]);
        expect(inFile.map(({ line, code }) => ({ line, code }))).toEqual(expected);
        // The headline case, by its message: `{ id: { eq: "7" } }`.
        const stringOnInt = inFile.find((f) => f.line === expected[0].line)!;
        expect(stringOnInt.message).toBe("Type 'string' is not assignable to type 'number'.");
    });
});

describe("offer filters are typed per field (compile-time)", () => {
    it("an unknown field, a string on a numeric field, a number on a string field, and the rest of the must-fail file, fail to type-check exactly where marked", () => {
        const file = path.join(__dirname, "offerFilters.must-fail.ts");
        const expected = expectedErrors(file);
        expect(expected.length).toBeGreaterThanOrEqual(10);

        const { inFile, elsewhere } = compile(file);
        expect(elsewhere).toEqual([]);
        expect(inFile.map(({ line, code }) => ({ line, code }))).toEqual(expected);
        // The headline cases, by their messages.
        const message = (i: number) => inFile.find((f) => f.line === expected[i].line)!.message;
        expect(message(0)).toMatch(/'gpu_ram_gb' does not exist in type .* Did you mean to write 'gpu_ram'\?/);
        expect(message(1)).toMatch(/'price' does not exist in type/);
        expect(message(2)).toBe("Type 'string' is not assignable to type 'number'.");
        expect(message(3)).toBe("Type 'number' is not assignable to type 'string'.");
    });
});

describe("volume offer filters are typed per field (compile-time)", () => {
    it("an unknown field, in a search and in a Volume's query, and mistyped values fail to type-check exactly where marked", () => {
        const file = path.join(__dirname, "volumeOfferFilters.must-fail.ts");
        const expected = expectedErrors(file);
        expect(expected).toHaveLength(4);
        const { inFile, elsewhere } = compile(file);
        expect(elsewhere).toEqual([]);
        expect(inFile.map(({ line, code }) => ({ line, code }))).toEqual(expected);
        expect(inFile.find((f) => f.line === expected[0].line)!.message).toMatch(/'gpu_name' does not exist in type/);
    });
});
