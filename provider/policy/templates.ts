import { ResourceValidationPolicy } from "@pulumi/policy";
import { looksLikeCredential } from "../env/credentials";
import { TEMPLATE_DEFAULTS } from "../resources/template/templateArgs";
import { UNKNOWN, isGiven, keysAt, kindOf, named, reportUnchecked, valueAt } from "./props";

export interface PrivateTemplatesConfig {
    allowPublic?: string[];
}

/**
 * Templates stay private unless allowed by name: every Vast.ai user can read a public template's
 * image, env, start script and readme. A template the program does not set `private` on is
 * private (the provider's default).
 */
export const privateTemplates: ResourceValidationPolicy = {
    name: "vastai-private-templates",
    description: "Templates are private unless the configuration allows them to be public.",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            allowPublic: { type: "array", items: { type: "string" }, description: "Templates that may be public, by resource name or by the template's name. Unset: none." },
        },
    },
    validateResource: (args, reportViolation) => {
        if (kindOf(args.type) !== "template") return;
        const who = named("template", args.name);
        const isPrivate = valueAt(args.props, "private") ?? TEMPLATE_DEFAULTS.private;
        if (isPrivate === UNKNOWN) return reportUnchecked(reportViolation, privateTemplates.name, `whether ${who} is private: private is not known yet`);
        if (isPrivate !== false) return;
        const allowed = args.getConfig<PrivateTemplatesConfig>().allowPublic ?? [];
        if (allowed.includes(args.name)) return;
        const templateName = valueAt(args.props, "name");
        if (templateName === UNKNOWN) return reportUnchecked(reportViolation, privateTemplates.name, `whether ${who} may be public: private is false, and its name is not known yet`);
        if (typeof templateName === "string" && allowed.includes(templateName)) return;
        reportViolation(`${who}: private is false, and the template is not among those allowed to be public (allowPublic: ${allowed.join(", ") || "none"}). Every Vast.ai user can read a public template's env, start script and readme`);
    },
};

/** Words in a variable's name that say it is for a container registry. */
const REGISTRY_WORDS = /(^|_)(DOCKER|DOCKERHUB|REGISTRY|GHCR|NGC|QUAY|ECR|GCR|ACR|HARBOR|CR)(_|$)/;
/** A registry login with its password on the command line: `docker login -u me -p s3cret`, `podman login --password=s3cret`. */
const LOGIN_WITH_PASSWORD = /\b(?:docker|podman|buildah|skopeo|nerdctl)\s+login\b[^\n;|&]*?\s(?:-p|--password)(?:=|\s+)("[^"]*"|'[^']*'|[^\s;|&]+)/g;

/** What a resource's props show of registry logins in plain text, and what is not known yet. */
interface LoginsFound {
    found: string[];
    unknown: string[];
}

/** The registry logins a resource's env, start script and arguments hold in plain text. */
function plainRegistryLogins(props: Record<string, unknown>): LoginsFound {
    const result: LoginsFound = { found: [], unknown: [] };
    const env = isGiven(props, "env");
    if (env === UNKNOWN) result.unknown.push("env");
    else if (env) {
        const flags = valueAt(props, "env");
        if (typeof flags === "string") searchText("env", flags, result);
        else for (const name of keysAt(props, "env")) {
            const value = valueAt(props, "env", name);
            if (value === UNKNOWN) result.unknown.push(`env ${name}`);
            else if (typeof value === "string" && REGISTRY_WORDS.test(name.toUpperCase()) && looksLikeCredential(name, value)) result.found.push(`env ${name}`);
        }
    }
    for (const property of ["onstart", "argsStr", "args"]) {
        const text = valueAt(props, property);
        if (text === UNKNOWN) result.unknown.push(property);
        else if (typeof text === "string") searchText(property, text, result);
        else if (Array.isArray(text)) searchText(property, text.filter((a) => typeof a === "string").join(" "), result);
    }
    return result;
}

function searchText(property: string, text: string, result: LoginsFound): void {
    const inline = [...text.matchAll(LOGIN_WITH_PASSWORD)].filter((m) => !/^["']?\$/.test(m[1]));
    if (inline.length > 0) result.found.push(`${property} (a registry login with its password on the command line)`);
}

/**
 * A registry login is given only where it is kept secret: a template's `dockerLoginPass`, an
 * instance's `imageLogin` (this package keeps both secret in state, whatever the program gives,
 * and a public template never shows them). One written in plain text elsewhere (an env variable,
 * a `docker login -p` in a start script) is reported.
 */
export const registryLoginsSecret: ResourceValidationPolicy = {
    name: "vastai-registry-logins-secret",
    description: "Registry logins are given only as dockerLoginPass (Template) or imageLogin (Instance), which are kept secret, not in env or a start script.",
    enforcementLevel: "mandatory",
    validateResource: (args, reportViolation) => {
        const kind = kindOf(args.type);
        if (kind !== "template" && kind !== "instance") return;
        const where = kind === "template" ? "dockerLoginUser and dockerLoginPass" : "imageLogin";
        const { found, unknown } = plainRegistryLogins(args.props);
        for (const place of found) {
            reportViolation(`${named(kind, args.name)}: ${place} holds a registry login in plain text. Give it as ${where}, which are kept secret`);
        }
        if (unknown.length > 0) reportUnchecked(reportViolation, registryLoginsSecret.name, `${named(kind, args.name)}: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not known yet`);
    },
};
