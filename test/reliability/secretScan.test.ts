import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Instance, Template, apiKeyPermissions } from "../../provider";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * A whole lifecycle (create, refresh, edit, service errors that echo the request, destroy) with
 * every credential the provider handles: the stack's API key, a registry password, an instance's
 * image_login, a new API key's secret, and values a program may mark secret (environment values, a
 * start script, container arguments, a readme). None may appear in plain text in outputs, the serialized
 * provider, the host's stdout and stderr, or an error message.
 */
describe("secret scan over a whole lifecycle", () => {
    let stack: TestStack;
    beforeAll(async () => {
        stack = await startStack();
    });
    afterAll(() => stack.stop());

    it("no credential in plain text anywhere a user or a log can see", async () => {
        const { emu, engine, host } = stack;
        const offer = emu.addOffer();
        const password = "ghp_scan_registry_password_1";
        const token = "dckr_scan_token_2";
        const imageLogin = `-u bot -p ${token} registry.example.com`;
        const hfToken = "hf_scan_env_value_3";
        const envFlagToken = "ghp_scan_template_env_4";
        const onstart = "echo scan_onstart_secret_5 > /root/.netrc";
        const argsStr = "--api-key scan_args_secret_6";
        const readme = "token: scan_readme_secret_7";
        // A short value is blanked with its name, as an echo quotes it.
        const shortEnv = "PIN=q7z";
        // Quotes and line breaks read differently in JSON, and in JSON quoted inside a message.
        const quoted = '{"private_key": "-----BEGIN KEY-----\nscan_quoted_8\n"}';
        const errors: Error[] = [];
        // Only the template nothing depends on is edited: a failed edit then fails nothing else.
        const program = (desc: string) => () => {
            const template = new Template("scan", { name: "scan", image: "ghcr.io/acme/app", dockerLoginUser: "bot", dockerLoginPass: password });
            const instance = new Instance("scan-gpu", { offerId: offer.id, templateHashId: template.hashId, imageLogin, label: "scan" });
            const key = new ApiKey("scan-key", { name: "scan-key", permissions: apiKeyPermissions("user_read") });
            const solo = new Template("scan-solo", { name: "scan-solo", image: "ghcr.io/acme/tool", desc, dockerLoginUser: "bot", dockerLoginPass: password });
            return [template, instance, key, solo];
        };

        await engine.up(program("first"));
        const newKey = engine.get("scan-key").outputs.key as string;
        await engine.refresh();
        // Edits the service refuses, quoting the request, then edits that go through.
        emu.faults.add({ method: "PUT", path: "/api/v0/template/", fault: { kind: "echoRequest" } });
        await engine.up(program("second")).catch((e) => errors.push(e));
        await engine.up(program("second"));
        // A create the service refuses, quoting the request.
        const other = emu.addOffer();
        emu.faults.add({ method: "PUT", path: /^\/api\/v0\/asks\/\d+\/$/, fault: { kind: "echoRequest" } });
        const env = { HF_TOKEN: pulumi.secret(hfToken), SA_JSON: pulumi.secret(quoted) };
        await engine.up(() => new Instance("scan-echo", { offerId: other.id, image: "busybox", imageLogin, env, onstart: pulumi.secret(onstart) })).catch((e) => errors.push(e));
        emu.faults.add({ method: "POST", path: "/api/v0/template/", fault: { kind: "echoRequest", status: 400 } });
        const templateEnv = pulumi.secret(`-e API_TOKEN=${envFlagToken} -e ${shortEnv} -p 8080:8080`);
        const templateText = { argsStr: pulumi.secret(argsStr), readme: pulumi.secret(readme) };
        await engine.up(() => new Template("scan-echo-t", { name: "scan-echo-t", image: "busybox", dockerLoginPass: password, env: templateEnv, onstart, ...templateText })).catch((e) => errors.push(e));
        expect(errors).toHaveLength(3);
        const providers = [...new Set([...engine.state.values()].map((e) => String(e.outputs.__provider)))].join("\n");
        const plainOutputs = JSON.stringify([...engine.state.values()].map((e) => Object.fromEntries(Object.entries(e.outputs).filter(([k]) => !e.secretOutputs.includes(k)))));
        expect(engine.secretLeaks()).toEqual([]);
        await engine.destroy();

        const secrets = [emu.demoKey, password, token, imageLogin, newKey, hfToken, envFlagToken, onstart, argsStr, readme, shortEnv, "scan_quoted_8"];
        const seen = {
            errors: errors.map((e) => `${e.message}\n${e.stack}`).join("\n"),
            host: host.output.join("\n"),
            provider: providers,
            outputs: plainOutputs,
        };
        for (const [where, text] of Object.entries(seen)) {
            for (const secret of secrets) expect({ where, leaked: text.includes(secret) }).toEqual({ where, leaked: false });
        }
        expect(seen.errors).toContain("[redacted]");
    });
});
