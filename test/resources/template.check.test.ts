import { randomBytes } from "crypto";
import { Instance, Template } from "../../provider";
import { UNKNOWN } from "../../provider/dynamic/unknowns";
import { unquotableOf } from "../../provider/dynamic/properties";
import { templateArgsSchema } from "../../provider/resources/template/templateArgs";
import { ProviderHost } from "../../testkit/host/providerHost";
import { Registration, registerAsProgram } from "../../testkit/host/programMocks";
import { eventually } from "../../testkit/support/fixtures";

/**
 * `check` is where bad input stops, before any request (so `pulumi preview` shows it). This walks
 * every property with a value of the wrong type, both required properties missing, and unknown
 * properties, through Pulumi's host, and expects each failure to name its property.
 */
const valid = { name: "base", image: "busybox" };

/** A value of the wrong type for each property, and what the failure must say. */
const WRONG: Record<string, { value: unknown; reason: RegExp }> = {
    name: { value: 42, reason: /expected string/ },
    image: { value: false, reason: /expected string/ },
    tag: { value: 1.5, reason: /expected string/ },
    desc: { value: ["a"], reason: /expected string/ },
    readme: { value: {}, reason: /expected string/ },
    env: { value: 12, reason: /expected a mapping of NAME: text, or a flag string such as "-e NAME=value -p 8080:8080"/ },
    onstart: { value: true, reason: /expected string/ },
    runtype: { value: "docker", reason: /expected one of "ssh"\|"jupyter"\|"args"/ },
    argsStr: { value: 3, reason: /expected string/ },
    sshDirect: { value: "yes", reason: /expected boolean/ },
    useSsh: { value: 1, reason: /expected boolean/ },
    jupDirect: { value: "no", reason: /expected boolean/ },
    jupyterDir: { value: 7, reason: /expected string/ },
    useJupyterLab: { value: "true", reason: /expected boolean/ },
    dockerLoginRepo: { value: 0, reason: /expected string/ },
    dockerLoginUser: { value: null, reason: /expected string/ },
    dockerLoginPass: { value: 123, reason: /expected string/ },
    href: { value: 9, reason: /expected string/ },
    repo: { value: [], reason: /expected string/ },
    extraFilters: { value: "gpu_ram>24", reason: /expected object/ },
    recommendedDiskSpace: { value: "40GB", reason: /expected number/ },
    private: { value: "false", reason: /expected boolean/ },
    volumeInfo: { value: "vol-1", reason: /expected record/ },
    adopt: { value: "30005", reason: /expected number/ },
};

