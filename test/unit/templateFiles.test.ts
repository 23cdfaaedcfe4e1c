import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { exportTemplates } from "../../provider/declarative/templateExport";
import { existingTemplateFiles } from "../../provider/declarative/existingTemplateFiles";
import { TemplateFileError, TemplateFileProblem } from "../../provider/declarative/templateFileReader";
import { readTemplateFiles, templatesFromFiles } from "../../provider/declarative/templateFiles";
import { VastError } from "../../provider/client/errors";
import { TemplateRecord } from "../../provider/schemas/template";

const EXAMPLES = path.join(__dirname, "..", "..", "examples", "templates-from-files", "templates");

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function dirWith(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "template-files-"));
    made.push(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
}

function problemsOf(dir: string): TemplateFileProblem[] {
    try {
        readTemplateFiles(dir);
    } catch (e) {
        if (e instanceof TemplateFileError) return e.problems;
        throw e;
    }
    throw new Error("no problem reported");
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

    it("names the file, line, column and property of each problem", () => {
        const dir = dirWith({ "bad.yaml": "# a comment\nname: bad\nimage: busybox\nrecommendedDiskSpace: lots\ncolor: red\n" });
        const file = path.join(dir, "bad.yaml");
        const problems = problemsOf(dir);
        expect(problems).toEqual([
            { file, line: 4, column: 23, property: "recommendedDiskSpace", reason: expect.stringMatching(/expected number/) },
            { file, line: 5, column: 1, property: "color", reason: 'unknown property "color"' },
        ]);
        expect(() => readTemplateFiles(dir)).toThrow(`${file}:4:23: recommendedDiskSpace: `);
        expect(() => readTemplateFiles(dir)).toThrow(`${file}:5:1: color: unknown property "color"`);
    });

    // Before: plain Errors, which a program catching VastError for the package's failures missed.
    it("a file problem, and a secret given for no file, are VastErrors (kind config), as every error the package throws", () => {
        const dir = dirWith({ "bad.yaml": "name: bad\nimage: busybox\ncolor: red\n" });
        const fileProblem = (() => {
            try {
                templatesFromFiles(dir);
            } catch (e) {
                return e;
            }
        })();
        expect(fileProblem).toBeInstanceOf(TemplateFileError);
        expect(fileProblem).toBeInstanceOf(VastError);
        expect(fileProblem).toMatchObject({ kind: "config", name: "TemplateFileError", message: `vastai: ${path.join(dir, "bad.yaml")}:3:1: color: unknown property "color"` });

        const good = dirWith({ "trainer.yaml": "name: trainer\nimage: busybox\n" });
        const noFile = (() => {
            try {
                templatesFromFiles(good, { secrets: { trainr: { dockerLoginPass: "x" } } });
            } catch (e) {
                return e;
            }
        })();
        expect(noFile).toBeInstanceOf(VastError);
        expect(noFile).toMatchObject({ kind: "config", message: expect.stringMatching(/^vastai: secrets given for templates with no file in .*: trainr; did you mean "trainer"\?$/) });
    });

    it("a wrong type deep in a mapping is reported at its own line", () => {
        const dir = dirWith({ "deep.yaml": "name: d\nimage: busybox\nenv:\n  HF_HOME: /hf\n  PORT: 8080\nextraFilters:\n  gpu_ram: 24\n" });
        const problems = problemsOf(dir);
        expect(problems.map((p) => [p.line, p.column, p.property])).toEqual([
            [5, 9, "env.PORT"],
            [7, 12, "extraFilters.gpu_ram"],
        ]);
    });

    it("an unknown key near a property's name suggests it", () => {
        const dir = dirWith({ "typo.yaml": "name: t\nimage: busybox\nrecomendedDiskSpace: 40\nonStart: echo hi\n" });
        expect(problemsOf(dir)).toEqual([
            expect.objectContaining({ line: 3, column: 1, property: "recomendedDiskSpace", reason: 'unknown property "recomendedDiskSpace"; did you mean "recommendedDiskSpace"?' }),
            expect.objectContaining({ line: 4, column: 1, property: "onStart", reason: 'unknown property "onStart"; did you mean "onstart"?' }),
        ]);
    });

    it("keeps registry tokens out of git; a file names the stack secret instead", () => {
        const dir = dirWith({ "private.yaml": "name: p\nimage: ghcr.io/x/y\ndockerLoginPass: ghp_123\n" });
        expect(problemsOf(dir)).toEqual([expect.objectContaining({ line: 3, column: 18, property: "dockerLoginPass", reason: expect.stringMatching(/keep registry tokens out of git/) })]);
        expect(() => readTemplateFiles(dir)).not.toThrow(/ghp_123/);
        const named = dirWith({ "private.yaml": "name: p\nimage: ghcr.io/x/y\ndockerLoginUser: bot\ndockerLoginPass: { secret: p-dockerLoginPass }\n" });
        const [read] = readTemplateFiles(named);
        expect(read.args).toEqual({ name: "p", image: "ghcr.io/x/y", dockerLoginUser: "bot" });
        expect(read.dockerLoginPassSecret).toBe("p-dockerLoginPass");
    });

    // Before: an unknown tag was read as if it were not there (`image: !Ref foo` became "foo"), and
    // a merge key was reported only as the unknown property "<<".
    it("refuses YAML tags it does not know and merge keys, each where it is", () => {
        const tagged = dirWith({ "t.yaml": "name: t\nimage: !Ref foo\n" });
        expect(problemsOf(tagged)).toEqual([{ file: path.join(tagged, "t.yaml"), line: 2, column: 8, reason: "Unresolved tag: !Ref: template files take no YAML tags; write the value itself" }]);
        const merged = dirWith({ "m.yaml": "name: m\nimage: busybox\nenv:\n  <<: { A: '1' }\n  B: '2'\n" });
        expect(problemsOf(merged)).toEqual([{ file: path.join(merged, "m.yaml"), line: 4, column: 3, reason: "merge keys (<<) are not supported in template files: write the properties out" }]);
    });

    it("reads onstart and readme from files beside the template file", () => {
        const dir = dirWith({
            "t.yaml": "name: t\nimage: busybox\nonstart: { file: ./t.onstart.sh }\nreadme:\n  file: docs/t.md\n",
            "t.onstart.sh": "#!/bin/bash\nset -e\necho one\necho two\n",
        });
        fs.mkdirSync(path.join(dir, "docs"));
        fs.writeFileSync(path.join(dir, "docs", "t.md"), "# T\n");
        expect(readTemplateFiles(dir)[0].args).toEqual({ name: "t", image: "busybox", onstart: "#!/bin/bash\nset -e\necho one\necho two\n", readme: "# T\n" });
        const missing = dirWith({ "t.yaml": "name: t\nimage: busybox\nonstart:\n  file: ./gone.sh\n" });
        expect(problemsOf(missing)).toEqual([expect.objectContaining({ line: 4, column: 9, property: "onstart.file", reason: expect.stringMatching(/cannot read \.\/gone\.sh/) })]);
        const wrong = dirWith({ "t.yaml": "name: t\nimage: busybox\nonstart: { path: ./t.sh }\n" });
        expect(problemsOf(wrong)).toEqual([expect.objectContaining({ line: 3, property: "onstart", reason: expect.stringMatching(/expected text, or \{ file: \.\/path \}/) })]);
    });

    // Before: any path was read, and its text sent to the service: `readme: { file: /proc/self/environ }`
    // put the environment of the machine running `up` (CI secrets) into the template. A relative
    // path, which a review of the file sees in the repository, may lead to a folder beside it.
    it("a file named by an absolute path is refused; a relative one is read wherever it leads in the project, ../ included", () => {
        const project = dirWith({});
        const templates = path.join(project, "templates");
        fs.mkdirSync(templates);
        fs.mkdirSync(path.join(project, "scripts"));
        fs.writeFileSync(path.join(project, "scripts", "setup.sh"), "echo shared\r\n");
        fs.writeFileSync(path.join(templates, "t.yaml"), "name: t\nimage: busybox\nreadme: { file: /proc/self/environ }\nonstart:\n  file: ../scripts/setup.sh\n");
        const cwd = jest.spyOn(process, "cwd").mockReturnValue(project);
        try {
            expect(problemsOf(templates)).toEqual([
                expect.objectContaining({ line: 3, column: 17, property: "readme.file", reason: "/proc/self/environ is an absolute path: name the file relative to t.yaml's folder, as ./path or ../path" }),
            ]);
            fs.writeFileSync(path.join(templates, "t.yaml"), "name: t\nimage: busybox\nonstart:\n  file: ../scripts/setup.sh\n");
            expect(readTemplateFiles(templates)[0].args.onstart).toBe("echo shared\n");
        } finally {
            cwd.mockRestore();
        }
    });

    // Before: only the absolute form was refused, so `./../../../proc/self/environ`, or a link
    // beside the template file, sent any file of the machine running `up` all the same.
    it("a file that leads outside the project and the templates folder, by ../ or a link, is refused, naming the field and what is allowed", () => {
        const project = dirWith({});
        const templates = path.join(project, "templates");
        fs.mkdirSync(templates);
        const outside = dirWith({ "secret.txt": "CI_TOKEN=abc\n" });
        const up = path.relative(templates, "/").split(path.sep).map(() => "..").join("/");
        fs.writeFileSync(path.join(templates, "t.yaml"), `name: t\nimage: busybox\nreadme: { file: ./${up}/proc/self/environ }\nonstart: { file: ./linked.sh }\n`);
        fs.symlinkSync(path.join(outside, "secret.txt"), path.join(templates, "linked.sh"));
        const cwd = jest.spyOn(process, "cwd").mockReturnValue(project);
        try {
            const allowed = `outside the Pulumi project (${fs.realpathSync(project)}) and the templates folder (${fs.realpathSync(templates)}): name a file inside one of them`;
            expect(problemsOf(templates)).toEqual([
                expect.objectContaining({ file: path.join(templates, "t.yaml"), property: "onstart.file", reason: `./linked.sh leads to ${fs.realpathSync(path.join(outside, "secret.txt"))}, ${allowed}` }),
                expect.objectContaining({ file: path.join(templates, "t.yaml"), property: "readme.file", reason: expect.stringMatching(/^\.\/(\.\.\/)+proc\/self\/environ leads to \/proc\/\d+\/environ, outside the Pulumi project/) }),
            ]);
            // A link that stays in the project is read.
            fs.writeFileSync(path.join(project, "setup.sh"), "echo in project\n");
            fs.rmSync(path.join(templates, "linked.sh"));
            fs.symlinkSync(path.join(project, "setup.sh"), path.join(templates, "linked.sh"));
            fs.writeFileSync(path.join(templates, "t.yaml"), "name: t\nimage: busybox\nonstart: { file: ./linked.sh }\n");
            expect(readTemplateFiles(templates)[0].args.onstart).toBe("echo in project\n");
        } finally {
            cwd.mockRestore();
        }
        // The templates folder is allowed wherever the program runs.
        expect(readTemplateFiles(dirWith({ "t.yaml": "name: t\nimage: busybox\nonstart: { file: ./t.sh }\n", "t.sh": "echo here\n" }))[0].args.onstart).toBe("echo here\n");
    });

    it("the file's base name is the resource name unless it sets resourceName", () => {
        const dir = dirWith({ "a.yaml": "name: a\nimage: busybox\n", "b.yaml": "resourceName: trainer\nname: b\nimage: busybox\nadopt: 30005\n" });
        expect(readTemplateFiles(dir).map((t) => [t.name, t.args.adopt])).toEqual([["a", undefined], ["trainer", 30005]]);
        expect(problemsOf(dirWith({ "a.yaml": "resourceName: 'no spaces'\nname: a\nimage: b\n" }))).toEqual([
            expect.objectContaining({ line: 1, column: 15, property: "resourceName" }),
        ]);
    });

    // A name from the file is taken as it is (a stack made from `My Trainer.yaml` keeps its
    // resource), unless it cannot be a resource name at all: `::` separates a URN's parts.
    it("a resource name taken from the file's name is refused only when it holds '::'", () => {
        const dir = dirWith({ "My Trainer.yaml": "name: a\nimage: b\n", "h::x.yaml": "name: b\nimage: b\n" });
        expect(problemsOf(dir).map((p) => [path.basename(p.file), p.reason])).toEqual([["h::x.yaml", expect.stringContaining('makes the resource name "h::x", which cannot be one')]]);
        expect(readTemplateFiles(dirWith({ "My Trainer.yaml": "name: a\nimage: b\n" }))[0].name).toBe("My Trainer");
        expect(readTemplateFiles(dirWith({ "My Template.yaml": "resourceName: my-template\nname: a\nimage: b\n" }))[0].name).toBe("my-template");
    });

    // Before: not read, so a file moved into a subfolder was a removed file, and `up` deleted its template.
    it("a template file in a subfolder is refused, naming it; other files there (a readme, a script) are not", () => {
        const dir = dirWith({ "a.yaml": "name: a\nimage: busybox\nreadme: { file: ./docs/a.md }\n" });
        for (const sub of ["docs", "old", path.join("old", "deeper"), ".git"]) fs.mkdirSync(path.join(dir, sub));
        fs.writeFileSync(path.join(dir, "docs", "a.md"), "# A\n");
        fs.writeFileSync(path.join(dir, ".git", "config.json"), "{}");
        expect(readTemplateFiles(dir).map((t) => t.name)).toEqual(["a"]);
        fs.writeFileSync(path.join(dir, "old", "b.yaml"), "adopt: 7\nname: b\nimage: busybox\n");
        fs.writeFileSync(path.join(dir, "old", "deeper", "c.JSON"), '{"name": "c", "image": "busybox"}');
        expect(problemsOf(dir)).toEqual([
            { file: path.join(dir, "old", "b.yaml"), reason: expect.stringContaining(`is in a subfolder of ${dir}, and only the files directly in ${dir} are read: move it into ${dir}, or out of ${dir}`) },
            { file: path.join(dir, "old", "deeper", "c.JSON"), reason: expect.stringContaining(`is in a subfolder of ${dir}`) },
        ]);
    });

    it("refuses unreadable files, duplicate names and one template adopted twice", () => {
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "name: [unclosed\n" }))).toThrow(/x\.yaml:\d+:\d+: /);
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "- a\n- b\n" }))).toThrow(/expected a mapping/);
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "name: a\nimage: b\n", "x.json": '{"name":"a","image":"b"}' }))).toThrow(/makes the resource "x", as .*x\.json does/);
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "name: a\nimage: b\nadopt: 7\n", "y.yaml": "name: a\nimage: b\nadopt: 7\n" }))).toThrow(/adopt: template 7 is adopted by .*x\.yaml too/);
        expect(() => readTemplateFiles(dirWith({ "x.yaml": "name: a\nname: b\nimage: c\n" }))).toThrow(/x\.yaml:2:1: .*[Mm]ap keys must be unique/);
    });

    // Before: both passed the files check and preview; at `up` the second create was answered with
    // the first's template ("existing template found") and refused, after other templates had changed.
    it("two files whose templates would be identical are refused, naming both, when one of them creates its template", () => {
        const identical = dirWith({ "y1.yaml": "name: probe-y\nimage: alpine\n", "y2.yaml": "name: probe-y\nimage: alpine\n" });
        expect(problemsOf(identical)).toEqual([
            {
                file: path.join(identical, "y2.yaml"),
                reason: expect.stringContaining(`makes a template identical to the one ${path.join(identical, "y1.yaml")} makes (every field the service stores is the same)`),
            },
        ]);
        // Compared as the create sends them: defaults filled in, env as the service's flag string.
        const canonical = dirWith({ "a.yaml": "name: t\nimage: alpine\ntag: latest\nenv: -e A=1\n", "b.yaml": "name: t\nimage: alpine\nenv:\n  A: '1'\n" });
        expect(problemsOf(canonical).map((p) => path.basename(p.file))).toEqual(["b.yaml"]);
        // A file that adopts a template edits it to that content, and the other's create then finds it.
        const adopted = dirWith({ "a.yaml": "adopt: 7\nname: t\nimage: alpine\n", "b.yaml": "name: t\nimage: alpine\n" });
        expect(problemsOf(adopted)).toEqual([expect.objectContaining({ reason: expect.stringContaining(`the one ${path.join(adopted, "a.yaml")} adopts`) })]);
        // One stack secret key is one value.
        const sameSecret = "name: t\nimage: alpine\nprivate: true\nenv:\n  HF_TOKEN: { secret: hf }\n";
        expect(problemsOf(dirWith({ "a.yaml": sameSecret, "b.yaml": sameSecret })).map((p) => path.basename(p.file))).toEqual(["b.yaml"]);
    });

    it("files that differ in anything the service stores, or whose difference cannot be told, are not taken as identical", () => {
        const ok = (files: Record<string, string>, passwordsFromProgram: string[] = []) => expect(() => readTemplateFiles(dirWith(files), passwordsFromProgram)).not.toThrow();
        ok({ "a.yaml": "name: t\nimage: alpine\n", "b.yaml": "name: u\nimage: alpine\n" });
        ok({ "a.yaml": "name: t\nimage: alpine\n", "b.yaml": "name: t\nimage: alpine\nprivate: false\n" });
        // Two adopted templates are two templates already.
        ok({ "a.yaml": "adopt: 7\nname: t\nimage: alpine\n", "b.yaml": "adopt: 8\nname: t\nimage: alpine\n" });
        // Two stack secrets may hold different values; so may two passwords the program gives.
        ok({ "a.yaml": "name: t\nimage: alpine\nprivate: true\nenv:\n  HF_TOKEN: { secret: a }\n", "b.yaml": "name: t\nimage: alpine\nprivate: true\nenv:\n  HF_TOKEN: { secret: b }\n" });
        ok({ "a.yaml": "name: t\nimage: alpine\nprivate: true\nenv:\n  HF_TOKEN: ''\n", "b.yaml": "name: t\nimage: alpine\nprivate: true\nenv:\n  HF_TOKEN: { secret: b }\n" });
        ok({ "a.yaml": "name: t\nimage: r/x\ndockerLoginUser: bot\ndockerLoginPass: { secret: a }\n", "b.yaml": "name: t\nimage: r/x\ndockerLoginUser: bot\ndockerLoginPass: { secret: b }\n" });
        ok({ "a.yaml": "name: t\nimage: r/x\ndockerLoginUser: bot\n", "b.yaml": "name: t\nimage: r/x\ndockerLoginUser: bot\n" }, ["b"]);
    });

    it("exports a record as the file that reads back to it: stable order, defaults left out, long texts beside it, no password", () => {
        const record: TemplateRecord = {
            id: 30005,
            hash_id: "0123456789abcdef0123456789abcdef",
            creator_id: 1001,
            created_at: 1_700_000_000,
            private: true,
            recommended_disk_space: 8,
            runtype: "ssh",
            name: "PyTorch Trainer (v2)",
            image: "ghcr.io/acme/trainer",
            tag: "1.8",
            env: "-p 8888:8888 -e HF_HOME=/workspace/hf",
            onstart: "#!/bin/bash\nset -e\npip install -q accelerate\nexec python train.py\n",
            readme: "Short readme.",
            ssh_direct: false,
            jupyter_dir: null,
            docker_login_repo: "ghcr.io",
            docker_login_user: "acme-bot",
            extra_filters: {},
        };
        const { exported: [exported, second] } = exportTemplates([record, { ...record, id: 30006 }]);
        expect([exported.name, second.name]).toEqual(["pytorch-trainer-v2", "pytorch-trainer-v2-30006"]);
        expect(exported.files.map((f) => f.name)).toEqual(["pytorch-trainer-v2.yaml", "pytorch-trainer-v2.onstart.sh"]);
        expect(exported.files[0].text).toBe(
            [
                "# Vast.ai template 30005, exported by pulumi-vastai export-templates.",
                "# adopt: the first `pulumi up` takes this template over instead of creating one.",
                "# Not exported; set each as a stack secret before the first `pulumi up`:",
                "#   pulumi config set --secret pytorch-trainer-v2-dockerLoginPass <registry token>",
                "",
                "adopt: 30005",
                "name: PyTorch Trainer (v2)",
                "image: ghcr.io/acme/trainer",
                'tag: "1.8"',
                "readme: Short readme.",
                "env:",
                "  HF_HOME: /workspace/hf",
                '  -p 8888:8888: "1"',
                "onstart:",
                "  file: ./pytorch-trainer-v2.onstart.sh",
                "runtype: ssh",
                "dockerLoginRepo: ghcr.io",
                "dockerLoginUser: acme-bot",
                "dockerLoginPass:",
                "  secret: pytorch-trainer-v2-dockerLoginPass",
                "",
            ].join("\n"),
        );
        const dir = dirWith(Object.fromEntries(exported.files.map((f) => [f.name, f.text])));
        expect(readTemplateFiles(dir)).toEqual([
            {
                file: path.join(dir, "pytorch-trainer-v2.yaml"),
                name: "pytorch-trainer-v2",
                args: {
                    adopt: 30005,
                    name: "PyTorch Trainer (v2)",
                    image: "ghcr.io/acme/trainer",
                    tag: "1.8",
                    readme: "Short readme.",
                    env: { HF_HOME: "/workspace/hf", "-p 8888:8888": "1" },
                    onstart: record.onstart,
                    runtype: "ssh",
                    dockerLoginRepo: "ghcr.io",
                    dockerLoginUser: "acme-bot",
                },
                dockerLoginPassSecret: "pytorch-trainer-v2-dockerLoginPass",
            },
        ]);
        expect(exported.secrets).toEqual([{ key: "pytorch-trainer-v2-dockerLoginPass", holds: "registry token" }]);
    });

    it("an env value that looks like a credential is exported as the stack secret to set, not as its value, and reads back as that secret", () => {
        const token = "hf_AbCdEfGhIjKlMnOpQrStUv";
        const record: TemplateRecord = {
            id: 30007,
            hash_id: "0123456789abcdef0123456789abcdef",
            creator_id: 1001,
            name: "Trainer",
            image: "pytorch/pytorch",
            env: `-e HF_TOKEN=${token} -e TOKENIZERS_PARALLELISM=false -e RUN_NAME=nightly-sweep -p 8888:8888`,
            onstart: "export WANDB_API_KEY=0123456789abcdef0123\npython train.py",
        };
        const { exported: [exported] } = exportTemplates([record]);
        const text = exported.files.map((f) => f.text).join("\n");
        expect(text).not.toContain(token);
        expect(text).toContain("#   pulumi config set --secret trainer-env-HF_TOKEN <value of env HF_TOKEN>");
        expect(exported.secrets).toEqual([{ key: "trainer-env-HF_TOKEN", holds: "value of env HF_TOKEN" }]);
        // An onstart script cannot be split: it is written as it is, and said to hold one.
        expect(exported.plainCredentials).toEqual(["onstart sets WANDB_API_KEY to what looks like a credential"]);

        const dir = dirWith(Object.fromEntries(exported.files.map((f) => [f.name, f.text])));
        const [read] = readTemplateFiles(dir);
        expect(read.args.env).toEqual({ TOKENIZERS_PARALLELISM: "false", RUN_NAME: "nightly-sweep", "-p 8888:8888": "1" });
        expect(read.envSecrets).toEqual({ HF_TOKEN: "trainer-env-HF_TOKEN" });
        expect(read.plainCredentials).toEqual([{ property: "onstart", name: "WANDB_API_KEY" }]);

        // A second export keeps the stack secrets the file there names, under their names, even for a value that does not look like one.
        fs.writeFileSync(
            path.join(dir, "trainer.yaml"),
            exported.files[0].text.replace("RUN_NAME: nightly-sweep", "RUN_NAME: { secret: run-name }").replace("trainer-env-HF_TOKEN\n", "hf-token\n"),
        );
        const { exported: [again] } = exportTemplates([record], existingTemplateFiles(dir));
        expect(again.secrets).toEqual([{ key: "hf-token", holds: "value of env HF_TOKEN" }, { key: "run-name", holds: "value of env RUN_NAME" }]);
        expect(again.files[0].text).not.toContain("nightly-sweep");
    });

    it("env values may name stack secrets; another object there is refused where it is; a credential written in plain text is reported", () => {
        const dir = dirWith({
            "t.yaml": "name: t\nimage: busybox\nenv:\n  HF_TOKEN: { secret: t-hf }\n  HF_HOME: /hf\n  WANDB_API_KEY: 0123456789abcdef0123\n",
        });
        const [read] = readTemplateFiles(dir);
        expect(read).toMatchObject({ args: { env: { HF_HOME: "/hf", WANDB_API_KEY: "0123456789abcdef0123" } }, envSecrets: { HF_TOKEN: "t-hf" } });
        expect(read.plainCredentials).toEqual([{ property: "env", name: "WANDB_API_KEY" }]);
        const wrong = dirWith({ "t.yaml": "name: t\nimage: busybox\nenv:\n  HF_TOKEN: { file: ./token }\n" });
        expect(problemsOf(wrong)).toEqual([expect.objectContaining({ line: 4, column: 13, property: "env.HF_TOKEN", reason: expect.stringMatching(/expected text, or \{ secret: <stack config key> \}/) })]);
    });

    // Before: read as they were, so the first `up` after a Windows checkout edited the template.
    it("a file beside the template file is read with LF line ends and without a BOM", () => {
        const dir = dirWith({
            "t.yaml": "name: t\r\nimage: busybox\r\nonstart: { file: ./t.onstart.sh }\r\nreadme: { file: ./t.readme.md }\r\n",
            "t.onstart.sh": "\uFEFF#!/bin/bash\r\nset -euo pipefail\r\necho hi\r\n",
            "t.readme.md": "# T\r\n\r\nText.\r\n",
        });
        expect(readTemplateFiles(dir)[0].args).toEqual({ name: "t", image: "busybox", onstart: "#!/bin/bash\nset -euo pipefail\necho hi\n", readme: "# T\n\nText.\n" });
        // A text whose lines end in CRLF on the service stays inline, so it reads back as it is.
        const onstart = "echo 1\r\necho 2\r\necho 3\r\necho 4\r\n";
        const { exported: [exported] } = exportTemplates([{ id: 9, hash_id: "h", creator_id: 1, name: "crlf", image: "busybox", onstart }]);
        expect(exported.files.map((f) => f.name)).toEqual(["crlf.yaml"]);
        expect(readTemplateFiles(dirWith({ "crlf.yaml": exported.files[0].text }))[0].args.onstart).toBe(onstart);
    });

    // Before: only env and onstart were searched.
    it("a credential written into any text property is reported: argsStr, readme, desc", () => {
        const dir = dirWith({
            "s.yaml": 'name: s\nimage: busybox\nargsStr: "--api-key sk-0123456789abcdefghij --hf-token hf_AbCdEfGhIjKlMnOpQrStUv"\ndesc: uses ghp_0123456789abcdefghij\n',
        });
        expect(readTemplateFiles(dir)[0].plainCredentials).toEqual([
            { property: "argsStr", flag: "--api-key" },
            { property: "argsStr", flag: "--hf-token" },
            { property: "desc", token: "ghp_…" },
        ]);
    });

    // Before: `env: Invalid input`, which said nothing of what env may be.
    it("an env that is neither a mapping nor a flag string says what it may be, where it is", () => {
        const dir = dirWith({ "t.yaml": "name: t\nimage: busybox\nenv:\n  - FOO=1\n", "u.yaml": "name: u\nimage: busybox\nenv: 5\n" });
        const reason = 'expected a mapping of NAME: text (or { secret: <stack config key> }), or a flag string such as "-e NAME=value -p 8080:8080"';
        expect(problemsOf(dir)).toEqual([
            { file: path.join(dir, "t.yaml"), line: 4, column: 3, property: "env", reason },
            { file: path.join(dir, "u.yaml"), line: 3, column: 6, property: "env", reason },
        ]);
    });

    // Before: accepted, and the first `up` published the stack secret's value to every Vast.ai user.
    it("a stack secret in the env of a public template is refused, naming the file and the variable", () => {
        const dir = dirWith({ "t.yaml": "name: t\nimage: busybox\nprivate: false\nenv:\n  HF_HOME: /hf\n  HF_TOKEN: { secret: t-hf }\n" });
        expect(problemsOf(dir)).toEqual([
            { file: path.join(dir, "t.yaml"), line: 6, column: 13, property: "env.HF_TOKEN", reason: expect.stringMatching(/^names a stack secret, and the template is public \(private: false\)/) },
        ]);
        expect(readTemplateFiles(dirWith({ "t.yaml": "name: t\nimage: busybox\nprivate: true\nenv:\n  HF_TOKEN: { secret: t-hf }\n" }))[0].envSecrets).toEqual({ HF_TOKEN: "t-hf" });
    });

    // Before: only a .yaml file counted as holding its template, so a second export wrote another
    // file adopting the same id beside a .yml or .json one, and the folder no longer read.
    it("a template kept in a .yml or .json file is exported into that file, in its format", () => {
        const record: TemplateRecord = { id: 30005, hash_id: "h", creator_id: 1, name: "PyTorch Trainer", image: "pytorch/pytorch" };
        for (const [file, text] of [
            ["trainer.yml", "adopt: 30005\nname: PyTorch Trainer\nimage: pytorch/pytorch\n"],
            ["trainer.json", '{"adopt": 30005, "name": "PyTorch Trainer", "image": "pytorch/pytorch"}\n'],
        ]) {
            const dir = dirWith({ [file]: text });
            const { exported: [exported] } = exportTemplates([{ ...record, tag: "2.4" }], existingTemplateFiles(dir));
            for (const f of exported.files) fs.writeFileSync(path.join(dir, f.name), f.text);
            expect(fs.readdirSync(dir)).toEqual([file]);
            expect(readTemplateFiles(dir).map((t) => [t.name, t.args.adopt, t.args.tag])).toEqual([["trainer", 30005, "2.4"]]);
        }
        expect(JSON.parse(exportTemplates([record], [{ base: "trainer", extension: ".json", adopt: 30005 }]).exported[0].files[0].text)).toEqual({
            adopt: 30005,
            name: "PyTorch Trainer",
            image: "pytorch/pytorch",
        });
    });
});
