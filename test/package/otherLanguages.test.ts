import * as fs from "fs";
import * as path from "path";
import { REPO_ROOT } from "../../testkit/repoRoot";
import { PackageSchema, Use, checkUses, pyName } from "./schemaUses";
import { pythonUses } from "./pythonUses";
import { yamlUses } from "./yamlUses";

/**
 * The Python and YAML examples, and the Python and YAML blocks of the other-languages guide, use
 * only what the plugin's schema (schema.json) has: every resource type and function token, every
 * argument and nested key, and every output they read. Neither language runs here (the Pulumi CLI
 * and the Python SDK cannot be installed in CI), so this is what keeps them honest: a property the
 * schema lacks fails, named with its file and line.
 */
const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const GUIDE = "docs/guides/other-languages.md";

function loadSchema(): PackageSchema {
    const file = path.join(REPO_ROOT, "schema.json");
    if (!fs.existsSync(file)) throw new Error("no schema.json at the repository root: the schema generator writes it (branch schema)");
    return JSON.parse(fs.readFileSync(file, "utf8")) as PackageSchema;
}

/** The guide's fenced blocks of one language that use the SDK, each with the line its text starts on. */
function guideBlocks(language: "python" | "yaml"): Array<{ line: number; text: string }> {
    const text = read(GUIDE);
    return [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, "gm"))].map((m) => ({
        line: text.slice(0, m.index).split("\n").length + 1,
        text: m[1],
    }));
}

/** A block's text at its place on the page: blank lines before it, so a failure names the page's line. */
const atItsLine = (block: { line: number; text: string }) => "\n".repeat(block.line - 1) + block.text;

interface Source {
    readonly file: string;
    /** How the test names it: the file, or the guide's block by its line. */
    readonly label: string;
    readonly uses: () => Use[];
}

function sources(packageName: string): Source[] {
    return [
        { file: "examples/python/__main__.py", label: "examples/python/__main__.py", uses: () => pythonUses(read("examples/python/__main__.py"), packageName) },
        { file: "examples/yaml/Pulumi.yaml", label: "examples/yaml/Pulumi.yaml", uses: () => yamlUses(read("examples/yaml/Pulumi.yaml")) },
        ...guideBlocks("python").map((b) => ({ file: GUIDE, label: `${GUIDE}, the Python block at line ${b.line}`, uses: () => pythonUses(atItsLine(b), packageName) })),
        ...guideBlocks("yaml").map((b) => ({ file: GUIDE, label: `${GUIDE}, the YAML block at line ${b.line}`, uses: () => yamlUses(atItsLine(b)) })),
    ];
}

describe("the Python and YAML examples against schema.json", () => {
    let schema: PackageSchema;
    beforeAll(() => {
        schema = loadSchema();
    });

    it("reads the schema, and finds in the examples what it checks", () => {
        expect(schema.name).toBe("vastai");
        const python = pythonUses(read("examples/python/__main__.py"), schema.name);
        const yaml = yamlUses(read("examples/yaml/Pulumi.yaml"));
        const targets = (uses: Use[]) => uses.filter((u) => u.kind === "call").map((u) => Object.values(u.target)[0]);
        expect(targets(python)).toEqual(expect.arrayContaining(["Template", "SshKey", "Volume", "Instance", "search_offers_output"]));
        expect(targets(yaml)).toEqual(expect.arrayContaining(["vastai:index:Template", "vastai:index:SshKey", "vastai:index:Volume", "vastai:index:Instance", "vastai:index:searchOffers"]));
        expect(python.filter((u) => u.kind === "path").length).toBeGreaterThanOrEqual(10);
        expect(yaml.filter((u) => u.kind === "path").length).toBeGreaterThanOrEqual(10);
        expect(guideBlocks("python").length).toBeGreaterThanOrEqual(2);
    });

    it.each(sources("vastai"))("$label uses only what the schema has", ({ file, uses }) => {
        expect(checkUses(schema, file, uses())).toEqual([]);
    });
});

