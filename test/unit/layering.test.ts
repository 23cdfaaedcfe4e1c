import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ImportGraph, importCircles, importGraph, layerProblems, mutualParts } from "../../testkit/support/importGraph";

/**
 * The layers of provider/ and testkit/, read from their imports: no file reaches itself through
 * imports (type-only ones count), and every import runs down a layer. In provider/, the error
 * codes, then the wire schemas and the client are at the bottom; resources and functions are handed what they need (a
 * context) and never reach up into the runtime or the package index; the command line is on top,
 * and nothing imports it. The checker (testkit/support/importGraph.ts) is tested here too, on
 * planted circles and upward imports, so a green run means something.
 */
const REPO = path.resolve(__dirname, "..", "..");

/** Each list is one layer, lowest first: a part imports only parts of the layers below its own. */
const LAYERS: Array<{ root: string; within?: string; layers: string[][] }> = [
    {
        root: "provider",
        layers: [
            ["errors"],
            ["schemas"],
            ["client"],
            ["dynamic"],
            ["env", "config"],
            ["resources", "functions"],
            ["declarative"],
            ["runtime", "index", "cli", "policy"],
            ["plugin"],
        ],
    },
    {
        root: "provider",
        within: "client",
        layers: [
            ["endpoints", "hosts", "httpAdapter", "notFound", "pacer", "redaction", "zodIssues"],
            ["errors"],
            ["errorClassification", "proxy"],
            ["retryPolicy", "tunnel"],
            ["connections", "registry"],
            ["transport"],
            ["api"],
            ["vastClient"],
        ],
    },
    {
        // The instance's stages: each story (create, read, update, delete, check) uses what lies below it, never another story.
        root: "provider",
        within: "resources/instance",
        layers: [["instanceArgs"], ["common", "wait"], ["create", "read", "update", "delete", "check"], ["instanceProvider", "instance"]],
    },
    {
        root: "provider",
        within: "resources/template",
        layers: [["templateArgs"], ["publishedSecrets", "common"], ["create", "read", "update", "delete"], ["templateProvider", "template"]],
    },
    {
        root: "testkit",
        layers: [["repoRoot", "tls", "proxy", "registry"], ["emulator", "host", "policy"], ["engine"], ["support"]],
    },
    {
        root: "testkit",
        within: "emulator",
        layers: [
            ["model", "response", "faults", "selectFilters", "envFlags"],
            ["auth", "faultResponses", "rateLimiter", "marketplace", "instanceStatus", "searchParams"],
            ["options"],
            ["handlers"],
            ["routes", "autoscaler"],
            ["server"],
            ["main"],
        ],
    },
    {
        root: "testkit",
        within: "emulator/handlers",
        layers: [["context"], ["account", "catalog", "offers", "sshKeys", "templates"], ["instances"], ["instanceState", "serverless"], ["serverlessLogs"]],
    },
];

const graphs: Record<string, ImportGraph> = {
    provider: importGraph(path.join(REPO, "provider")),
    testkit: importGraph(path.join(REPO, "testkit")),
};

/** `provider`'s parts: `resources` for resources/..., `index` for index.ts. */
function folderEdges(root: string): Array<{ from: string; to: string; file: string }> {
    const part = (file: string) => file.split("/")[0].replace(/\.(ts|js)$/, "");
    return [...graphs[root]].flatMap(([file, targets]) => targets.map((t) => ({ from: part(file), to: part(t), file }))).filter((e) => e.from !== e.to);
}

describe("the provider's layering", () => {
    const edges = folderEdges("provider");

    it("finds the imports it judges", () => {
        expect(edges.some((e) => e.from === "resources" && e.to === "client")).toBe(true);
        expect(edges.some((e) => e.from === "runtime" && e.to === "resources")).toBe(true);
        // Type-only imports count: dynamic/context.ts takes only the VastClient type.
        expect(graphs.provider.get("dynamic/context.ts")).toContain("client/vastClient.ts");
    });

    it("resources and functions never import the runtime or the package index", () => {
        const upward = edges.filter((e) => ["resources", "functions"].includes(e.from) && ["runtime", "index"].includes(e.to));
        expect(upward.map((e) => `${e.file} imports ${e.to}`)).toEqual([]);
    });

    it("nothing imports the command line (provider/cli), which only runs as the package's bin", () => {
        expect(edges.filter((e) => e.to === "cli").map((e) => `${e.file} imports cli`)).toEqual([]);
    });

    it("nothing imports the policy pack (provider/policy), so only a pack loads @pulumi/policy", () => {
        expect(edges.filter((e) => e.to === "policy").map((e) => `${e.file} imports policy`)).toEqual([]);
    });

    it("no two folders import each other both ways", () => {
        expect(mutualParts(graphs.provider).map(([a, b]) => `${a} and ${b}`)).toEqual([]);
    });

    it("the client imports nothing but itself, the schemas and the error codes", () => {
        const out = edges.filter((e) => e.from === "client" && e.to !== "schemas" && e.to !== "errors");
        expect(out.map((e) => `${e.file} imports ${e.to}`)).toEqual([]);
    });
});

