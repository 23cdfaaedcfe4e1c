import * as pulumi from "@pulumi/pulumi";
import { TemplateFilterBuilder, TemplateFilters, VastInvalidArgsError, searchTemplates, templateFilters } from "../../provider";
import { TemplateCreateRequest } from "../../provider/schemas/template";
import { Emulator } from "../../testkit/emulator/server";
import { clientFor } from "../../testkit/support/fixtures";
import { programEmulator } from "../../testkit/support/programEmulator";

type Name = "alpha" | "bravo" | "charlie";
type Ids = Record<Name, number>;

const login = { docker_login_repo: "", docker_login_user: "", docker_login_pass: "" };
/** Three templates, ordered the same way on every field under test (bool: true, false, false). */
const SEEDS: Record<Name, TemplateCreateRequest> = {
    alpha: { name: "alpha", image: "busybox", recommended_disk_space: 8, ssh_direct: true, ...login },
    bravo: { name: "bravo", image: "busybox", recommended_disk_space: 16.5, ssh_direct: false, ...login },
    charlie: { name: "charlie", image: "busybox", recommended_disk_space: 32, ssh_direct: false, ...login },
};

/**
 * Every operator on a field of each type: `id` (int), `recommended_disk_space` (float), `name`
 * (string), `ssh_direct` (bool). Each filter is a typed literal, so the compiler checks every
 * value against its field as it would in a program.
 */
const CASES: Array<[string, (ids: Ids) => TemplateFilters, Name[]]> = [
    ["int eq", (i) => ({ id: { eq: i.bravo } }), ["bravo"]],
    ["int neq", (i) => ({ id: { neq: i.bravo } }), ["alpha", "charlie"]],
    ["int lt", (i) => ({ id: { lt: i.bravo } }), ["alpha"]],
    ["int lte", (i) => ({ id: { lte: i.bravo } }), ["alpha", "bravo"]],
    ["int gt", (i) => ({ id: { gt: i.bravo } }), ["charlie"]],
    ["int gte", (i) => ({ id: { gte: i.bravo } }), ["bravo", "charlie"]],
    ["int in", (i) => ({ id: { in: [i.alpha, i.charlie] } }), ["alpha", "charlie"]],
    ["int notin", (i) => ({ id: { notin: [i.alpha, i.charlie] } }), ["bravo"]],
    ["float eq", () => ({ recommended_disk_space: { eq: 16.5 } }), ["bravo"]],
    ["float neq", () => ({ recommended_disk_space: { neq: 16.5 } }), ["alpha", "charlie"]],
    ["float lt", () => ({ recommended_disk_space: { lt: 16.5 } }), ["alpha"]],
    ["float lte", () => ({ recommended_disk_space: { lte: 16.5 } }), ["alpha", "bravo"]],
    ["float gt", () => ({ recommended_disk_space: { gt: 16.5 } }), ["charlie"]],
    ["float gte", () => ({ recommended_disk_space: { gte: 16.5 } }), ["bravo", "charlie"]],
    ["float in", () => ({ recommended_disk_space: { in: [8, 32] } }), ["alpha", "charlie"]],
    ["float notin", () => ({ recommended_disk_space: { notin: [8, 32] } }), ["bravo"]],
    ["string eq", () => ({ name: { eq: "bravo" } }), ["bravo"]],
    ["string neq", () => ({ name: { neq: "bravo" } }), ["alpha", "charlie"]],
    ["string lt", () => ({ name: { lt: "bravo" } }), ["alpha"]],
    ["string lte", () => ({ name: { lte: "bravo" } }), ["alpha", "bravo"]],
    ["string gt", () => ({ name: { gt: "bravo" } }), ["charlie"]],
    ["string gte", () => ({ name: { gte: "bravo" } }), ["bravo", "charlie"]],
    ["string in", () => ({ name: { in: ["alpha", "charlie"] } }), ["alpha", "charlie"]],
    ["string notin", () => ({ name: { notin: ["alpha", "charlie"] } }), ["bravo"]],
    ["bool eq", () => ({ ssh_direct: { eq: true } }), ["alpha"]],
    ["bool neq", () => ({ ssh_direct: { neq: true } }), ["bravo", "charlie"]],
    ["bool lt", () => ({ ssh_direct: { lt: true } }), ["bravo", "charlie"]],
    ["bool lte", () => ({ ssh_direct: { lte: false } }), ["bravo", "charlie"]],
    ["bool gt", () => ({ ssh_direct: { gt: false } }), ["alpha"]],
    ["bool gte", () => ({ ssh_direct: { gte: true } }), ["alpha"]],
    ["bool in", () => ({ ssh_direct: { in: [true] } }), ["alpha"]],
    ["bool notin", () => ({ ssh_direct: { notin: [true] } }), ["bravo", "charlie"]],
];