describe("Template check: bad input fails with the property's path", () => {
    let host: ProviderHost;
    let reg: Registration;
    let urn: string;
    beforeAll(async () => {
        host = await ProviderHost.start();
        // No API key configured: check must never need one.
        await host.configure({});
        [reg] = await registerAsProgram(() => new Template("base", valid));
        urn = host.urn(reg.type, reg.name);
    });
    afterAll(() => host.stop());

    const check = (inputs: Record<string, unknown>) => host.check(urn, {}, { __provider: reg.inputs.__provider, ...inputs });

    it("accepts the valid inputs, adding the contract's defaults and private; registry login only as given", async () => {
        const result = await check(valid);
        expect(result.failures).toEqual([]);
        expect(result.inputs).toMatchObject({
            ...valid,
            tag: "latest",
            runtype: "args",
            recommendedDiskSpace: 8,
            private: true,
        });
        expect(result.inputs).not.toHaveProperty("dockerLoginPass");
    });

    it("covers every property of TemplateArgs", () => {
        const { TEMPLATE_PROPERTIES } = require("../../provider/resources/template/templateArgs");
        expect(Object.keys(WRONG).sort()).toEqual([...TEMPLATE_PROPERTIES].sort());
    });

    // A property that may hold a credential is named in the reason instead: the engine prints the
    // failing property's value (unquotedFailures).
    const unquotable = unquotableOf(templateArgsSchema);
    it.each(Object.entries(WRONG))("a wrong type for %s fails at that property", async (property, { value, reason }) => {
        const { failures } = await check({ ...valid, [property]: value });
        expect(failures).toHaveLength(1);
        if (unquotable.includes(property as never)) {
            expect(failures[0].property).toBe("");
            expect(failures[0].reason).toMatch(new RegExp(`^${property}: `));
        } else {
            expect(failures[0].property).toBe(property);
        }
        expect(failures[0].reason).toMatch(reason);
    });

    it.each(["name", "image"])("a missing %s fails at that property", async (property) => {
        const inputs: Record<string, unknown> = { ...valid };
        delete inputs[property];
        const { failures } = await check(inputs);
        expect(failures).toEqual([{ property, reason: expect.stringMatching(/expected string, received undefined/) }]);
    });

    it("an unknown property fails, with a suggestion when it is a misspelling", async () => {
        const { failures } = await check({ ...valid, recomendedDiskSpace: 40, colour: "blue" });
        expect(failures).toHaveLength(2);
        expect(failures).toEqual(expect.arrayContaining([
            { property: "", reason: 'unknown property "recomendedDiskSpace"; did you mean "recommendedDiskSpace"?' },
            { property: "", reason: 'unknown property "colour"' },
        ]));
    });

    it("the service's snake_case names are unknown properties, pointing at the camelCase one", async () => {
        const { failures } = await check({ ...valid, args_str: "--serve" });
        expect(failures).toEqual([{ property: "", reason: 'unknown property "args_str"; did you mean "argsStr"?' }]);
    });

    // Before: a misspelt property kept its name as the failing property, and the engine printed its
    // value beside the failure: here, the registry token.
    it("a misspelt property holding a credential fails without its value reaching the engine's message", async () => {
        const { failures } = await check({ ...valid, docker_login_pass: "hunter2-registry-token", onStart: "export HF_TOKEN=hf_abcdefghijklmnop" });
        expect(failures).toEqual(
            expect.arrayContaining([
                { property: "", reason: 'unknown property "docker_login_pass"; did you mean "dockerLoginPass"?' },
                { property: "", reason: expect.stringMatching(/^unknown property "onStart"/) },
            ]),
        );
        expect(failures.every((f) => f.property === "")).toBe(true);
        expect(JSON.stringify(failures)).not.toMatch(/hunter2|hf_abc/);
    });

    it("nested problems name the nested path", async () => {
        const { failures } = await check({ ...valid, extraFilters: { gpu_ram: 24 }, env: { OK: "1", "-p 80:http": "1" } });
        expect(failures).toEqual([
            { property: "env.-p 80:http", reason: '"80:http" is not a port mapping like 8080:8080 or 53:53/udp' },
            { property: "extraFilters.gpu_ram", reason: expect.stringMatching(/expected object/) },
        ]);
    });

    it("a misspelt search operator in extraFilters fails, naming the field and the operators there are", async () => {
        const { failures } = await check({ ...valid, extraFilters: { gpu_ram: { gtee: 24000 }, num_gpus: { gte: 1 } } });
        expect(failures).toEqual([{ property: "extraFilters.gpu_ram.gtee", reason: '"gtee" is not a search operator: expected one of eq, neq, lt, lte, gt, gte, in, notin' }]);
    });

    // Issue 45: extraFilters are machine search filters, checked by the schema an Instance's
    // offer.filters uses (offerFiltersSchema): the same failures, word for word, at their own path.
    it.each<[string, Record<string, unknown>]>([
        ["a misspelt field", { gpu_rma: { gte: 24000 } }],
        ["a field offers do not have", { price: { lt: 1 } }],
        ["a misspelt operator", { gpu_ram: { gtee: 24000 } }],
        ["a string on a numeric field", { gpu_ram: { gte: "24GB" } }],
        ["a number on a string field", { gpu_name: { eq: 4090 } }],
        ["an empty in", { gpu_name: { in: [] } }],
    ])("extraFilters with %s fails as an Instance's offer.filters does", async (_, filters) => {
        const template = (await check({ ...valid, extraFilters: filters })).failures;
        const [instanceReg] = await registerAsProgram(() => new Instance("parity", { offer: { filters: filters as never }, image: "busybox" }));
        const instance = (await host.check(host.urn(instanceReg.type, instanceReg.name), {}, instanceReg.inputs)).failures;
        expect(template.length).toBeGreaterThan(0);
        expect(template).toEqual(instance.map((f) => ({ ...f, property: f.property.replace(/^offer\.filters/, "extraFilters") })));
    });

    it("a misspelt extraFilters field is told the nearest offer field", async () => {
        expect((await check({ ...valid, extraFilters: { gpu_rma: { gte: 24000 } } })).failures).toEqual([
            { property: "extraFilters.gpu_rma", reason: 'unknown property "gpu_rma"; did you mean "gpu_ram"?' },
        ]);
        expect((await check({ ...valid, extraFilters: { gpu_nam: { eq: "RTX 4090" } } })).failures).toEqual([
            { property: "extraFilters.gpu_nam", reason: 'unknown property "gpu_nam"; did you mean "gpu_name"?' },
        ]);
    });

    it("an onstart within the create's limits once compressed passes; one beyond them fails with the sizes", async () => {
        expect((await check({ ...valid, onstart: "echo hi\n".repeat(2000) })).failures).toEqual([]);
        const noise = randomBytes(6 * 1024).toString("base64");
        expect((await check({ ...valid, onstart: noise })).failures).toEqual([
            {
                property: "",
                reason: expect.stringMatching(
                    new RegExp(`^onstart: every instance made from the template carries its onstart in the create request: onstart is ${noise.length} characters; compressed and encoded it is still \\d+, and the service's limits are onstart may be at most 4048`),
                ),
            },
        ]);
        // Within 4048 alone, but not beside the template's argsStr, which its instances carry too.
        const within = randomBytes(2400).toString("base64").slice(0, 3000);
        expect((await check({ ...valid, onstart: within })).failures).toEqual([]);
        expect((await check({ ...valid, onstart: within, argsStr: "x".repeat(1500) })).failures).toEqual([
            { property: "", reason: expect.stringMatching(/args \+ argsStr \+ onstart may be at most 4096 together \(args and argsStr take 1500\)/) },
        ]);
        expect((await check({ ...valid, onstart: UNKNOWN })).failures).toEqual([]);
    });

    // Contract §2.2: extra_filters is {field: {op: value}}, and `in`/`notin` take arrays (§4.3). The
    // emulator refuses anything else, as a search would; before, check let these through to the create.
    it("a condition in extraFilters with no operator, or in/notin without an array, fails naming the path", async () => {
        const { failures } = await check({ ...valid, extraFilters: { gpu_ram: {}, gpu_name: { in: "RTX 4090" }, geolocation: { notin: "CN" }, num_gpus: { gte: 1 } } });
        expect(failures).toEqual([
            { property: "extraFilters.gpu_name.in", reason: "Invalid input: expected array, received string" },
            { property: "extraFilters.gpu_ram", reason: "expected at least one operator" },
            { property: "extraFilters.geolocation.notin", reason: "Invalid input: expected array, received string" },
        ]);
        const unknownList = await check({ ...valid, extraFilters: { gpu_name: { in: UNKNOWN } } });
        expect(unknownList.failures).toEqual([]);
    });

    it("an env value the template flag string cannot carry fails in check, not later at create", async () => {
        const { failures } = await check({ ...valid, env: { OK: "1", MOTTO: `say "hi", it's fine` } });
        expect(failures).toEqual([{ property: "env.MOTTO", reason: expect.stringMatching(/both quote characters and whitespace/) }]);
    });

    it("an unparseable env flag string fails instead of being dropped", async () => {
        const { failures } = await check({ ...valid, env: "-e A=1 --privileged" });
        expect(failures).toEqual([
            { property: "", reason: 'env: unsupported env flag "--privileged": expected -e NAME=value, -p host:container, -v volume, -n network or -h hostname' },
        ]);
    });

    // The engine prints a failing property's value beside the failure: env is named in the reason
    // instead, and the reason quotes no value, so a password that lost its quotes is not printed.
    it("a bad env flag string fails without any of its values reaching the engine's message", async () => {
        const { failures } = await check({ ...valid, env: "-e DB_PASSWORD=correct horse battery" });
        expect(failures).toEqual([{ property: "", reason: expect.stringMatching(/^env: unsupported env flag at word 3/) }]);
        expect(JSON.stringify(failures)).not.toMatch(/correct|horse|battery/);
    });

    it("computed outputs cannot be given", async () => {
        const { failures } = await check({ ...valid, hashId: "abc" });
        expect(failures).toEqual([{ property: "", reason: "hashId is set by the service and cannot be given" }]);
    });

    it("values unknown during preview pass, whatever their declared type", async () => {
        const result = await check({ name: UNKNOWN, image: "busybox", recommendedDiskSpace: UNKNOWN, env: UNKNOWN, extraFilters: { gpu_ram: UNKNOWN } });
        expect(result.failures).toEqual([]);
        expect(result.inputs).toMatchObject({ name: UNKNOWN, recommendedDiskSpace: UNKNOWN, env: UNKNOWN });
    });

    it("a public template whose env or onstart holds what looks like a credential passes with a warning that names it, never its value; a private one, or a value unknown yet, without", async () => {
        const token = "hf_AbCdEfGhIjKlMnOpQrStUv";
        const from = host.output.length;
        const env = { HF_TOKEN: token, TOKENIZERS_PARALLELISM: "false" };
        expect((await check({ ...valid, private: false, env, onstart: `export WANDB_API_KEY=0123456789abcdef0123\npython serve.py` })).failures).toEqual([]);
        expect((await check({ ...valid, env })).failures).toEqual([]);
        expect((await check({ ...valid, private: false, env: { HF_TOKEN: UNKNOWN } })).failures).toEqual([]);
        const said = host.output.slice(from);
        expect(said).toEqual([
            expect.stringContaining('vastai: warning: template "base" is public (private: false), and its env HF_TOKEN looks like a credential: every Vast.ai user can read'),
            expect.stringContaining('vastai: warning: template "base" is public (private: false), and its onstart sets WANDB_API_KEY to what looks like a credential'),
        ]);
        expect(said.join("\n")).not.toContain(token);
    });
});

