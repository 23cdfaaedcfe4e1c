import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { TemplateFileError, readTemplateFiles } from "../../provider/declarative/templateFiles";

const EXAMPLES = path.join(__dirname, "..", "..", "examples", "templates-from-files", "templates");

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function dirWith(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "template-files-"));
    made.push(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
}

describe("templates from files", () => {
    it("reads the example directory: one template per file, named by the file", () => {
        const files = readTemplateFiles(EXAMPLES);
        expect(files.map((f) => f.name)).toEqual(["private-inference", "pytorch-trainer"]);
        expect(files[1].args).toMatchObject({ name: "pytorch-trainer", image: "pytorch/pytorch", env: { HF_HOME: "/workspace/hf" } });
    });

    it("reads JSON as well as YAML", () => {
        const dir = dirWith({ "a.json": JSON.stringify({ name: "a", image: "busybox" }), "notes.txt": "ignored" });
        expect(readTemplateFiles(dir)).toEqual([{ file: path.join(dir, "a.json"), name: "a", args: { name: "a", image: "busybox" } }]);
    });

    it("names the file and the property of each problem", () => {
        const dir = dirWith({ "bad.yaml": "name: bad\nimage: busybox\nrecommendedDiskSpace: lots\ncolor: red\n" });
        expect(() => readTemplateFiles(dir)).toThrow(TemplateFileError);
        expect(() => readTemplateFiles(dir)).toThrow(/bad\.yaml: recommendedDiskSpace: .*expected number.*; color: unknown property "color"/);
    });

    it("keeps registry tokens out of git", () => {
        const dir = dirWith({ "private.yaml": "name: p\nimage: ghcr.io/x/y\ndockerLoginPass: ghp_123\n" });
        expect(() => readTemplateFiles(dir)).toThrow(/private\.yaml: dockerLoginPass: keep registry tokens out of git/);
    });

    it("refuses unreadable files and duplicate names", () => {
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "name: [unclosed\n" }))).toThrow(/x\.yaml: /);
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "- a\n- b\n" }))).toThrow(/expected a mapping/);
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "name: a\nimage: b\n", "x.json": '{"name":"a","image":"b"}' }))).toThrow(/same name as/);
    });
});