describe.each(Object.keys(graphs))("%s/: no import circle between files", (root) => {
    it("has none", () => {
        expect(importCircles(graphs[root]).map((c) => c.join(" "))).toEqual([]);
    });
});

describe.each(LAYERS.map((l) => [`${l.root}/${l.within ?? ""}`, l] as const))("%s: no import runs back up", (_name, { root, within, layers }) => {
    it("every part has a layer and imports only the layers below it", () => {
        expect(layerProblems(graphs[root], layers, within).map((p) => `${p.file}${p.imports ? ` -> ${p.imports}` : ""}: ${p.problem}`)).toEqual([]);
    });

    it("no two parts import each other both ways", () => {
        expect(mutualParts(graphs[root], within).map(([a, b]) => `${a} and ${b}`)).toEqual([]);
    });
});

describe("the checker bites", () => {
    let dir: string;
    const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
    };
    beforeEach(() => {
        dir = fs.mkdtempSync(path.join(os.tmpdir(), "layering-"));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it("finds a planted circle of three files, closed by a type-only import, an export-from and a bare import", () => {
        write("a.ts", 'import type { B } from "./b";\nexport type A = B;\n');
        write("b.ts", 'export { C as B } from "./c";\n');
        write("c.ts", 'import "./a";\nexport type C = number;\n');
        write("user.ts", 'import { A } from "./a";\n');
        expect(importCircles(importGraph(dir))).toEqual([["a.ts", "b.ts", "c.ts"]]);
    });

    it("finds a file that imports itself, and none where imports only run one way", () => {
        expect(importCircles(new Map([["a.ts", ["a.ts"]]]))).toEqual([["a.ts"]]);
        expect(importCircles(new Map([["a.ts", ["b.ts"]], ["b.ts", ["c.ts"]], ["c.ts", []]]))).toEqual([]);
    });

    it("finds a planted upward import, an import within one layer, and a folder with no layer", () => {
        write("low/x.ts", 'import { y } from "../high/y";\nexport const x = y;\n');
        write("high/y.ts", "export const y = 1;\n");
        write("high/z.ts", 'import { x } from "../low/x";\nexport const z = x;\n');
        write("side/w.ts", 'import { z } from "../high/z";\n');
        write("new/v.ts", "export const v = 1;\n");
        const problems = layerProblems(importGraph(dir), [["low"], ["high", "side"]]);
        expect(problems).toEqual(
            expect.arrayContaining([
                { file: "low/x.ts", imports: "high/y.ts", problem: "low imports high, of a higher layer" },
                { file: "side/w.ts", imports: "high/z.ts", problem: "side imports high, of its own layer" },
                { file: "new/v.ts", problem: "new is in no layer" },
            ]),
        );
        expect(problems).toHaveLength(3);
        expect(mutualParts(importGraph(dir))).toEqual([["high", "low"]]);
    });

    it("checks the parts inside a folder, by their first folder or file name", () => {
        const graph: ImportGraph = new Map([
            ["emu/server.ts", ["emu/handlers/a.ts"]],
            ["emu/handlers/a.ts", ["emu/server.ts", "emu/model.ts"]],
            ["emu/model.ts", []],
            ["other.ts", ["emu/server.ts"]],
        ]);
        expect(layerProblems(graph, [["model"], ["handlers"], ["server"]], "emu")).toEqual([
            { file: "emu/handlers/a.ts", imports: "emu/server.ts", problem: "handlers imports server, of a higher layer" },
        ]);
    });
});
