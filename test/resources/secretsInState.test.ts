import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Instance, Template, apiKeyPermissions } from "../../provider";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * The engine encrypts an output only when the input under the same key was secret, or when the
 * resource lists it in `additionalSecretOutputs`. The mini engine applies that rule; this checks
 * that no secret the program gave, and no credential the service returned, is left in plain text
 * in any resource's state.
 */
describe("secrets in state", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("secret env values, registry tokens, image logins and API keys stay under encrypted keys", async () => {
        const { engine, emu } = stack;
        const offer = emu.addOffer();
        await engine.up(() => {
            const template = new Template("private", {
                name: "private",
                image: "ghcr.io/acme/app",
                env: { PUBLIC: "yes", DB_PASSWORD: pulumi.secret("db-password-123") },
                dockerLoginRepo: "ghcr.io",
                dockerLoginUser: "bot",
                dockerLoginPass: "registry-token-456", // plain text in the program: secret in state all the same
            });
            const instance = new Instance("gpu", {
                offerId: offer.id,
                templateHashId: template.hashId,
                env: { HF_TOKEN: pulumi.secret("hf-token-789"), MODE: "train" },
                imageLogin: "-u bot -p registry-token-456 ghcr.io",
            });
            const key = new ApiKey("reader", { name: "reader", permissions: apiKeyPermissions("user_read") });
            return [template, instance, key];
        });

        expect(engine.secretLeaks()).toEqual([]);
        // and the checks would have seen a leak: the secrets are in state, under encrypted keys
        const gpu = engine.get("gpu");
        expect(JSON.stringify(gpu.outputs.effectiveEnv)).toContain("hf-token-789");
        expect(gpu.secretOutputs).toEqual(expect.arrayContaining(["env", "imageLogin", "effectiveEnv"]));
        expect(engine.get("private").secretOutputs).toEqual(expect.arrayContaining(["env", "dockerLoginPass"]));

        // the new API key's secret, which the program never saw, is encrypted too
        const reader = engine.get("reader");
        expect(reader.outputs.key).toEqual(expect.any(String));
        expect(reader.secretOutputs).toContain("key");

        // nor is any credential the service returned (the account key, the instance key) in state
        const state = JSON.stringify([...engine.state.values()].map((e) => e.outputs));
        expect(state).not.toContain(emu.demoKey);
        expect(state).not.toMatch(/instkey_/);
    });
});
