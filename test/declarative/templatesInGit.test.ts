import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Instance, Template, templatesFromFiles } from "../../provider";
import { main } from "../../provider/cli/main";
import { registerAsProgram } from "../../testkit/host/programMocks";
import { programSetting } from "../../testkit/support/programConfig";
import { TEST_TIME_SCALE, TestStack, startStack } from "../../testkit/support/stack";

/**
 * Templates in git, end to end, through Pulumi's dynamic-provider host against the emulator:
 * templates made in the "console" → `export-templates` → `templatesFromFiles` adopts them (no
 * create call, and the engine's plan after the `up` is empty) → an edited file edits only its
 * template → an instance on it is replaced → a removed file deletes its template.
 */

const REGISTRY_TOKEN = "ghp_registry_token_never_in_git_42";
const HF_TOKEN = "hf_env_token_never_in_git_0123456789";
const LONG_ONSTART = "#!/bin/bash\nset -euo pipefail\npip install -q transformers datasets accelerate\nhuggingface-cli login --token \"$HF_TOKEN\"\nexec python /workspace/train.py\n";
const TEMPLATE_PATH = "/api/v0/template/";
/** The SDK's wait for every registration the program sent to be answered (not in its typings). */
const { waitForRPCs } = require("@pulumi/pulumi/runtime/settings") as { waitForRPCs(): Promise<void> };

