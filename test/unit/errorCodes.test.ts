import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { ERROR_CODES, ERROR_GROUPS } from "../../provider/errors/codes";
import { ProviderError, codeOf, codeShown, withMore } from "../../provider/errors/providerError";

/**
 * Every error the provider makes carries a code from the one table (provider/errors/codes.ts):
 * the walk below reads each source file's syntax for an error made outside the coded classes,
 * and the table for codes nothing uses. docs/errors.md is generated from the table and checked
 * with the reference pages (referenceDocs.test.ts).
 */
const PROVIDER = path.resolve(__dirname, "..", "..", "provider");

/**
 * Errors made at the socket level, in the conventions of Node and axios (their `code` is a socket
 * error's, `ECONNRESET`), which the transport turns into coded errors before anything sees them;
 * and the serialized shim, whose text is in every stack's state and quotes the coded error it loads.
 */
const UNCODED = new Map([
    ["client/httpAdapter.ts", "axios's adapter contract: AxiosError, read by the transport"],
    ["client/tunnel.ts", "a socket's failure to the agent, read by the transport"],
    ["dynamic/shim.ts", "serialized into state; wraps the runtime's coded error"],
]);

/** The built-in error classes: a `new`, a call or an `extends` of one makes an error with no code. */
const PLAIN = new Set(["Error", "TypeError", "RangeError", "SyntaxError", "AggregateError"]);

function sourceFiles(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
        const file = path.join(dir, d.name);
        return d.isDirectory() ? sourceFiles(file) : d.name.endsWith(".ts") ? [file] : [];
    });
}

/** Where a file makes an error without a code: `new Error(...)`, `Error(...)`, `class X extends Error`, `throw "text"`. */
function uncodedErrors(file: string): string[] {
    const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const at = (node: ts.Node, what: string) => found.push(`${path.relative(PROVIDER, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
    const visit = (node: ts.Node) => {
        if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && PLAIN.has(node.expression.text)) {
            at(node, `${node.expression.text}(...) has no code: use ProviderError or a class of it`);
        }
        if (ts.isHeritageClause(node) && node.types.some((t) => ts.isIdentifier(t.expression) && PLAIN.has(t.expression.text)) && !(ts.isClassDeclaration(node.parent) && node.parent.name?.text === "ProviderError")) {
            at(node, "a class of Error that is not ProviderError's");
        }
        if (ts.isThrowStatement(node) && (ts.isStringLiteral(node.expression) || ts.isTemplateExpression(node.expression) || ts.isNoSubstitutionTemplateLiteral(node.expression))) {
            at(node, "throws text, which has no code");
        }
        ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
}

describe("error codes", () => {
    const files = sourceFiles(PROVIDER);

    it("every error the provider makes is a ProviderError (the walk reads each file's syntax)", () => {
        const found = files.filter((f) => !UNCODED.has(path.relative(PROVIDER, f).split(path.sep).join("/"))).flatMap(uncodedErrors);
        expect(found).toEqual([]);
    });

    it("the walk finds what it looks for", () => {
        const planted = path.join(PROVIDER, "..", "test", "fixtures", "uncodedErrors.ts.txt");
        expect(uncodedErrors(planted).map((f) => f.replace(/^.*?:(\d+): /, "$1: "))).toEqual([
            "2: Error(...) has no code: use ProviderError or a class of it",
            "3: a class of Error that is not ProviderError's",
            "4: throws text, which has no code",
            "5: TypeError(...) has no code: use ProviderError or a class of it",
        ]);
    });

    it("every code in the table is used by the provider, and each has its meaning and what to do", () => {
        const sources = files.filter((f) => !f.endsWith(path.join("errors", "codes.ts"))).map((f) => fs.readFileSync(f, "utf8")).join("\n");
        // `internal` is also what an error from a bug is shown with (codeOf).
        const unused = Object.keys(ERROR_CODES).filter((code) => !sources.includes(`"${code}"`));
        expect(unused).toEqual([]);
        for (const [code, entry] of Object.entries(ERROR_CODES)) {
            expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
            expect(Object.keys(ERROR_GROUPS)).toContain(entry.group);
            expect(entry.means).toMatch(/\.$/);
            expect(entry.whatToDo).toMatch(/\.$/);
        }
    });

    it("an error shows its code once, at the end, however many boundaries it crosses", () => {
        const e = new ProviderError("offer_gone", "vastai: create instance failed: offer 7 is gone");
        expect(codeShown(codeShown(e)).message).toBe("vastai: create instance failed: offer 7 is gone [offer_gone]");
        expect(codeShown(e)).toBe(e);
    });

    it("a failure that says more keeps the code of what it wraps; anything without one is internal", () => {
        expect(withMore(new ProviderError("in_use", "refused"), "; destroy it first")).toMatchObject({ code: "in_use", message: "refused; destroy it first" });
        expect(codeOf(new TypeError("x is undefined"))).toBe("internal");
        expect(codeOf(Object.assign(new Error("socket"), { code: "ECONNRESET" }))).toBe("internal");
        expect(codeShown("thrown text").message).toBe("thrown text [internal]");
    });
});
