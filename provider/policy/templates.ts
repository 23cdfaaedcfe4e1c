import { ResourceValidationPolicy } from "@pulumi/policy";
import { looksLikeCredential } from "../env/credentials";
import { TEMPLATE_DEFAULTS } from "../resources/template/templateArgs";
import { UNKNOWN, kindOf, named, reportUnchecked, valueAt } from "./props";

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
        const templateName = valueAt(args.props, "name");
        if (allowed.includes(args.name) || (typeof templateName === "string" && allowed.includes(templateName))) return;
        reportViolation(`${who}: private is false, and the template is not among those allowed to be public (allowPublic: ${allowed.join(", ") || "none"}). Every Vast.ai user can read a public template's env, start script and readme`);
    },
};

/** Words in a variable's name that say it is for a container registry. */
const REGISTRY_WORDS = /(^|_)(DOCKER|DOCKERHUB|REGISTRY|GHCR|NGC|QUAY|ECR|GCR|ACR|HARBOR|CR)(_|$)/;
/** A registry login with its password on the command line: `docker login -u me -p s3cret`, `podman login --password=s3cret`. */
const LOGIN_WITH_PASSWORD = /\b(?:docker|podman|buildah|skopeo|nerdctl)\s+login\b[^\n;|&]*?\s(?:-p|--password)(?:=|\s+)("[^"]*"|'[^']*'|[^\s;|&]+)/g;

/** Where a registry login can be written in plain text: each property and what was found there. */
function plainRegistryLogins(props: Record<string, unknown>): string[] {
    const found: string[] = [];
    const env = valueAt(props, "env");
    if (env !== UNKNOWN && env !== null && typeof env === "object") {
        for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
            if (typeof value === "string" && REGISTRY_WORDS.test(name.toUpperCase()) && looksLikeCredential(name, value)) found.push(`env ${name}`);
        }
    }
    const texts: Array<[string, unknown]> = [
        ["onstart", valueAt(props, "onstart")],
        ["argsStr", valueAt(props, "argsStr")],
        ["args", ((a) => (Array.isArray(a) ? a.join(" ") : undefined))(valueAt(props, "args"))],
        ["env", typeof env === "string" ? env : undefined],
    ];
    for (const [property, text] of texts) {
        if (typeof text !== "string") continue;
        const inline = [...text.matchAll(LOGIN_WITH_PASSWORD)].filter((m) => !/^["']?\$/.test(m[1]));
        if (inline.length > 0) found.push(`${property} (a registry login with its password on the command line)`);
    }
    return found;
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
        for (const found of plainRegistryLogins(args.props)) {
            reportViolation(`${named(kind, args.name)}: ${found} holds a registry login in plain text. Give it as ${where}, which are kept secret`);
        }
    },
};
