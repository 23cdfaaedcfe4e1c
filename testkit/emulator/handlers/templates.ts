import { EmuResponse, fail, invalidArgs, ok } from "../response";
import { EmuTemplate, templateHash } from "../model";
import { FieldType, asNumber, filtersFromQuery, matchesFilters, validateFilters } from "../selectFilters";
import { HandlerContext, isObject } from "./context";

/** Template fields the service stores, with the JSON type each must have (contract §2.2). */
const TEMPLATE_FIELDS: Record<string, "string" | "boolean" | "number" | "object" | "string|null" | "object|null"> = {
    name: "string",
    image: "string",
    tag: "string",
    desc: "string",
    readme: "string",
    env: "string",
    onstart: "string",
    runtype: "string",
    args_str: "string",
    ssh_direct: "boolean",
    use_ssh: "boolean",
    jup_direct: "boolean",
    jupyter_dir: "string|null",
    use_jupyter_lab: "boolean",
    docker_login_repo: "string",
    docker_login_user: "string",
    docker_login_pass: "string",
    href: "string",
    repo: "string",
    extra_filters: "object",
    recommended_disk_space: "number",
    private: "boolean",
    volume_info: "object|null",
};

/** Filterable fields and their types (contract §4.3). */
const FILTER_FIELDS: Record<string, FieldType> = {
    creator_id: "int",
    created_at: "float",
    count_created: "int",
    default_tag: "string",
    docker_login_repo: "string",
    id: "int",
    image: "string",
    jup_direct: "bool",
    hash_id: "string",
    name: "string",
    recent_create_date: "float",
    recommended_disk_space: "float",
    recommended: "bool",
    ssh_direct: "bool",
    tag: "string",
    use_ssh: "bool",
};

/**
 * The contract calls the three registry login fields required too, but the live service takes a
 * create without them: the vendor CLI sends `docker_login_repo` only with `--login` and never the
 * user or password (docs/live-service.md "Create template").
 */
const REQUIRED_ON_CREATE = ["name", "image"];

/** Defaults the contract names: tag latest, runtype args, recommended disk 8 GB. */
const CREATE_DEFAULTS = { tag: "latest", runtype: "args", recommended_disk_space: 8 };

/** A template's run types (contract §2.2); an instance's compound wire forms are not among them. */
const TEMPLATE_RUNTYPES = ["ssh", "jupyter", "args"];

function typeError(fields: Record<string, unknown>): string | undefined {
    // Before, any string was stored, so a client that sent an instance's runtype ("ssh_proxy",
    // "jupyter_direc ssh_direc ssh_proxy") or a misspelling to a template passed here.
    if (fields.runtype !== undefined && !TEMPLATE_RUNTYPES.includes(fields.runtype as string)) {
        return `runtype must be one of ${TEMPLATE_RUNTYPES.join(", ")}`;
    }
    for (const [name, value] of Object.entries(fields)) {
        const want = TEMPLATE_FIELDS[name];
        if (!want) continue;
        const ok = want.split("|").some((t) =>
            t === "null" ? value === null : t === "object" ? isObject(value) : typeof value === t,
        );
        if (!ok) return `${name} must be ${want.replace("|", " or ")}`;
    }
    return extraFiltersProblem(fields.extra_filters);
}

/**
 * `extra_filters` in the shape contract §2.2 gives it, `{field: {op: value}}` with the search's
 * operators (`in`/`notin` take arrays). Before, any object was stored, so `{gpu_name: "RTX 4090"}`
 * or a misspelt operator passed here and would never apply live.
 */
export function extraFiltersProblem(filters: unknown): string | undefined {
    if (filters === undefined) return undefined;
    const problem = validateFilters(filters, undefined, "extra_filters");
    return problem && !problem.startsWith("extra_filters") ? `extra_filters: ${problem}` : problem;
}

/** Only the fields the service knows are stored; it ignores the rest. A number due may come as a string (see `asNumber`). */
function knownFields(body: Record<string, unknown>): Record<string, unknown> {
    return Object.fromEntries(
        Object.entries(body)
            .filter(([k]) => k in TEMPLATE_FIELDS)
            .map(([k, v]) => [k, TEMPLATE_FIELDS[k] === "number" ? asNumber(v) : v]),
    );
}

/** A template as the service shows it: everything but the registry password. */
export function templateView(t: EmuTemplate): Record<string, unknown> {
    const { docker_login_pass: _secret, ...fields } = t.fields;
    return {
        jup_direct: false,
        ssh_direct: false,
        use_ssh: false,
        // A template made without `private` is public (other users see it), and says so.
        private: false,
        ...fields,
        id: t.id,
        hash_id: t.hash_id,
        creator_id: t.creator_id,
        created_at: t.created_at / 1000,
        recent_create_date: t.recent_create_date / 1000,
        count_created: t.count_created,
        default_tag: t.default_tag,
        recommended: t.recommended,
    };
}

/** Templates the caller can see: its own, and other users' public ones. */
function visible(ctx: HandlerContext): EmuTemplate[] {
    return [...ctx.emu.model.templates.values()].filter(
        (t) => !t.deleted && (t.creator_id === ctx.caller.user.id || t.fields.private !== true),
    );
}

