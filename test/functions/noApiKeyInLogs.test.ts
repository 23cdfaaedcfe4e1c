import { ApiKey, apiKeyPermissions, getCurrentUser, getMachines, searchTemplates } from "../../provider";
import { programSetting, stackConfigFor } from "../../testkit/support/programConfig";
import { rawGet } from "../../testkit/support/rawHttp";
import { TestStack, startStack } from "../../testkit/support/stack";

/**
 * A whole run, as `pulumi up` then `pulumi destroy` would make it: an ApiKey created and revoked
 * through Pulumi's dynamic-provider host, and the functions called from the program with the
 * stack's key and with the new scoped one. No output and no line anyone could read holds an
 * `api_key`: the host's output, the client's request log, and whatever the program's process printed.
 */
describe("no api_key in any output or log line of a run", () => {
    let stack: TestStack;
    let setting: { restore(): void };
    beforeAll(async () => {
        stack = await startStack();
        setting = programSetting({ config: stackConfigFor(stack.emu, stack.emu.demoKey) });
    });
    afterAll(async () => {
        setting.restore();
        await stack.stop();
    });

    it("getCurrentUser's output, the host's output, the client's log and the program's own output", async () => {
        const { engine, host, emu } = stack;
        const requestLog: string[] = [];
        const log = (line: string) => requestLog.push(line);
        const printed: string[] = [];
        const capture = (stream: NodeJS.WriteStream) =>
            jest.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
                printed.push(String(chunk));
                return true;
            });
        const spies = [capture(process.stdout), capture(process.stderr)];

        let users;
        let reader: string;
        try {
            await engine.up(() => new ApiKey("reader", { name: "reader", permissions: apiKeyPermissions("user_read", "machine_read") }));
            reader = engine.get("reader").outputs.key as string;
            users = [await getCurrentUser({ log }), await getCurrentUser({ apiKey: reader, log })];
            await getMachines({}, { apiKey: reader, log });
            await searchTemplates({ recommended: { eq: true } }, { apiKey: reader, log });
            await engine.destroy();
        } finally {
            spies.forEach((spy) => spy.mockRestore());
        }

        // Not vacuous: the service did put the account's key in the body, and there are lines to read.
        const raw = await rawGet(`${emu.url}/api/v0/users/current/`, emu.demoKey);
        expect(raw.body).toContain(`"api_key":"${emu.demoUser.apiKey}"`);
        expect(requestLog.filter((l) => l.startsWith("GET /api/v0/users/current/ -> 200"))).toHaveLength(3);
        expect(host.output).toEqual(expect.arrayContaining([expect.stringMatching(/^vastai: API key \d+ "reader" created with machine_read, user_read$/)]));
        expect(host.output).toEqual(expect.arrayContaining([expect.stringMatching(/^vastai: API key \d+ revoked$/)]));

        for (const user of users) {
            expect(Object.keys(user).sort()).toEqual(["credit", "email", "id", "ssh_key"]);
        }
        const everything = [JSON.stringify(users), ...host.output, ...requestLog, ...printed];
        for (const line of everything) {
            expect(line).not.toContain("api_key");
            expect(line).not.toContain(emu.demoUser.apiKey);
            expect(line).not.toContain(reader!);
        }
    });
});
