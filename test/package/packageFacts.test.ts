import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { REPO_ROOT } from "../../testkit/repoRoot";

/** What package.json, LICENSE and README.md say about the package agree with each other and with the SDK. */
const read = (...parts: string[]) => fs.readFileSync(path.join(REPO_ROOT, ...parts), "utf8");
const manifest = JSON.parse(read("package.json"));
const sdk = JSON.parse(read("node_modules", "@pulumi", "pulumi", "package.json"));
const readme = read("README.md");

describe("package facts", () => {
    it("LICENSE is the full text of the license package.json names", () => {
        expect(manifest.license).toBe("Apache-2.0");
        const license = read("LICENSE");
        expect(license).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
        expect(license).toContain("END OF TERMS AND CONDITIONS");
    });

    it("README states the Node versions: this package's engines, and the SDK's own", () => {
        expect(readme).toContain(`which is what \`engines\` says (\`${manifest.engines.node}\`)`);
        const sdkMinor = sdk.version.split(".").slice(0, 2).join(".");
        expect(readme).toContain(`\`@pulumi/pulumi\` ${sdkMinor} itself declares \`node ${sdk.engines.node}\``);
        expect(manifest.peerDependencies["@pulumi/pulumi"]).toMatch(new RegExp(`^>=${sdkMinor.replace(".", "\\.")}\\.`));
    });

    // Before: maxPricePerHour was declared "type: number", which Pulumi's project schema has not,
    // so `pulumi up` on the README's quickstart stack stopped before the program ran.
    it("Pulumi.yaml declares config only with the types Pulumi's project schema allows", () => {
        const project = parse(read("Pulumi.yaml")) as { config?: Record<string, unknown> };
        const allowed = ["string", "integer", "boolean", "array"];
        for (const [key, declared] of Object.entries(project.config ?? {})) {
            if (typeof declared !== "object" || declared === null) continue; // a plain value: allowed as it is
            expect({ key, type: (declared as { type?: unknown }).type }).toEqual({ key, type: expect.stringMatching(new RegExp(`^(${allowed.join("|")})$`)) });
        }
    });

    it("ships the build: types for node10 programs, exports for the rest, and prepare builds both", () => {
        expect(manifest.scripts.prepare).toBe("tsc -p tsconfig.build.json && node scripts/argsDocs.js && node scripts/node10Types.js");
        expect(manifest.types).toBe("dist/types-node10/index.d.ts");
        expect(manifest.exports["."].types).toBe("./dist/provider/index.d.ts");
        expect(manifest.files).toEqual(expect.arrayContaining(["dist/provider", "dist/types-node10"]));
    });

    it("the policy pack is a pack Pulumi can start: its version is the package's, its entry point the built pack", () => {
        const pack = JSON.parse(read("policy", "package.json"));
        expect(pack.version).toBe(manifest.version);
        expect(path.normalize(path.join("policy", pack.main))).toBe(path.join("dist", "provider", "policy", "pack.js"));
        // A program compiled with node10 resolution (which ignores exports) finds pulumi-vastai/policy's types through this file.
        expect(path.normalize(path.join("policy", pack.types))).toBe(path.join("dist", "types-node10", "policy", "index.d.ts"));
        expect(parse(read("policy", "PulumiPolicy.yaml")).runtime).toBe("nodejs");
        expect(manifest.files).toEqual(expect.arrayContaining(["policy/PulumiPolicy.yaml", "policy/package.json"]));
        // Only programs that run the pack need @pulumi/policy.
        expect(manifest.peerDependenciesMeta["@pulumi/policy"]).toEqual({ optional: true });
        expect(read("provider", "index.ts")).not.toMatch(/policy/);
    });
});
