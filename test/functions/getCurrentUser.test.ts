import * as pulumi from "@pulumi/pulumi";
import { FunctionOptions, VastAuthError, VastConfigError, VastError, VastInvalidArgsError, getCurrentUser } from "../../provider";
import { Emulator } from "../../testkit/emulator/server";
import { startEmulator } from "../../testkit/support/fixtures";
import { programSetting, stackConfigFor } from "../../testkit/support/programConfig";
import { TEST_TIME_SCALE } from "../../testkit/support/stack";
import { rawGet } from "../../testkit/support/rawHttp";

describe("getCurrentUser against the emulator", () => {
    let emu: Emulator;
    let setting: { restore(): void } | undefined;
    beforeAll(async () => {
        emu = await startEmulator({ rateLimitScale: TEST_TIME_SCALE });
    });
    afterAll(() => emu.stop());
    beforeEach(() => emu.clearLog());
    afterEach(() => setting?.restore());

    /** The id the emulator logged for the key the last request used. */
    const lastKeyId = () => emu.requests.at(-1)?.keyId;
    const keyId = (key: string) => emu.model.keys.get(key)!.id;

    it("gives id, email, credit and ssh_key, and not the api_key the service sends in the same body", async () => {
        // A scoped key: the account key in the body is then not the one the call was made with.
        const reader = emu.createKey({ api: { user_read: {} } }).key;
        setting = programSetting({ config: stackConfigFor(emu, reader) });
        const raw = await rawGet(`${emu.url}/api/v0/users/current/`, reader);
        expect(JSON.parse(raw.body)).toMatchObject({ api_key: emu.demoUser.apiKey });

        const user = await getCurrentUser();
        expect(user).toStrictEqual({ id: emu.demoUser.id, email: "demo@example.com", credit: 25, ssh_key: emu.demoUser.ssh_key });
        expect(JSON.stringify(user)).not.toContain("api_key");
        expect(JSON.stringify(user)).not.toContain(emu.demoUser.apiKey);
    });

    it("finds credentials as a stack does: explicit option, then stack config, then VAST_API_KEY / VAST_URL", async () => {
        const fromStack = emu.createKey().key;
        const fromEnv = emu.createKey().key;
        const explicit = emu.createKey().key;

        setting = programSetting({ config: stackConfigFor(emu, fromStack), env: { VAST_API_KEY: fromEnv, VAST_URL: emu.url } });
        await getCurrentUser();
        expect(lastKeyId()).toBe(keyId(fromStack));
        await getCurrentUser({ apiKey: explicit });
        expect(lastKeyId()).toBe(keyId(explicit));
        setting.restore();

        setting = programSetting({ env: { VAST_API_KEY: fromEnv, VAST_URL: emu.url } });
        await getCurrentUser();
        expect(lastKeyId()).toBe(keyId(fromEnv));
        setting.restore();

        // An explicit base URL wins too; a key for another account is that account.
        setting = programSetting({ config: { "vastai:apiKey": emu.otherUser.apiKey, "vastai:baseUrl": "https://console.vast.ai" } });
        expect((await getCurrentUser({ baseUrl: emu.url })).id).toBe(emu.otherUser.id);
    });

    it("refuses options that are not what they seem, before any request: an Output for apiKey, a misspelt key", async () => {
        setting = programSetting({ config: stackConfigFor(emu, emu.demoKey) });
        const fromConfig = pulumi.secret(emu.createKey().key);
        const asOutput = await getCurrentUser({ apiKey: fromConfig as unknown as string }).catch((e) => e);
        expect(asOutput).toBeInstanceOf(VastInvalidArgsError);
        expect(asOutput.message).toMatch(/apiKey: expected a plain value, got an Output/);
        expect(asOutput.message).toMatch(/\.apply\(/);
        expect(asOutput.message).toMatch(/getCurrentUserOutput/);

        // Lower-case k: the stack's key was used instead, without a word.
        const misspelt = await getCurrentUser({ apikey: emu.createKey().key } as FunctionOptions).catch((e) => e);
        expect(misspelt).toBeInstanceOf(VastInvalidArgsError);
        expect(misspelt.message).toMatch(/apikey: unknown property; did you mean "apiKey"\?/);

        await expect(getCurrentUser({ apiKey: 42 } as unknown as FunctionOptions)).rejects.toThrow(/apiKey: expected a string, got 42/);
        await expect(getCurrentUser({ apiKey: " " })).rejects.toThrow(/apiKey: expected a key, got an empty string/);
        await expect(getCurrentUser({ baseUrl: pulumi.output(emu.url) } as unknown as FunctionOptions)).rejects.toThrow(/baseUrl: expected a plain value, got an Output/);
        await expect(getCurrentUser({ log: "yes" } as unknown as FunctionOptions)).rejects.toThrow(/log: expected a function/);
        await expect(getCurrentUser("key" as unknown as FunctionOptions)).rejects.toThrow(/options: expected an object/);
        await expect(getCurrentUser(pulumi.output({ apiKey: "k" }) as unknown as FunctionOptions)).rejects.toThrow(/options: expected a plain value, got an Output/);
        expect(emu.requests).toHaveLength(0);
    });

    it("says how to set a missing key, before any request", async () => {
        setting = programSetting({ config: {} });
        const error = await getCurrentUser().catch((e) => e);
        expect(error).toBeInstanceOf(VastConfigError);
        expect(error.message).toMatch(/^vastai: no API key\. Set it with `pulumi config set --secret vastai:apiKey <key>`.*VAST_API_KEY/);
        // Before: not a VastError, so a program catching VastError for the provider's failures missed it.
        expect(error).toBeInstanceOf(VastError);
        expect(error).toMatchObject({ kind: "config", name: "VastConfigError" });
        expect(String(error.stack)).toMatch(/^VastConfigError: vastai: no API key\./);
        const plainHttp = await getCurrentUser({ apiKey: emu.demoKey, baseUrl: "http://example.com" }).catch((e) => e);
        expect(plainHttp).toBeInstanceOf(VastError);
        expect(plainHttp.message).toMatch(/^vastai: refusing to send the API key to http:\/\/example.com/);
        expect(emu.requests).toHaveLength(0);
    });

    // Before: a refused apiKey option said to set vastai:apiKey, which the option overrides.
    it("a refused key or a wrong address names where it came from: the option, else the stack's settings", async () => {
        setting = programSetting({ config: stackConfigFor(emu, "revoked-or-mistyped") });
        const fromStack = await getCurrentUser().catch((e) => e);
        expect(fromStack).toBeInstanceOf(VastAuthError);
        expect(fromStack.message).toMatch(/\(set vastai:apiKey or VAST_API_KEY to a valid key, or pass one as the apiKey option\) \[key_refused\]$/);
        const fromOption = await getCurrentUser({ apiKey: "revoked-or-mistyped" }).catch((e) => e);
        expect(fromOption.message).toMatch(/\(pass a valid key as the apiKey option\) \[key_refused\]$/);

        const stopped = await startEmulator();
        await stopped.stop();
        const nothingThere = await getCurrentUser({ baseUrl: stopped.url }).catch((e) => e);
        expect(nothingThere.message).toMatch(/nothing listens there; check the base URL \(the baseUrl option; https:\/\/console.vast.ai by default\) \[network_error\]$/);
        setting.restore();
        setting = programSetting({ config: stackConfigFor(stopped, emu.demoKey) });
        const fromStackUrl = await getCurrentUser().catch((e) => e);
        expect(fromStackUrl.message).toMatch(/nothing listens there; check the base URL \(vastai:baseUrl, or VAST_URL; https:\/\/console.vast.ai by default\) \[network_error\]$/);
    });

    it("keeps the account's api_key out of errors: JSON bodies, truncated ones, gateway pages", async () => {
        const reader = emu.createKey({ api: { user_read: {} } }).key;
        setting = programSetting({ config: stackConfigFor(emu, reader) });
        const accountKey = emu.demoUser.apiKey;

        // A failure whose body has no message: the body itself becomes the message.
        emu.faults.add({ method: "GET", path: "/api/v0/users/current/", fault: { kind: "status", status: 500, body: { success: false, id: 1, api_key: accountKey } }, times: 4 });
        const failed = await getCurrentUser().catch((e) => e);
        expect(failed.message).toMatch(/HTTP 500 server error: .*"api_key":"\[redacted\]"/);
        // An answer that does not parse: the problem is named, the body is not quoted.
        emu.faults.add({ method: "GET", path: "/api/v0/users/current/", fault: { kind: "status", status: 200, body: { id: "1001", api_key: accountKey } }, times: 4 });
        const unparsable = await getCurrentUser().catch((e) => e);
        expect(unparsable.message).toMatch(/unexpected answer .*id: /);
        // Bodies that are not JSON at all: a truncated answer, a gateway page quoting the body.
        emu.faults.add({ method: "GET", path: "/api/v0/users/current/", fault: { kind: "status", status: 200, text: `{"id": 1001, "api_key": "${accountKey}", "ema` }, times: 4 });
        const truncated = await getCurrentUser().catch((e) => e);
        expect(truncated.message).toMatch(/not a JSON object \(not shown: this answer may carry credentials or secret env values\)/);
        emu.faults.add({ method: "GET", path: "/api/v0/users/current/", fault: { kind: "status", status: 502, text: `<pre>upstream said {"api_key": "${accountKey}"}</pre>` } });
        emu.faults.add({ method: "GET", path: "/api/v0/users/current/", fault: { kind: "status", status: 502, text: `<pre>api_key=${accountKey}</pre>` }, times: 5 });
        const gateway = await getCurrentUser().catch((e) => e);
        expect(gateway.message).toMatch(/HTTP 502 server error: <pre>api_key=\[redacted\]<\/pre>/);

        // Refused: the key is not echoed either.
        emu.revokeKey(reader);
        const refused = await getCurrentUser().catch((e) => e);
        expect(refused).toBeInstanceOf(VastAuthError);

        for (const error of [failed, unparsable, truncated, gateway, refused]) {
            expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain(accountKey);
            expect(`${error.message} ${error.stack}`).not.toContain(reader);
        }
    });
});