describe("templates in git: export, adopt, edit, remove", () => {
    let stack: TestStack;
    let dir: string;
    let setting: { restore(): void };
    const io = { lines: [] as string[], out: (l: string) => io.lines.push(l), err: (l: string) => io.lines.push(l) };

    beforeAll(async () => {
        stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 10, runningAfterMs: 50 }, offerReturnAfterMs: 0 } });
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "templates-in-git-"));
        // The registry password and the env token as `pulumi config set --secret` keeps them, under the keys the export names.
        setting = programSetting({
            config: { [`${stack.host.project}:private-inference-dockerLoginPass`]: REGISTRY_TOKEN, [`${stack.host.project}:pytorch-trainer-env-HF_TOKEN`]: HF_TOKEN },
        });
    });
    afterAll(async () => {
        setting.restore();
        fs.rmSync(dir, { recursive: true, force: true });
        await stack.stop();
    });

    it("exports the account's templates, then adopts every one of them without a create", async () => {
        const { emu, engine } = stack;
        const trainer = emu.model.addTemplate(emu.demoUser.id, {
            name: "PyTorch Trainer",
            image: "pytorch/pytorch",
            tag: "2.3.0-cuda12.1-cudnn8-runtime",
            // A volume flag too: the vendor CLI reads -v (and -n, -h), so files keep it.
            env: `-p 8888:8888 -e HF_HOME=/workspace/hf -e HF_TOKEN=${HF_TOKEN} -v /workspace/cache:/cache`,
            onstart: LONG_ONSTART,
            runtype: "ssh",
            ssh_direct: true,
            recommended_disk_space: 64,
            extra_filters: { gpu_ram: { gte: 24000 } },
            private: true,
            docker_login_repo: "",
            docker_login_user: "",
            docker_login_pass: "",
        });
        const inference = emu.model.addTemplate(emu.demoUser.id, {
            name: "private-inference",
            image: "ghcr.io/acme/inference-server",
            tag: "1.8.2",
            args_str: "--port 8000",
            runtype: "args",
            recommended_disk_space: 8,
            private: true,
            docker_login_repo: "ghcr.io",
            docker_login_user: "acme-bot",
            docker_login_pass: REGISTRY_TOKEN,
        });

        const code = await main(["export-templates", "--out", dir], {
            env: { VAST_API_KEY: emu.demoKey, VAST_URL: emu.url, VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) },
            out: io.out,
            err: io.err,
        });
        expect({ code, output: io.lines }).toMatchObject({ code: 0 });
        expect(fs.readdirSync(dir).sort()).toEqual(["private-inference.yaml", "pytorch-trainer.onstart.sh", "pytorch-trainer.yaml"]);
        expect(fs.readFileSync(path.join(dir, "pytorch-trainer.onstart.sh"), "utf8")).toBe(LONG_ONSTART);
        for (const file of fs.readdirSync(dir)) {
            expect(fs.readFileSync(path.join(dir, file), "utf8")).not.toContain(REGISTRY_TOKEN);
            expect(fs.readFileSync(path.join(dir, file), "utf8")).not.toContain(HF_TOKEN);
        }
        expect(io.lines).toContain("  pulumi config set --secret pytorch-trainer-env-HF_TOKEN <value of env HF_TOKEN>");

        // Checked out on Windows with git's autocrlf, by an editor that adds a BOM: still the same script.
        // Before: sent as it was, it edited the template on adoption, and bash failed at `set -euo pipefail\r`.
        const script = path.join(dir, "pytorch-trainer.onstart.sh");
        fs.writeFileSync(script, `\uFEFF${LONG_ONSTART.replace(/\n/g, "\r\n")}`);

        emu.clearLog();
        const [adopted] = await engine.run([{ up: () => templatesFromFiles(dir) }]);
        // New to the stack, so the engine calls them creates; on the service nothing was made or edited.
        expect(adopted.create.sort()).toEqual(["private-inference", "pytorch-trainer"]);
        expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
        expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toEqual([]);
        expect(engine.get("pytorch-trainer").outputs).toMatchObject({ templateId: trainer.id, hashId: trainer.hash_id, adopt: trainer.id, onstart: LONG_ONSTART });
        expect(engine.get("private-inference").outputs).toMatchObject({ templateId: inference.id, hashId: inference.hash_id });
        // The token came from the stack secret, equal to the template's: nothing to edit, and env is encrypted in state.
        expect(engine.get("pytorch-trainer").outputs.env).toMatchObject({ HF_TOKEN });
        expect(engine.get("pytorch-trainer").secretOutputs).toContain("env");
        expect(engine.secretLeaks()).toEqual([]);
        // The engine checked the plan after that up: empty. A refresh finds no drift either.
        const [refreshed] = await engine.run([{ refresh: true }]);
        expect(refreshed.update).toEqual([]);
    });

    it("an edited file edits only its template; an instance on it is replaced; a removed file deletes its template", async () => {
        const { emu, engine } = stack;
        const offer = emu.addOffer();
        const program = () => {
            const templates = templatesFromFiles(dir);
            const gpu = new Instance("gpu", { offerId: offer.id, templateHashId: templates["pytorch-trainer"].hashId, waitForRunning: false });
            return [...Object.values(templates), gpu];
        };
        const [withInstance] = await engine.run([{ up: program }]);
        expect(withInstance.create).toEqual(["gpu"]);
        const before = { trainer: engine.get("pytorch-trainer").outputs.hashId, inference: engine.get("private-inference").outputs.hashId };
        const firstInstance = engine.get("gpu").id;

        const file = path.join(dir, "pytorch-trainer.yaml");
        fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("2.3.0-cuda12.1-cudnn8-runtime", "2.4.0-cuda12.4-cudnn9-runtime"));
        emu.clearLog();
        const [edited] = await engine.run([{ up: program }]);
        expect(edited.update).toEqual(["pytorch-trainer"]);
        expect(edited.replace).toEqual([{ name: "gpu", because: ["templateHashId"] }]);
        expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
        expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toHaveLength(1);
        expect(engine.get("pytorch-trainer").outputs.hashId).not.toBe(before.trainer);
        expect(engine.get("private-inference").outputs.hashId).toBe(before.inference);
        expect(engine.get("gpu").id).not.toBe(firstInstance);
        expect(emu.model.instances.get(Number(engine.get("gpu").id))?.effective.template_hash_id).toBe(engine.get("pytorch-trainer").outputs.hashId);

        const inferenceId = engine.get("private-inference").outputs.templateId as number;
        fs.rmSync(path.join(dir, "private-inference.yaml"));
        const [removed] = await engine.run([{ up: program }]);
        expect(removed.delete).toEqual(["private-inference"]);
        expect(emu.model.templates.get(inferenceId)?.deleted).toBe(true);
        await engine.run([{ destroy: true }]);
    });

    it("a credential written into a file is used as written, with a warning that names the file and the variable or option, never its value", async () => {
        const { engine } = stack;
        const plain = fs.mkdtempSync(path.join(os.tmpdir(), "templates-plain-"));
        const wandbKey = "0123456789abcdef0123456789abcdef";
        fs.writeFileSync(
            path.join(plain, "notebook.yaml"),
            `name: notebook\nimage: jupyter/base-notebook\nenv:\n  WANDB_API_KEY: "${wandbKey}"\n  TOKENIZERS_PARALLELISM: "false"\nargsStr: --api-key ${wandbKey}\n`,
        );
        const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
        try {
            const [up] = await engine.run([{ up: () => templatesFromFiles(plain) }]);
            expect(up.create).toEqual(["notebook"]);
            const warnings = warn.mock.calls.map((c) => String(c[0]));
            expect(warnings).toEqual([
                expect.stringContaining(`${path.join(plain, "notebook.yaml")}: env WANDB_API_KEY looks like a credential, in plain text in a file meant for git`),
                // Before: argsStr was never searched.
                expect.stringContaining(`${path.join(plain, "notebook.yaml")}: argsStr passes --api-key what looks like a credential, in plain text in a file meant for git: argsStr cannot name a stack secret`),
            ]);
            expect(warnings.join("\n")).not.toContain(wandbKey);
        } finally {
            warn.mockRestore();
            await engine.run([{ destroy: true }]);
            fs.rmSync(plain, { recursive: true, force: true });
        }
    });

    // Before: `tag: ""` was left out of the file, so adopting edited the tag to latest (a new
    // image for the template, and a new hash replacing the instances on it).
    it("a template with no tag (its image names one) is exported as such and adopted without an edit", async () => {
        const { emu, engine } = stack;
        const own = fs.mkdtempSync(path.join(os.tmpdir(), "templates-no-tag-"));
        const template = emu.model.addTemplate(emu.demoUser.id, { name: "own tag", image: "pytorch/pytorch:2.4.0-cuda12.4-cudnn9-runtime", tag: "", runtype: "ssh", private: true });
        try {
            const code = await main(["export-templates", "--out", own, "--id", String(template.id)], {
                env: { VAST_API_KEY: emu.demoKey, VAST_URL: emu.url, VASTAI_TIME_SCALE: String(TEST_TIME_SCALE) },
                out: io.out,
                err: io.err,
            });
            expect({ code, output: io.lines }).toMatchObject({ code: 0 });
            emu.clearLog();
            await engine.run([{ up: () => templatesFromFiles(own) }]);
            expect(emu.requestsTo("PUT", TEMPLATE_PATH)).toEqual([]);
            expect(engine.get("own-tag").outputs).toMatchObject({ templateId: template.id, hashId: template.hash_id, tag: "" });
        } finally {
            await engine.run([{ destroy: true }]);
            fs.rmSync(own, { recursive: true, force: true });
        }
    });

    // Before: the stack secrets a file names were looked up, and the `secrets` option checked, while
    // the Template resources were being made, one file after another: a later file's mistake failed
    // the program after the earlier files' templates were registered, and `up` created them.
    it("a stack secret a file names that is not set fails the program before any template is registered, naming the file and property", async () => {
        const { emu, engine } = stack;
        const files = fs.mkdtempSync(path.join(os.tmpdir(), "templates-unset-secret-"));
        fs.writeFileSync(path.join(files, "a-fresh.yaml"), "name: fresh before the mistake\nimage: busybox\n");
        fs.writeFileSync(path.join(files, "b-private.yaml"), "name: private registry\nimage: ghcr.io/acme/x\ndockerLoginUser: bot\ndockerLoginPass: { secret: b-private-dockerLoginPass }\n");
        fs.writeFileSync(path.join(files, "c-token.yaml"), "name: token\nimage: busybox\nenv:\n  HF_TOKEN: { secret: c-token-env-HF_TOKEN }\n");
        emu.clearLog();
        try {
            const failed = await engine.run([{ up: () => templatesFromFiles(files) }]).then(() => undefined, (e: Error) => e);
            // Whatever the program registered before it failed has been stepped by now.
            await waitForRPCs();
            expect(failed?.message).toContain(
                `${path.join(files, "b-private.yaml")}: dockerLoginPass: the stack secret "b-private-dockerLoginPass" is not set: pulumi config set --secret b-private-dockerLoginPass <value>`,
            );
            expect(failed?.message).toContain(`${path.join(files, "c-token.yaml")}: env.HF_TOKEN: the stack secret "c-token-env-HF_TOKEN" is not set`);
            expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
            expect([...engine.state.values()].map((e) => e.name)).toEqual([]);
        } finally {
            fs.rmSync(files, { recursive: true, force: true });
        }
    });

    // Before: the preview passed; at `up` the first file's template was made, and the second's
    // create was answered with it ("existing template found") and refused, with advice to adopt it.
    it("two files of identical content fail the preview, naming both, and an up makes no template", async () => {
        const { emu, engine } = stack;
        const files = fs.mkdtempSync(path.join(os.tmpdir(), "templates-identical-"));
        fs.writeFileSync(path.join(files, "y1.yaml"), "name: probe-y\nimage: alpine\n");
        fs.writeFileSync(path.join(files, "y2.yaml"), "name: probe-y\nimage: alpine\n");
        emu.clearLog();
        try {
            const previewed = await engine.preview(() => templatesFromFiles(files)).then(() => undefined, (e: Error) => e);
            expect(previewed?.message).toContain(`${path.join(files, "y2.yaml")}: makes a template identical to the one ${path.join(files, "y1.yaml")} makes`);
            const failed = await engine.run([{ up: () => templatesFromFiles(files) }]).then(() => undefined, (e: Error) => e);
            await waitForRPCs();
            expect(failed?.message).toContain(`${path.join(files, "y2.yaml")}: makes a template identical`);
            expect(emu.requestsTo("POST", TEMPLATE_PATH)).toEqual([]);
        } finally {
            fs.rmSync(files, { recursive: true, force: true });
        }
    });

    it("pulumi import cannot reach the provider: the engine's import step reads with neither inputs nor state", async () => {
        // What `pulumi import` and the `import` option send the dynamic-provider host (pulumi#16175):
        // no properties and no inputs, so it cannot find the provider's code (`__provider`) at all.
        const { host } = stack;
        const [reg] = await registerAsProgram(() => new Template("imported", { name: "imported", image: "busybox" }));
        await expect(host.read("30001", host.urn(reg.type, reg.name), {})).rejects.toThrow(/code must be a string/);
    });
});
