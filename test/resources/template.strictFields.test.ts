import { randomBytes } from "crypto";
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Instance, Template } from "../../provider";
import { PROGRAM_PATHS, ProgramPath, declareOn } from "../../testkit/host/pluginResource";
import { provisioningScript } from "../../testkit/support/provisioningScript";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * A Template's fields held to what an instance create takes (issue 45), through Pulumi's host on
 * both paths against the emulator: `extraFilters` checked as an Instance's `offer.filters` are
 * (one schema), an `onstart` no create could carry refused, and an Instance's `tag` refused with
 * the one-line fix. A check failure sends nothing to the service.
 */
describe.each<ProgramPath>(PROGRAM_PATHS)("template fields as strict as an instance's, through the %s path", (via) => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack({ host: { plugin: via === "plugin" } });
    });
    afterAll(() => stack.stop());

    /** The preview of `kind` with `args` fails with `message`, and nothing reaches the emulator. */
    async function refusedInPreview(kind: "template" | "instance", name: string, args: object, message: string | RegExp): Promise<void> {
        const { engine, emu } = stack;
        const before = emu.requests.length;
        await expect(engine.preview(() => declareOn(via, kind, name, args))).rejects.toThrow(message);
        await expect(engine.up(() => declareOn(via, kind, name, args))).rejects.toThrow(message);
        expect(emu.requests.slice(before)).toEqual([]);
    }

    const template = { name: "strict", image: "pytorch/pytorch", tag: "2.3.0" };

    it("extraFilters with a misspelt field fails check with the Instance's own \"did you mean\"", async () => {
        await refusedInPreview("template", "misspelt-field", { ...template, extraFilters: { gpu_rma: { gte: 24000 } } }, 'unknown property "gpu_rma"; did you mean "gpu_ram"?');
        await refusedInPreview("template", "misspelt-name", { ...template, extraFilters: { gpu_nam: { eq: "RTX 4090" } } }, 'unknown property "gpu_nam"; did you mean "gpu_name"?');
        // The same words as an Instance's offer.filters, from the same schema.
        await refusedInPreview("instance", "misspelt-offer", { offer: { filters: { gpu_rma: { gte: 24000 } } }, image: "busybox" }, 'unknown property "gpu_rma"; did you mean "gpu_ram"?');
    });

    it("extraFilters with a misspelt operator, or a value of the wrong kind, fails check naming it", async () => {
        await refusedInPreview("template", "bad-operator", { ...template, extraFilters: { gpu_ram: { gtee: 24000 } } }, 'extraFilters.gpu_ram.gtee: "gtee" is not a search operator: expected one of eq, neq, lt, lte, gt, gte, in, notin');
        await refusedInPreview("template", "bad-kind", { ...template, extraFilters: { gpu_ram: { gte: "24GB" } } }, /extraFilters\.gpu_ram\.gte: Invalid input: expected number, received string/);
    });

    it("an onstart no instance create could carry, even compressed, fails check naming the limits and its size", async () => {
        const noise = randomBytes(6 * 1024).toString("base64"); // does not compress
        await refusedInPreview(
            "template",
            "too-long",
            { ...template, onstart: noise },
            new RegExp(`onstart: every instance made from the template carries its onstart in the create request: onstart is ${noise.length} characters; compressed and encoded it is still \\d+, and the service's limits are onstart may be at most 4048`),
        );
    });

    it("an Instance's tag is refused with the one-line fix, from the program's own image and tag", async () => {
        await refusedInPreview("instance", "tagged", { offerId: 1, image: "pytorch/pytorch", tag: "2.3.0" }, 'tag is not an Instance property: put it in image, "pytorch/pytorch:2.3.0"');
        // An image that names a tag already: the fix replaces it.
        await refusedInPreview("instance", "retagged", { offerId: 1, image: "ghcr.io/acme/trainer:1.0", tag: "2.0" }, 'put it in image, "ghcr.io/acme/trainer:2.0"');
    });
});

describe("a template's long onstart reaches its instances compressed", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("a 20 KB template onstart is kept on the template as written; an instance from it sends it compressed within 4048 and runs", async () => {
        const { engine, emu, host } = stack;
        const script = provisioningScript(20 * 1024);
        const offer = emu.addOffer();
        const program = () => {
            const tpl = new Template("long-onstart", { name: "long-onstart", image: "ubuntu", tag: "22.04", onstart: script });
            return [tpl, new Instance("from-long", { offerId: offer.id, templateHashId: tpl.hashId })];
        };
        expect((await engine.up(program)).create.sort()).toEqual(["from-long", "long-onstart"]);

        const made = emu.model.templates.get(Number(engine.get("long-onstart").id))!;
        expect(made.fields.onstart).toBe(script);
        const [put] = emu.requestsTo("PUT", `/api/v0/asks/${offer.id}/`);
        const sent = (put.body as { onstart: string }).onstart;
        expect(sent.length).toBeLessThanOrEqual(4048);
        expect(restored(sent).equals(Buffer.from(script, "utf8"))).toBe(true);
        expect(engine.get("from-long").outputs).toMatchObject({ actualStatus: "running" });
        expect(engine.get("from-long").outputs).not.toHaveProperty("onstart");
        expect(host.output.some((l) => /the onstart of template \w+ for offer \d+ is 20480 characters: sent compressed/.test(l))).toBe(true);

        expect((await engine.up(program)).same.sort()).toEqual(["from-long", "long-onstart"]);
        expect(await engine.destroy()).toHaveLength(2);
    });
});

/** What the bootstrap command restores, run by bash in a fresh TMPDIR. */
function restored(command: string): Buffer {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tpl-onstart-"));
    const result = spawnSync("bash", ["-c", command], { env: { PATH: process.env.PATH, TMPDIR: dir, WORK: path.join(dir, "work") }, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: "" });
    const [file] = fs.readdirSync(dir).filter((f) => f.startsWith("vastai-onstart-"));
    return fs.readFileSync(path.join(dir, file));
}
