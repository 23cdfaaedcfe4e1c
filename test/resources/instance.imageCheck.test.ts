import { PROGRAM_PATHS, ProgramPath, declareOn } from "../../testkit/host/pluginResource";
import { RegistryEmulator } from "../../testkit/registry/registryEmulator";
import { TestStack, startStack } from "../../testkit/support/stack";
import { codeIn } from "../../testkit/support/errorCode";

/**
 * Images checked before money, through both front doors (Pulumi's dynamic-provider host and the
 * provider plugin) against the emulator and a registry emulator on this machine: a misspelt image
 * fails preview with its corrected form; an image its registry does not have fails the create with
 * nothing rented; a private image is checked with its login; a registry that does not answer is a
 * warning, and the create goes on.
 */
const REGISTRY_PASSWORD = "registry-pass-never-shown-7f3a";

describe.each<ProgramPath>(PROGRAM_PATHS)("images checked before money, through the %s path", (path) => {
    let stack: TestStack;
    let registry: RegistryEmulator;
    beforeAll(async () => {
        [stack, registry] = await Promise.all([
            startStack({ host: { plugin: path === "plugin" } }),
            RegistryEmulator.start({
                "acme/trainer": { tags: ["1", "2"] },
                "acme/private": { tags: ["1"], login: { user: "bot", password: REGISTRY_PASSWORD } },
            }),
        ]);
    });
    afterAll(async () => {
        await stack.stop();
        await registry.stop();
    });
    beforeEach(() => {
        stack.emu.clearLog();
        registry.requests.length = 0;
        registry.silent = false;
    });

    const rents = () => stack.emu.requestsTo("PUT", /\/api\/v0\/asks\//);
    const instance = (name: string, args: object) => () => declareOn(path, "instance", `${name}-${path}`, args);

    it("a misspelt image fails preview, naming image and the corrected form, for an Instance and a Template", async () => {
        const offer = stack.emu.addOffer();
        await expect(stack.engine.preview(instance("misspelt", { offerId: offer.id, image: "PyTorch/pytorch:2.3 latest" }))).rejects.toThrow(
            /image: "PyTorch\/pytorch:2\.3 latest" is not an image reference: it has spaces .* capital letters .*did you mean "pytorch\/pytorch:2\.3"\?/,
        );
        await expect(stack.engine.preview(() => declareOn(path, "template", `misspelt-${path}`, { name: "t", image: "PyTorch/pytorch:2.3 latest" }))).rejects.toThrow(
            /image: .*did you mean image: "pytorch\/pytorch", tag: "2\.3"\?/,
        );
        await expect(stack.engine.preview(() => declareOn(path, "template", `tagged-${path}`, { name: "t", image: "pytorch/pytorch:2.3" }))).rejects.toThrow(
            /image: "pytorch\/pytorch:2\.3" names its own tag "2\.3" while tag is "latest": a Template's tag goes in tag/,
        );
        expect(rents()).toEqual([]);
    });

    it("an image whose tag its registry does not have fails the create with nothing rented", async () => {
        const offer = stack.emu.addOffer();
        const image = registry.image("acme/trainer", "9");
        const refused = await stack.engine.up(instance("no-tag", { offerId: offer.id, image })).catch((e) => e);
        expect(codeIn(refused)).toBe("image_not_found");
        expect(refused.message).toMatch(new RegExp(`nothing rented: image "${image}" does not exist: registry ${registry.host} has no acme/trainer:9 \\(404\\)\\. Correct image`));
        expect(rents()).toEqual([]);
        // Asked as docker does: refused with a challenge, a token from its realm, then asked again with it.
        expect(registry.requests.map((r) => [r.method, r.path, r.authorization ?? "", r.status])).toEqual([
            ["HEAD", "/v2/acme/trainer/manifests/9", "", 401],
            ["GET", "/token", "", 200],
            ["HEAD", "/v2/acme/trainer/manifests/9", "bearer", 404],
        ]);
    });

    it("a private image without a login fails as not found or private; with its login it is checked and rented", async () => {
        const offer = stack.emu.addOffer();
        const image = registry.image("acme/private", "1");
        await expect(stack.engine.up(instance("private", { offerId: offer.id, image }))).rejects.toThrow(/was not found, or is private: .*give the template a registry login/);
        expect(rents()).toEqual([]);

        registry.requests.length = 0;
        const imageLogin = `-u bot -p ${REGISTRY_PASSWORD} ${registry.host}`;
        expect((await stack.engine.up(instance("private", { offerId: offer.id, image, imageLogin }))).create).toEqual([`private-${path}`]);
        expect(rents()).toHaveLength(1);
        expect(registry.requests.map((r) => [r.method, r.authorization ?? "", r.status])).toEqual([
            ["HEAD", "", 401],
            ["GET", "basic", 200],
            ["HEAD", "bearer", 200],
        ]);
        expect(stack.host.output.join("\n")).toContain(`image "${image}" found on registry ${registry.host}`);
        expect(stack.host.output.join("\n")).not.toContain(REGISTRY_PASSWORD);
    });

    it("a template's private image, whose password the service never hands back, is not checked: a note, and the create goes on", async () => {
        const offer = stack.emu.addOffer();
        const login = { dockerLoginUser: "bot", dockerLoginPass: REGISTRY_PASSWORD, dockerLoginRepo: registry.host };
        const template = () => declareOn(path, "template", `private-template-${path}`, { name: "private", image: `${registry.host}/acme/private`, tag: "1", ...login });
        await stack.engine.up(template);
        const hashId = stack.engine.get(`private-template-${path}`).outputs.hashId as string;
        const summary = await stack.engine.up(() => [template(), instance("from-template", { offerId: offer.id, templateHashId: hashId })()]);
        expect(summary.create).toEqual([`from-template-${path}`]);
        expect(rents()).toHaveLength(1);
        expect(stack.host.output.join("\n")).toMatch(
            new RegExp(`warning: image "${registry.host}/acme/private:1" \\(template ${hashId}'s image and tag\\) not checked before renting: the registry login it is pulled with is not one this check can use`),
        );
        await stack.engine.up(() => []);
    });

    it("a registry that does not answer is a warning, and the create goes on: one rent", async () => {
        const offer = stack.emu.addOffer();
        registry.silent = true;
        const image = registry.image("acme/trainer", "1");
        expect((await stack.engine.up(instance("silent", { offerId: offer.id, image }))).create).toEqual([`silent-${path}`]);
        expect(rents()).toHaveLength(1);
        expect(stack.host.output.join("\n")).toMatch(
            new RegExp(`warning: image "${image}" not checked before renting: its registry could not be asked \\(${registry.host} did not answer within \\d+ ms\\); the create goes on`),
        );
    });

    it("checkImage: false asks no registry", async () => {
        const offer = stack.emu.addOffer();
        const image = registry.image("acme/trainer", "9");
        expect((await stack.engine.up(instance("unchecked", { offerId: offer.id, image, checkImage: false }))).create).toEqual([`unchecked-${path}`]);
        expect(registry.requests).toEqual([]);
        expect(rents()).toHaveLength(1);
    });
});