export function findVisibleByHash(ctx: HandlerContext, hashId: string): EmuTemplate | undefined {
    return visible(ctx).find((t) => t.hash_id === hashId);
}

export function findVisibleById(ctx: HandlerContext, id: number): EmuTemplate | undefined {
    return visible(ctx).find((t) => t.id === id);
}

export function searchTemplates(ctx: HandlerContext): EmuResponse {
    const parsed = filtersFromQuery(ctx.query, FILTER_FIELDS);
    if ("problem" in parsed) return invalidArgs(parsed.problem);
    const { filters } = parsed;
    const templates = visible(ctx)
        .map(templateView)
        .filter((view) => matchesFilters(view, filters))
        .sort((a, b) => (a.id as number) - (b.id as number));
    // As the live service documents it: a search that matches nothing is a 200 with success false.
    if (templates.length === 0) return ok({ success: false, msg: "No templates found" });
    return ok({ success: true, templates_found: templates.length, templates });
}

export function createTemplate(ctx: HandlerContext): EmuResponse {
    if (!isObject(ctx.body)) return invalidArgs("body must be a JSON object");
    const missing = REQUIRED_ON_CREATE.find((f) => !(f in (ctx.body as object)));
    if (missing) return invalidArgs(`${missing} is required`);
    const fields: Record<string, unknown> = { ...CREATE_DEFAULTS, ...knownFields(ctx.body) };
    const problem = typeError(fields);
    if (problem) return invalidArgs(problem);
    if (!fields.name || !fields.image) return invalidArgs("name and image must not be empty");

    const model = ctx.emu.model;
    if (ctx.emu.options.dedupeTemplates) {
        // Another account's public template matches too: the live response has been seen naming a
        // template whose creator_id was another account's.
        // A delete only unlinks a template from the account (docs/live-service.md "Bodies and
        // responses"): the account's own deleted template is still there to be found, and is
        // linked again. Before, a deleted one was never found, so a destroy and a new `up` of the
        // same program made a fresh template here where the live service answers with the old one.
        const same = [...model.templates.values()].find(
            (t) => (!t.deleted || t.creator_id === ctx.caller.user.id) && (t.creator_id === ctx.caller.user.id || t.fields.private === false) && sameFields(t.fields, fields),
        );
        if (same) {
            // As the live service documents it: success false, with the template it found, and
            // "User relationship added" when it links the template to the account (one it had
            // deleted, or another account's); not when the account has it linked already.
            const linkedAlready = !same.deleted && same.creator_id === ctx.caller.user.id;
            same.deleted = false;
            const msg = `Existing Template Found: ${same.id}.${linkedAlready ? "" : " User relationship added."}`;
            return ok({ success: false, msg, template: templateView(same) });
        }
    }
    const template = model.addTemplate(ctx.caller.user.id, fields);
    return ok({ success: true, msg: "template created", template: templateView(template) });
}

export function editTemplate(ctx: HandlerContext): EmuResponse {
    if (!isObject(ctx.body)) return invalidArgs("body must be a JSON object");
    const hashId = ctx.body.hash_id;
    if (typeof hashId !== "string") return invalidArgs("hash_id is required");
    // The live service's words for both refusals (its API reference: 400s).
    const template = [...ctx.emu.model.templates.values()].find((t) => !t.deleted && t.hash_id === hashId);
    if (!template) return invalidArgs(`Unable to Update Template. None found for given Hash ID: ${hashId}`);
    if (template.creator_id !== ctx.caller.user.id) return invalidArgs("Only the Template Creator may Update Existing Template.");
    const changes = knownFields(ctx.body);
    const problem = typeError(changes);
    if (problem) return invalidArgs(problem);
    // As on create: an edit left a template without its name or image before.
    if (changes.name === "" || changes.image === "") return invalidArgs("name and image must not be empty");
    applyEdit(template, changes, ctx.now);
    return ok({ success: true, msg: "template updated", template: templateView(template) });
}

/** An edit, from the API or "the console": fields change, and so does the hash. */
export function applyEdit(template: EmuTemplate, changes: Record<string, unknown>, at: number): void {
    Object.assign(template.fields, changes);
    if (typeof changes.tag === "string") template.default_tag = changes.tag;
    template.revision++;
    template.recent_create_date = at;
    template.hash_id = templateHash(template);
}

export function deleteTemplate(ctx: HandlerContext): EmuResponse {
    const body = isObject(ctx.body) ? ctx.body : {};
    const templateId = body.template_id;
    if (typeof templateId !== "number" || !Number.isInteger(templateId)) {
        return invalidArgs("template_id (the numeric id) is required; hash_id is not accepted here");
    }
    const template = ctx.emu.model.templates.get(templateId);
    if (!template || template.deleted) return fail(404, "not_found", `no template with id ${templateId}`);
    // The service's API reference: a key not the creator's is refused 401, with no error code. Before,
    // it was a 404, which a client may read as "already gone" for a template that is still there.
    if (template.creator_id !== ctx.caller.user.id) return { status: 401, body: { success: false, msg: "Templates can ONLY be Deleted by their Creator" } };
    template.deleted = true;
    return ok({ success: true, msg: `Template ${template.id} Deleted Successfully` });
}

function sameFields(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}