describe("searchTemplates against the emulator", () => {
    const program = programEmulator();
    let emu: Emulator;
    const ids = {} as Ids;
    beforeAll(async () => {
        emu = program.emu;
        const vast = clientFor(emu);
        for (const [name, seed] of Object.entries(SEEDS)) ids[name as Name] = (await vast.templates.create(seed)).template.id;
    });

    it.each(CASES)("%s", async (_label, filters, expected) => {
        // Kept to this account's templates, so only the three seeds can match.
        const sent = { ...filters(ids), creator_id: { eq: emu.demoUser.id } };
        const found = await searchTemplates(sent);
        const [req] = emu.requestsTo("GET", "/api/v0/template/");
        expect(JSON.parse(req.query.select_filters)).toEqual(sent);
        expect(found.map((t) => t.name).sort()).toEqual(expected);
    });

    it("builds the same select_filters with the typed builder, several fields and operators combined", async () => {
        const filters = templateFilters()
            .where("creator_id").eq(emu.demoUser.id)
            .where("recommended_disk_space").gt(8).lte(32)
            .where("name").notin(["charlie"]);
        expect(filters.build()).toEqual({
            creator_id: { eq: emu.demoUser.id },
            recommended_disk_space: { gt: 8, lte: 32 },
            name: { notin: ["charlie"] },
        });
        const found = await searchTemplates(filters);
        expect(found.map((t) => t.id)).toEqual([ids.bravo]);
        expect(JSON.parse(emu.requestsTo("GET", "/api/v0/template/")[0].query.select_filters)).toEqual(filters.build());
    });

    it("the builder is immutable and refuses a second value for one operator", () => {
        const base = templateFilters().where("recommended").eq(true);
        const narrower = base.where("tag").eq("latest");
        expect(base.build()).toEqual({ recommended: { eq: true } });
        expect(narrower.build()).toEqual({ recommended: { eq: true }, tag: { eq: "latest" } });
        expect(() => base.where("recommended").eq(false)).toThrow(VastInvalidArgsError);
        expect(() => base.where("recommended").eq(false)).toThrow(/^vastai: build template filters failed: recommended\.eq is already set/);
    });

    it("takes a builder from another copy of the package (a second install in node_modules) as a builder", async () => {
        let copy!: typeof import("../../provider/functions/templateFilterBuilder");
        jest.isolateModules(() => {
            copy = require("../../provider/functions/templateFilterBuilder");
        });
        const foreign = copy.templateFilters().where("creator_id").eq(emu.demoUser.id).where("name").eq("bravo");
        expect(foreign).not.toBeInstanceOf(TemplateFilterBuilder);
        const found = await searchTemplates(foreign as unknown as TemplateFilterBuilder);
        expect(found.map((t) => t.id)).toEqual([ids.bravo]);
    });

    it("results are typed records and include other users' public templates, as the service's are", async () => {
        const all = await searchTemplates();
        const pub = all.find((t) => t.creator_id === emu.otherUser.id)!;
        expect(pub).toMatchObject({ name: "PyTorch (public)", image: "pytorch/pytorch", recommended: true, count_created: 1200 });
        expect(typeof pub.hash_id).toBe("string");
        expect(all.some((t) => t.name === "someone else's private template")).toBe(false);
        expect(all.filter((t) => t.creator_id === emu.demoUser.id).map((t) => t.id).sort()).toEqual(Object.values(ids).sort());
    });

    it("checks values at run time too, for callers the compiler never saw; nothing is sent", async () => {
        const fromJavaScript = { recommended_disk_space: { gte: "16" }, name: { in: "alpha" } } as unknown as TemplateFilters;
        const error = await searchTemplates(fromJavaScript).catch((e) => e);
        expect(error).toBeInstanceOf(VastInvalidArgsError);
        expect(error.message).toMatch(/recommended_disk_space\.gte: .*expected number/);
        expect(error.message).toMatch(/name\.in: .*expected array/);
        await expect(searchTemplates({ id: { eq: 1.5 } })).rejects.toThrow(/id\.eq: .*int/);
        await expect(searchTemplates({ creator: { eq: 1 } } as unknown as TemplateFilters)).rejects.toThrow(/creator: unknown property "creator"/);
        await expect(searchTemplates({ creatr_id: { eq: 1 } } as unknown as TemplateFilters)).rejects.toThrow(/creatr_id: unknown property "creatr_id"; did you mean "creator_id"\?/);
        await expect(searchTemplates({ creator_id: { eq: pulumi.output(emu.demoUser.id) } } as unknown as TemplateFilters)).rejects.toThrow(
            /creator_id\.eq: expected a plain value, got an Output \(.*or use searchTemplatesOutput/,
        );
        expect(emu.requestsTo("GET", "/api/v0/template/")).toHaveLength(0);
    });

    it("refuses a condition whose operators are all undefined: JSON would send {} and match every template", async () => {
        // `me?.id` before the account was read: the search must not widen to everyone's templates.
        const unset: number | undefined = undefined;
        const error = await searchTemplates({ creator_id: { eq: unset } }).catch((e) => e);
        expect(error).toBeInstanceOf(VastInvalidArgsError);
        expect(error.message).toMatch(/creator_id\.eq: expected a number, got undefined/);
        await expect(searchTemplates({ name: { in: undefined, notin: undefined } })).rejects.toThrow(/name\.in: expected an array, got undefined/);
        await expect(searchTemplates(templateFilters().where("ssh_direct").eq(undefined as unknown as boolean))).rejects.toThrow(
            /ssh_direct\.eq: expected a boolean, got undefined/,
        );
        await expect(searchTemplates({ id: {} })).rejects.toThrow(/id: expected at least one operator/);
        // The whole condition undefined (`{ creator_id: mine?.condition }`): JSON would drop the field.
        await expect(searchTemplates({ creator_id: undefined })).rejects.toThrow(/creator_id: has no condition \(undefined\): give one, or leave the field out/);
        expect(emu.requestsTo("GET", "/api/v0/template/")).toHaveLength(0);

        // Beside a defined operator, an undefined one is only not given.
        const found = await searchTemplates({ creator_id: { eq: emu.demoUser.id }, name: { eq: "alpha", neq: undefined } });
        expect(found.map((t) => t.name)).toEqual(["alpha"]);
    });

    it("refuses an empty in or notin list, naming the field; nothing is sent", async () => {
        await expect(searchTemplates({ id: { in: [] } })).rejects.toThrow(/id\.in: expected at least one value/);
        await expect(searchTemplates({ name: { notin: [] } })).rejects.toThrow(/name\.notin: expected at least one value/);
        expect(emu.requestsTo("GET", "/api/v0/template/")).toHaveLength(0);
    });
});
