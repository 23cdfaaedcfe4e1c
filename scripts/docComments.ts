// Reads doc comments from TypeScript source: the one home for it. The reference pages
// (referenceDocs.ts) and the package's declarations (argsDocs.js) both show what these comments say.
import * as ts from "typescript";

/** A declared member (a key of a schema's shape, or of an interface) and what its source says of it. */
export interface Member {
    readonly name: string;
    /** The doc comment's text on one line; `""` when it has none. */
    readonly doc: string;
    /** The doc comment as written (`/** ... *\/`), for copying into declarations. */
    readonly raw?: string;
    /** An interface member's type as written. */
    readonly type?: string;
    /** An interface member written `name?:`. */
    readonly optional?: boolean;
    /** The members of an object literal inside it (`.extend({ ... })`), documented the same way. */
    readonly nested: ReadonlyMap<string, Member>;
}

export function parse(fileName: string, text: string): ts.SourceFile {
    return ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
}

/** A node's doc comment text, whitespace kept (code examples are indented). */
function docText(node: ts.Node): string {
    return ts
        .getJSDocCommentsAndTags(node)
        .filter(ts.isJSDoc)
        .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "")
        .join("\n");
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The last `/** ... *\/` comment before `node`, as written. */
function rawDoc(source: ts.SourceFile, node: ts.Node): string | undefined {
    const text = source.getFullText();
    const range = ts
        .getLeadingCommentRanges(text, node.getFullStart())
        ?.filter((r) => text.startsWith("/**", r.pos))
        .pop();
    return range && text.slice(range.pos, range.end);
}

const SHAPE_CALL = /\b(strictObject|object|looseObject|extend)$/;

/** The first object literal given to `strictObject(...)`, `object(...)`, `looseObject(...)` or `.extend(...)` in `node`, depth first. */
function shapeIn(source: ts.SourceFile, node: ts.Node): ts.ObjectLiteralExpression | undefined {
    if (ts.isCallExpression(node) && SHAPE_CALL.test(node.expression.getText(source)) && node.arguments[0] && ts.isObjectLiteralExpression(node.arguments[0])) {
        return node.arguments[0];
    }
    return ts.forEachChild(node, (child) => shapeIn(source, child));
}

function shapeMembers(source: ts.SourceFile, shape: ts.ObjectLiteralExpression): Map<string, Member> {
    const members = new Map<string, Member>();
    for (const property of shape.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        const name = property.name.getText(source);
        const inner = shapeIn(source, property.initializer);
        members.set(name, { name, doc: oneLine(docText(property)), raw: rawDoc(source, property), nested: inner ? shapeMembers(source, inner) : new Map() });
    }
    return members;
}

function interfaceMembers(source: ts.SourceFile, declaration: ts.InterfaceDeclaration): Map<string, Member> {
    const members = new Map<string, Member>();
    for (const member of declaration.members) {
        if (!ts.isPropertySignature(member)) continue;
        const name = member.name.getText(source);
        members.set(name, {
            name,
            doc: oneLine(docText(member)),
            raw: rawDoc(source, member),
            type: member.type?.getText(source),
            optional: member.questionToken !== undefined,
            nested: new Map(),
        });
    }
    return members;
}

/**
 * The members `declaredAs` declares in `source`, in their order: the keys of the shape of a schema
 * (`const fooSchema = z.strictObject({ ... })`), or the properties of an interface.
 */
export function membersOf(source: ts.SourceFile, declaredAs: string): Map<string, Member> {
    let found: Map<string, Member> | undefined;
    const visit = (node: ts.Node): void => {
        if (found) return;
        if (ts.isInterfaceDeclaration(node) && node.name.text === declaredAs) found = interfaceMembers(source, node);
        else if (ts.isVariableDeclaration(node) && node.name.getText(source) === declaredAs && node.initializer) {
            const shape = shapeIn(source, node.initializer);
            if (shape) found = shapeMembers(source, shape);
        } else ts.forEachChild(node, visit);
    };
    visit(source);
    if (!found) throw new Error(`${source.fileName}: nothing declares ${declaredAs} (a schema's object literal or an interface)`);
    return found;
}

/** The names of the variables declared in `source` that match `pattern` and are schemas with a shape. */
export function schemaNames(source: ts.SourceFile, pattern: RegExp): string[] {
    const names: string[] = [];
    const visit = (node: ts.Node): void => {
        if (ts.isVariableDeclaration(node) && pattern.test(node.name.getText(source)) && node.initializer && shapeIn(source, node.initializer)) {
            names.push(node.name.getText(source));
        }
        ts.forEachChild(node, visit);
    };
    visit(source);
    return names;
}

/** The doc comment of the function `name` declared in `source`, line breaks and indented examples kept. */
export function functionDoc(source: ts.SourceFile, name: string): string {
    return docOf(source, name, ts.isFunctionDeclaration, "function");
}

/** The doc comment of the class `name` declared in `source`, as `functionDoc` reads a function's. */
export function classDoc(source: ts.SourceFile, name: string): string {
    return docOf(source, name, ts.isClassDeclaration, "class");
}

/** The doc comment of the interface `name` declared in `source`, as `functionDoc` reads a function's. */
export function interfaceDoc(source: ts.SourceFile, name: string): string {
    return docOf(source, name, ts.isInterfaceDeclaration, "interface");
}

/** The doc comment of the variable `name` declared in `source` (a schema's), as `functionDoc` reads a function's. */
export function variableDoc(source: ts.SourceFile, name: string): string {
    return docOf(source, name, ts.isVariableDeclaration, "variable");
}

function docOf(source: ts.SourceFile, name: string, is: (node: ts.Node) => node is ts.Node & { readonly name?: ts.Node }, what: string): string {
    let doc: string | undefined;
    const visit = (node: ts.Node): void => {
        if (doc !== undefined) return;
        if (is(node) && node.name?.getText(source) === name) doc = docText(node);
        else ts.forEachChild(node, visit);
    };
    visit(source);
    if (doc === undefined) throw new Error(`${source.fileName}: no ${what} ${name}`);
    return doc;
}

/** A block of a doc comment: a paragraph of prose (on one line), or an indented example (its lines, unindented). */
export type DocBlock = { readonly prose: string } | { readonly example: string };

/** A doc comment's paragraphs and indented examples, in order; a blank line ends either. */
export function docBlocks(doc: string): DocBlock[] {
    const blocks: DocBlock[] = [];
    let prose: string[] = [];
    let example: string[] = [];
    const flushProse = () => {
        if (prose.length) blocks.push({ prose: oneLine(prose.join(" ")) });
        prose = [];
    };
    const flush = () => {
        flushProse();
        if (example.length) blocks.push({ example: example.join("\n") });
        example = [];
    };
    for (const line of doc.split("\n")) {
        if (/^ {4}/.test(line) && line.trim() !== "") {
            flushProse();
            example.push(line.slice(4));
        } else if (line.trim() === "") flush();
        else {
            if (example.length) flush();
            prose.push(line);
        }
    }
    flush();
    return blocks;
}