describe("stack config mistakes are told at the first check, in preview", () => {
    it("a vastai: key the provider does not read, and a base URL the key would be refused to, are warned of; the key's value never", async () => {
        const host = await ProviderHost.start();
        try {
            const key = "misfiled-key-0123456789";
            await host.configure({ "vastai:apikey": key, "vastai:baseUrl": "http://vast.example.com", "vastai:region": "eu" });
            const [reg] = await registerAsProgram(() => new Template("base", valid));
            const checked = await host.check(host.urn(reg.type, reg.name), {}, { __provider: reg.inputs.__provider, ...valid });
            expect(checked.failures).toEqual([]);
            // The host's stderr reaches the test beside its answers, not before them.
            const said = await eventually(async () => (host.output.some((l) => l.includes("vastai:baseUrl: refusing")) ? host.output.join("\n") : undefined));
            expect(said).toContain('vastai: warning: vastai:apikey is not a setting of this provider (it reads vastai:apiKey and vastai:baseUrl); did you mean "vastai:apiKey"?');
            expect(said).toContain("vastai: warning: vastai:baseUrl: refusing to send the API key to http://vast.example.com");
            expect(said).not.toContain(key);
            // A project named vastai has vastai: keys of its own: only a near miss is told.
            expect(said).not.toContain("vastai:region");
        } finally {
            await host.stop();
        }
    });

    it("an HTTPS_PROXY that is no proxy URL is warned of, naming it and the form expected; its password never", async () => {
        const host = await ProviderHost.start({ env: { HTTPS_PROXY: "socks5://jo:hunter22@proxy.corp:1080", https_proxy: undefined, NO_PROXY: undefined, no_proxy: undefined } });
        try {
            // The default base URL, https://console.vast.ai: the proxy would be used.
            await host.configure({ "vastai:apiKey": "some-key-0123456789" });
            const [reg] = await registerAsProgram(() => new Template("proxied", valid));
            const checked = await host.check(host.urn(reg.type, reg.name), {}, { __provider: reg.inputs.__provider, ...valid });
            expect(checked.failures).toEqual([]);
            const said = await eventually(async () => (host.output.some((l) => l.includes("HTTPS_PROXY")) ? host.output.join("\n") : undefined));
            expect(said).toContain("vastai: warning: HTTPS_PROXY must name a plain http:// proxy");
            expect(said).toContain("expected http://host:port");
            expect(said).not.toMatch(/hunter22|jo:/);
        } finally {
            await host.stop();
        }
    });
});
