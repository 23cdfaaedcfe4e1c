// After the package build (`npm run prepare`), before node10Types.js copies the declarations: the
// doc comment of each resource's input property, and of each field of a record the service
// returns, written beside it in the declarations.
//
// Why: each property is declared once, with its comment, as a key of its resource's args schema
// (`provider/resources/*/*Args.ts`), and each returned field as a key of its record schema
// (`provider/schemas/*.ts`, `...RecordSchema`: an offer's units); the types are derived from the
// schemas. tsc prints a schema's inferred type without those comments, so an editor showed none.
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const resources = path.join(root, "provider", "resources");
// The doc-comment reader the reference pages use too (scripts/docComments.ts), built with provider/.
const { membersOf, parse, schemaNames } = require(path.join(root, "dist", "scripts", "docComments.js"));

/** The schemas whose shapes' comments are put back: a resource's args, a returned record. */
const SCHEMA_NAME = /(ArgsSchema|RecordSchema)$/;

/** Property name → its doc comment (as written), for the shapes of the file's such schemas. */
function docsOf(sourceFile) {
    const docs = new Map();
    for (const name of schemaNames(sourceFile, SCHEMA_NAME)) {
        for (const member of membersOf(sourceFile, name).values()) if (member.raw) docs.set(member.name, member.raw);
    }
    return docs;
}

/** `dts` with each documented top-level property of its exported `...ArgsSchema` or `...RecordSchema` preceded by its comment. */
function withDocs(dts, docs) {
    const lines = dts.split("\n");
    const out = [];
    let inSchema = false;
    for (const line of lines) {
        if (/^export declare const \w+(ArgsSchema|RecordSchema): /.test(line)) inSchema = true;
        else if (inSchema && line.startsWith("}")) inSchema = false;
        const property = inSchema && /^ {4}(\w+)\??: /.exec(line)?.[1];
        const doc = property && docs.get(property);
        if (doc && !out[out.length - 1]?.trim().endsWith("*/")) out.push(...doc.split("\n").map((l) => `    ${l.trim().startsWith("*") ? " " : ""}${l.trim()}`));
        out.push(line);
    }
    return out.join("\n");
}

/** Puts back the comments of `source`'s schemas into its declarations; how many it found. */
function document(source) {
    const dts = path.join(root, "dist", path.relative(root, source).replace(/\.ts$/, ".d.ts"));
    if (!fs.existsSync(dts)) return 0;
    const docs = docsOf(parse(source, fs.readFileSync(source, "utf8")));
    fs.writeFileSync(dts, withDocs(fs.readFileSync(dts, "utf8"), docs));
    return docs.size;
}

let documented = 0;
for (const dir of fs.readdirSync(resources, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
    for (const name of fs.readdirSync(path.join(resources, dir)).filter((f) => f.endsWith("Args.ts"))) documented += document(path.join(resources, dir, name));
}
if (documented === 0) throw new Error("argsDocs: no documented input property found: has the args schemas' layout changed?");
const schemas = path.join(root, "provider", "schemas");
const recordFields = fs.readdirSync(schemas).filter((f) => f.endsWith(".ts")).reduce((n, name) => n + document(path.join(schemas, name)), 0);
if (recordFields === 0) throw new Error("argsDocs: no documented record field found: has the record schemas' layout changed?");