describe("the check bites", () => {
    // A schema of one resource, one type, one function and the provider, as the generator writes them.
    const schema: PackageSchema = {
        name: "vastai",
        provider: { inputProperties: { apiKey: { type: "string" }, baseUrl: { type: "string" } } },
        resources: {
            "vastai:index:Instance": {
                inputProperties: {
                    templateHashId: { type: "string" },
                    offer: { $ref: "#/types/vastai:index:InstanceOffer" },
                    volumes: { type: "array", items: { $ref: "#/types/vastai:index:InstanceVolume" } },
                    env: { type: "object", additionalProperties: { type: "string" } },
                },
                properties: { sshPort: { type: "integer" }, publicIpaddr: { type: "string" } },
            },
        },
        types: {
            "vastai:index:InstanceOffer": { type: "object", properties: { maxPricePerHour: { type: "number" }, filters: { $ref: "pulumi.json#/Any" } } },
            "vastai:index:InstanceVolume": { type: "object", properties: { volume: { type: "string" }, mountPath: { type: "string" } } },
            "vastai:index:Offer": { type: "object", properties: { dphTotal: { type: "number" } } },
        },
        functions: {
            "vastai:index:searchOffers": {
                inputs: { properties: { limit: { type: "integer" } } },
                outputs: { properties: { offers: { type: "array", items: { $ref: "#/types/vastai:index:Offer" } } } },
            },
        },
    };

    it("names Python's generated spellings as Pulumi's codegen does", () => {
        expect(["templateHashId", "maxPricePerGbMonth", "publicIpaddr", "sshDirect", "in", "SHA256Hash", "publicIPs", "apiKey"].map(pyName)).toEqual([
            "template_hash_id",
            "max_price_per_gb_month",
            "public_ipaddr",
            "ssh_direct",
            "in_",
            "sha256_hash",
            "public_ips",
            "api_key",
        ]);
    });

    it("Python: a keyword, a dict key, an Args type, an invoke and an attribute the schema lacks each fail with their line", () => {
        const program = [
            "import pulumi",
            "import pulumi_vastai as vastai",
            'gpu = vastai.Instance("gpu",',
            '    template_hash_id="abc",',
            '    templateHashId="abc",',
            '    offer={"max_price_per_hour": 0.5, "maxPricePerHour": 0.5, "max_price": 1, "filters": {"gpu_name": {"in": ["A"]}}},',
            '    volumes=[{"volume": "1", "mount_path": "/data", "mountpath": "/x"}],',
            '    env={"ANY_NAME": "1"},',
            "    opts=pulumi.ResourceOptions(depends_on=[]))",
            "offer = vastai.InstanceOfferArgs(max_price_per_hour=1, maxprice=2)",
            'team = vastai.Provider("team", api_key="k", base_url="u", region="x")',
            "found = vastai.search_offers_output(limit=1, order=[])",
            "vastai.search_offers(limit=1)",
            "vastai.search_offer(limit=1)",
            'pulumi.export("a", gpu.ssh_port)',
            'pulumi.export("b", gpu.ssh_prot)',
            'pulumi.export("c", found.offers[0].dph_total)',
            'pulumi.export("d", found.offers[0].dph_totl)',
            'pulumi.export("e", gpu.id.apply(lambda i: i))',
        ].join("\n");
        expect(checkUses(schema, "p.py", pythonUses(program, "vastai"))).toEqual([
            expect.stringMatching(/^p\.py:5: vastai\.Instance: no property "templateHashId" \(it has template_hash_id, offer, volumes, env\)$/),
            expect.stringMatching(/^p\.py:6: vastai\.Instance\.offer: no property "max_price" /),
            expect.stringMatching(/^p\.py:7: vastai\.Instance\.volumes\[0\]: no property "mountpath" /),
            expect.stringMatching(/^p\.py:10: vastai\.InstanceOfferArgs: no property "maxprice" /),
            expect.stringMatching(/^p\.py:11: vastai\.Provider: no property "region" \(it has api_key, base_url\)$/),
            expect.stringMatching(/^p\.py:12: vastai\.search_offers_output \(vastai:index:searchOffers\): no property "order" /),
            expect.stringMatching(/^p\.py:14: vastai\.search_offer: the schema has no /),
            expect.stringMatching(/^p\.py:16: gpu\.ssh_prot: vastai\.Instance has no output "ssh_prot" /),
            expect.stringMatching(/^p\.py:18: found\.offers\[0\]\.dph_totl: .* has no output "dph_totl" \(it has dph_total\)$/),
        ]);
    });

    it("YAML: a type, a property, a nested key, a function, an argument, a return and an output the schema lacks each fail with their line", () => {
        const program = [
            "name: p",
            "runtime: yaml",
            "variables:",
            "  found:",
            "    fn::invoke:",
            "      function: vastai:index:searchOffers",
            "      arguments: { limit: 1, limt: 2 }",
            "  missing:",
            "    fn::invoke: { function: vastai:index:searchOfers }",
            "  first:",
            "    fn::invoke: { function: vastai:index:searchOffers, return: offer }",
            "resources:",
            "  team:",
            "    type: pulumi:providers:vastai",
            "    properties: { apiKey: k, api_key: k }",
            "  gpu:",
            "    type: vastai:index:Instance",
            "    properties:",
            "      templateHashId: abc",
            "      template_hash_id: abc",
            "      offer: { maxPricePerHour: 0.5, max_price_per_hour: 0.5, filters: { gpu_name: { in: [A] } } }",
            "      volumes: [{ volume: '1', mountPath: /data, mount_path: /x }]",
            "      env: { ANY_NAME: '1' }",
            "  key:",
            "    type: vastai:index:SshKy",
            "outputs:",
            "  a: ${gpu.sshPort} and ${gpu.ssh_port} and ${found.offers[0].dphTotal} and ${found.offers[0].dph_total} and $${gpu.nothing}",
        ].join("\n");
        expect(checkUses(schema, "Pulumi.yaml", yamlUses(program))).toEqual([
            expect.stringMatching(/^Pulumi\.yaml:15: pulumi:providers:vastai: no property "api_key" \(it has apiKey, baseUrl\)$/),
            expect.stringMatching(/^Pulumi\.yaml:20: vastai:index:Instance: no property "template_hash_id" /),
            expect.stringMatching(/^Pulumi\.yaml:21: vastai:index:Instance\.offer: no property "max_price_per_hour" /),
            expect.stringMatching(/^Pulumi\.yaml:22: vastai:index:Instance\.volumes\[0\]: no property "mount_path" /),
            expect.stringMatching(/^Pulumi\.yaml:25: type vastai:index:SshKy: the schema has no such resource /),
            expect.stringMatching(/^Pulumi\.yaml:7: vastai:index:searchOffers: no property "limt" /),
            expect.stringMatching(/^Pulumi\.yaml:9: fn::invoke vastai:index:searchOfers: the schema has no such function /),
            expect.stringMatching(/^Pulumi\.yaml:11: fn::invoke vastai:index:searchOffers: return: offer: no such output \(it has offers\)$/),
            expect.stringMatching(/^Pulumi\.yaml:27: \$\{gpu\.ssh_port\}: vastai:index:Instance has no output "ssh_port" /),
            expect.stringMatching(/^Pulumi\.yaml:27: \$\{found\.offers\[0\]\.dph_total\}: vastai:index:searchOffers has no output "dph_total" \(it has dphTotal\)$/),
        ]);
    });

    it("a reader that finds nothing fails rather than passes", () => {
        expect(() => pythonUses("import pulumi\n", "vastai")).toThrow(/no `import pulumi_vastai`/);
        expect(() => yamlUses("name: p\nruntime: yaml\n")).toThrow(/no resources/);
    });
});
