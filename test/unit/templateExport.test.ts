import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { existingTemplateFiles } from "../../provider/declarative/existingTemplateFiles";
import { roundTripProblems } from "../../provider/declarative/exportRoundTrip";
import { ExportPlan, exportTemplates } from "../../provider/declarative/templateExport";
import { TemplateFileError } from "../../provider/declarative/templateFileReader";
import { readTemplateFiles } from "../../provider/declarative/templateFiles";
import { TemplateRecord } from "../../provider/schemas/template";

/**
 * The export against the folder it writes into: which template goes to which file, and that the
 * folder it leaves reads back (readTemplateFiles) with each template in one file only.
 */

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function dirWith(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "template-export-"));
    made.push(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
}

const record = (id: number, name: string, extra: Partial<TemplateRecord> = {}): TemplateRecord => ({ id, hash_id: `h${id}`, creator_id: 1, name, image: "pytorch/pytorch", ...extra });

/** Writes what the export planned into `dir`, as the command does. */
function write(dir: string, plan: ExportPlan): void {
    for (const t of plan.exported) for (const f of t.files) fs.writeFileSync(path.join(dir, f.name), f.text);
}

describe("export into a folder that has template files", () => {
    // Before: only `adopt` linked a template to its file, so a file that made its template with
    // `pulumi up` got a second file beside it adopting the same template: a second resource for
    // one template, and removing that file later deleted the template under the first.
    it("a template whose name a file without adopt gives is left to that file, and said so", () => {
        const dir = dirWith({ "trainer.yaml": "name: PyTorch Trainer\nimage: pytorch/pytorch\n" });
        const plan = exportTemplates([record(7, "PyTorch Trainer"), record(8, "Other")], existingTemplateFiles(dir));
        expect(plan.exported.map((t) => t.templateId)).toEqual([8]);
        expect(plan.inFileWithoutAdopt).toEqual([{ templateId: 7, templateName: "PyTorch Trainer", file: "trainer.yaml" }]);
        write(dir, plan);
        expect(readTemplateFiles(dir).map((t) => [t.name, t.args.adopt])).toEqual([["other", 8], ["trainer", undefined]]);
    });

    // Before: a file that did not parse counted with no adopt, so the export wrote a second file
    // adopting the template it held.
    it("a file that does not read (a merge conflict left in) stops the export, naming it", () => {
        const dir = dirWith({ "trainer.yaml": "name: PyTorch Trainer\n<<<<<<< HEAD\nadopt: 7\n=======\nadopt: 8\n>>>>>>> theirs\nimage: pytorch/pytorch\n", "ok.yaml": "name: ok\nimage: busybox\n" });
        let error: unknown;
        try {
            existingTemplateFiles(dir);
        } catch (e) {
            error = e;
        }
        expect(error).toBeInstanceOf(TemplateFileError);
        expect((error as TemplateFileError).problems).toEqual([{ file: path.join(dir, "trainer.yaml"), line: 2, column: 1, reason: expect.any(String) }]);
    });

    // Before: only files' base names were taken, so a template named as another file's
    // resourceName got a file making the same resource, and the folder no longer read.
    it("a new file's name is not a resource name another file sets", () => {
        const dir = dirWith({ "pytorch.yaml": "resourceName: trainer\nname: PyTorch\nimage: pytorch/pytorch\nadopt: 5\n" });
        const plan = exportTemplates([record(5, "PyTorch"), record(9, "Trainer")], existingTemplateFiles(dir));
        expect(plan.exported.map((t) => t.files[0].name)).toEqual(["pytorch.yaml", "trainer-9.yaml"]);
        write(dir, plan);
        expect(readTemplateFiles(dir).map((t) => [t.name, t.args.adopt])).toEqual([["trainer", 5], ["trainer-9", 9]]);
    });

    // Before: the id was added once and never checked again: "x-6" (template 3) and the second
    // "x" (template 6) both got x-6.yaml, and one template's file was lost.
    it("a name made unique is checked again, and names differing in case only are the same name", () => {
        const plan = exportTemplates([record(3, "x-6"), record(5, "x"), record(6, "x")]);
        expect(plan.exported.map((t) => t.files[0].name)).toEqual(["x-6.yaml", "x.yaml", "x-6-2.yaml"]);
        const dir = dirWith({ "Trainer.yaml": "name: Old\nimage: busybox\nadopt: 1\n" });
        expect(exportTemplates([record(2, "trainer")], existingTemplateFiles(dir)).exported[0].files[0].name).toBe("trainer-2.yaml");
        write(dir, exportTemplates([record(3, "x-6"), record(5, "x"), record(6, "x")], existingTemplateFiles(dir)));
        expect(readTemplateFiles(dir).map((t) => t.args.adopt as number).sort((a, b) => a - b)).toEqual([1, 3, 5, 6]);
    });

    // Before: the file's choice for the registry password was not carried: `dockerLoginPass: {
    // secret: registryToken }` was rewritten to `<name>-dockerLoginPass` (and `up` then failed on
    // that missing config key), and a file without it, whose program passes the password with the
    // `secrets` option, gained one (and templatesFromFiles then refused the two).
    it("re-export keeps the registry password where the file has it: the stack secret it names, or none", () => {
        const login = { docker_login_repo: "ghcr.io", docker_login_user: "acme-bot" };
        const named = dirWith({ "inference.yaml": "adopt: 5\nname: Inference\nimage: pytorch/pytorch\ndockerLoginRepo: ghcr.io\ndockerLoginUser: acme-bot\ndockerLoginPass: { secret: registryToken }\n" });
        const again = exportTemplates([record(5, "Inference", login)], existingTemplateFiles(named));
        expect(again.exported[0].secrets).toEqual([{ key: "registryToken", holds: "registry token" }]);
        write(named, again);
        expect(readTemplateFiles(named)[0].dockerLoginPassSecret).toBe("registryToken");

        const byProgram = dirWith({ "inference.yaml": "adopt: 5\nname: Inference\nimage: pytorch/pytorch\ndockerLoginRepo: ghcr.io\ndockerLoginUser: acme-bot\n" });
        const kept = exportTemplates([record(5, "Inference", { ...login, tag: "2.0" })], existingTemplateFiles(byProgram));
        expect(kept.exported[0].secrets).toEqual([]);
        write(byProgram, kept);
        expect(readTemplateFiles(byProgram)[0]).toMatchObject({ args: { tag: "2.0", dockerLoginUser: "acme-bot" } });
        expect(readTemplateFiles(byProgram)[0].dockerLoginPassSecret).toBeUndefined();

        // A new file names one, for the command to say to set.
        expect(exportTemplates([record(5, "Inference", login)]).exported[0].secrets).toEqual([{ key: "inference-dockerLoginPass", holds: "registry token" }]);
    });

    // Before: only onstart and an env flag string were searched, so `args_str: --api-key sk-…`
    // was written into a file meant for git without a word.
    it("a credential in argsStr, readme or desc is written as it is (only env can name a stack secret), and reported", () => {
        const plan = exportTemplates([
            record(4, "server", { args_str: "--api-key sk-0123456789abcdefghij --hf-token hf_AbCdEfGhIjKlMnOpQrStUv --port 8000", readme: "Token: ghp_0123456789abcdefghij" }),
        ]);
        expect(plan.exported[0].plainCredentials).toEqual([
            "readme holds what looks like a token (ghp_…)",
            "argsStr passes --api-key what looks like a credential",
            "argsStr passes --hf-token what looks like a credential",
        ]);
    });

    // Before: these were written into files that every `up` then refused (or, for `tag: ""`,
    // left out, so adopting edited the tag to latest and changed the image).
    it("each file is read back before it is written: a template it would not give back is left out, naming the field", () => {
        const plan = exportTemplates([
            record(1, "flags", { env: "-e A=1 --shm-size=1g" }),
            record(2, "no disk", { recommended_disk_space: 0 }),
            record(3, "proxy", { runtype: "ssh_proxy" }),
            record(4, "public token", { private: false, env: "-e HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUv" }),
            record(5, "fine", { tag: "2.4" }),
            record(6, "", {}),
        ]);
        // A public template's env is public already: written as it is, and warned about (a stack
        // secret for it would be refused, and the template left out).
        expect(plan.exported.map((t) => t.templateId)).toEqual([4, 5]);
        expect(plan.exported[0].plainCredentials).toEqual(["env HF_TOKEN looks like a credential"]);
        expect(plan.exported[0].secrets).toEqual([]);
        expect(plan.cannotRoundTrip).toEqual([
            { templateId: 1, templateName: "flags", problems: [expect.stringMatching(/^env: unsupported env flag "--shm-size"/)] },
            { templateId: 2, templateName: "no disk", problems: [expect.stringMatching(/^recommendedDiskSpace: must be a positive number of GB/)] },
            { templateId: 3, templateName: "proxy", problems: [expect.stringMatching(/^runtype: /)] },
            { templateId: 6, templateName: "", problems: ["has no name"] },
        ]);
    });

    // Before: the public template's env was written as it is, and a value the file had kept in a
    // stack secret went into git in plain text (only credential-looking values were warned about).
    it("a template made public whose file keeps an env value in a stack secret is not written, and the plan says which variables", () => {
        const dir = dirWith({ "t.yaml": "adopt: 7\nname: T\nimage: pytorch/pytorch\nenv:\n  INTERNAL_URL: {secret: t-env-INTERNAL_URL}\n" });
        const plan = exportTemplates(
            [record(7, "T", { env: "-e INTERNAL_URL=https://10.0.0.5/internal-abcdefgh", private: false }), record(8, "U", { env: "-e INTERNAL_URL=https://10.0.0.5/internal-abcdefgh", private: false })],
            existingTemplateFiles(dir),
        );
        expect(plan.exported.map((t) => t.templateId)).toEqual([8]);
        expect(plan.publicWithStackSecrets).toEqual([{ templateId: 7, templateName: "T", file: "t.yaml", secrets: [{ variable: "INTERNAL_URL", key: "t-env-INTERNAL_URL" }] }]);
        expect(plan.cannotRoundTrip).toEqual([]);
        // Private, it is written with the stack secret, never the value.
        const { exported: [again] } = exportTemplates([record(7, "T", { env: "-e INTERNAL_URL=https://10.0.0.5/internal-abcdefgh", private: true })], existingTemplateFiles(dir));
        expect(again.files[0].text).toContain("INTERNAL_URL:\n    secret: t-env-INTERNAL_URL\n");
        expect(again.files[0].text).not.toContain("10.0.0.5");
    });

    it("an empty tag is written as it is, and reads back as no tag rather than latest", () => {
        const plan = exportTemplates([record(7, "own tag", { image: "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime", tag: "" })]);
        expect(plan.cannotRoundTrip).toEqual([]);
        expect(plan.exported[0].files[0].text).toContain('\ntag: ""\n');
        const dir = dirWith({});
        write(dir, plan);
        expect(readTemplateFiles(dir)[0].args.tag).toBe("");
    });

    it("a file that reads but would edit the template on adoption does not round-trip either", () => {
        const files = [{ name: "x.yaml", text: "adopt: 7\nname: x\nimage: pytorch/pytorch\nonstart: { file: ./x.onstart.sh }\n" }, { name: "x.onstart.sh", text: "echo hi\n" }];
        expect(roundTripProblems(record(7, "x", { onstart: "echo hi\n" }), files)).toEqual([]);
        expect(roundTripProblems(record(7, "x", { onstart: "echo hi\n", tag: "", runtype: "ssh" }), files)).toEqual([
            "tag, runtype: the file would not read back as the template has it, and the first `pulumi up` would edit it",
        ]);
    });
});
