// After the package build (`npm run prepare`), before node10Types.js copies the declarations: the
// doc comment of each resource's input property, written beside it in the declarations.
//
// Why: each property is declared once, with its comment, as a key of its resource's args schema
// (`provider/resources/*/*Args.ts`); the args types are derived from the schema. tsc prints the
// schema's inferred type without those comments, so an editor showed no docs for any input.
const fs = require("fs");
const path = require("path");
const ts = require("typescript");

const root = path.resolve(__dirname, "..");
const resources = path.join(root, "provider", "resources");

/** Property name → its doc comment (as written), for the object literal that is each `...ArgsSchema`'s shape. */
function docsOf(sourceFile) {
    const text = sourceFile.getFullText();
    const docs = new Map();
    const visitShape = (object) => {
        for (const property of object.properties) {
            if (!ts.isPropertyAssignment(property)) continue;
            const comment = ts.getLeadingCommentRanges(text, property.getFullStart())?.filter((r) => text.startsWith("/**", r.pos)).pop();
            if (comment) docs.set(property.name.getText(sourceFile), text.slice(comment.pos, comment.end));
        }
    };
    const visit = (node) => {
        if (ts.isVariableDeclaration(node) && /ArgsSchema$/.test(node.name.getText(sourceFile)) && node.initializer) {
            // The shape: the first object literal given to `strictObject(...)` or `object(...)`.
            const find = (n) => {
                if (ts.isCallExpression(n) && /\b(strictObject|object)$/.test(n.expression.getText(sourceFile)) && n.arguments[0] && ts.isObjectLiteralExpression(n.arguments[0])) {
                    visitShape(n.arguments[0]);
                    return true;
                }
                return ts.forEachChild(n, find);
            };
            find(node.initializer);
        }
        ts.forEachChild(node, visit);
    };
    visit(sourceFile);
    return docs;
}

/** `dts` with each documented top-level property of its exported `...ArgsSchema` preceded by its comment. */
function withDocs(dts, docs) {
    const lines = dts.split("\n");
    const out = [];
    let inSchema = false;
    for (const line of lines) {
        if (/^export declare const \w+ArgsSchema: /.test(line)) inSchema = true;
        else if (inSchema && line.startsWith("}")) inSchema = false;
        const property = inSchema && /^ {4}(\w+)\??: /.exec(line)?.[1];
        const doc = property && docs.get(property);
        if (doc && !out[out.length - 1]?.trim().endsWith("*/")) out.push(...doc.split("\n").map((l) => `    ${l.trim().startsWith("*") ? " " : ""}${l.trim()}`));
        out.push(line);
    }
    return out.join("\n");
}

let documented = 0;
for (const dir of fs.readdirSync(resources, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
    for (const name of fs.readdirSync(path.join(resources, dir)).filter((f) => f.endsWith("Args.ts"))) {
        const source = path.join(resources, dir, name);
        const dts = path.join(root, "dist", "provider", "resources", dir, name.replace(/\.ts$/, ".d.ts"));
        if (!fs.existsSync(dts)) continue;
        const docs = docsOf(ts.createSourceFile(source, fs.readFileSync(source, "utf8"), ts.ScriptTarget.Latest, true));
        fs.writeFileSync(dts, withDocs(fs.readFileSync(dts, "utf8"), docs));
        documented += docs.size;
    }
}
if (documented === 0) throw new Error("argsDocs: no documented input property found: has the args schemas' layout changed?");
