import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { PropertySchema, declarationsOf } from "../../provider/dynamic/properties";
import { apiKeyArgsSchema } from "../../provider/resources/apiKey/apiKeyArgs";
import { sshKeyArgsSchema } from "../../provider/resources/sshKey/sshKeyArgs";
import { instanceArgsSchema } from "../../provider/resources/instance/instanceArgs";
import { templateArgsSchema } from "../../provider/resources/template/templateArgs";

/**
 * The README's property tables are generated from the args schemas: the metadata of each
 * property's `prop(...)`, and its doc comment (the one the editor shows). A table that differs
 * fails here, printing the table to paste.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const README = path.join(ROOT, "README.md");

const RESOURCES = [
    { resource: "Template", schema: templateArgsSchema, file: "provider/resources/template/templateArgs.ts", declaredAs: "templateArgsSchema" },
    { resource: "Instance", schema: instanceArgsSchema, file: "provider/resources/instance/instanceArgs.ts", declaredAs: "instanceArgsSchema" },
    { resource: "ApiKey", schema: apiKeyArgsSchema, file: "provider/resources/apiKey/apiKeyArgs.ts", declaredAs: "apiKeyArgsSchema" },
    { resource: "SshKey", schema: sshKeyArgsSchema, file: "provider/resources/sshKey/sshKeyArgs.ts", declaredAs: "sshKeyArgsSchema" },
];

/** Each property's doc comment in the object literal that declares the schema, as one line. */
function docsOf(file: string, declaredAs: string): Record<string, string> {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
    let shape: ts.ObjectLiteralExpression | undefined;
    const findShape = (node: ts.Node): void => {
        if (!shape && ts.isObjectLiteralExpression(node) && ts.isCallExpression(node.parent)) shape = node;
        else ts.forEachChild(node, findShape);
    };
    const findDeclaration = (node: ts.Node): void => {
        if (ts.isVariableDeclaration(node) && node.name.getText() === declaredAs && node.initializer) findShape(node.initializer);
        else ts.forEachChild(node, findDeclaration);
    };
    findDeclaration(source);
    if (!shape) throw new Error(`${file}: no object literal declares ${declaredAs}`);
    const docs: Record<string, string> = {};
    for (const property of shape.properties) {
        if (!ts.isPropertyAssignment(property)) continue;
        const text = ts
            .getJSDocCommentsAndTags(property)
            .filter(ts.isJSDoc)
            .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "")
            .join(" ");
        docs[property.name.getText()] = text.replace(/\s+/g, " ").trim();
    }
    return docs;
}

function propertyTable(schema: PropertySchema, docs: Record<string, string>): string {
    const rows = declarationsOf(schema).map((d) => {
        const cells = [
            `\`${d.name}\``,
            d.wire === undefined ? "—" : `\`${d.wire}\``,
            d.onChange === "replace" ? "replace" : "in place",
            d.secret ? "yes" : "",
            (docs[d.name] ?? "").replace(/\|/g, "\\|"),
        ];
        return `| ${cells.join(" | ")} |`;
    });
    return ["| Property | Service field | On change | Secret | Description |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}

const begin = (resource: string) => `<!-- properties: ${resource} -->`;
const END = "<!-- /properties -->";

/** The table between the resource's markers in the README. */
function tableInReadme(readme: string, resource: string): string | undefined {
    const start = readme.indexOf(begin(resource));
    if (start < 0) return undefined;
    const end = readme.indexOf(END, start);
    return end < 0 ? undefined : readme.slice(start + begin(resource).length, end).trim();
}

describe("README property tables", () => {
    const readme = fs.readFileSync(README, "utf8");

    it.each(RESOURCES)("$resource: the README's table is the one its schema declares", ({ resource, schema, file, declaredAs }) => {
        const expected = propertyTable(schema, docsOf(file, declaredAs));
        const found = tableInReadme(readme, resource);
        if (found !== expected) {
            throw new Error(
                `README.md: the ${resource} property table ${found === undefined ? "is missing" : "is out of date"}. ` +
                    `Generated from ${declaredAs} (${file}); paste it into the ${resource} section:\n\n${begin(resource)}\n\n${expected}\n\n${END}\n`,
            );
        }
    });

    it("reads the doc comments of the schema", () => {
        const docs = docsOf(RESOURCES[0].file, "templateArgsSchema");
        expect(docs.image).toBe("Container image path, without the tag.");
        expect(docs.name).toBe("The name shown in the console; also what a lost create is looked for by.");
        expect(Object.keys(docs)).toEqual(declarationsOf(templateArgsSchema).map((d) => d.name));
    });
});
