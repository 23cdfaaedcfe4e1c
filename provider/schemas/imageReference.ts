import { z } from "zod";

/**
 * The container image reference grammar, as Docker's `distribution/reference` states it, and the one
 * home of it: an Instance's `image`, a Template's `image` and `tag`, and the registry check at create
 * all read references through this file.
 *
 *   reference := name [":" tag] ["@" digest]
 *   name      := [domain "/"] path-component ("/" path-component)*
 *   domain    := host [":" port]   (a first component with a "." or ":", or "localhost")
 *   path-component := [a-z0-9]+ (separator [a-z0-9]+)*,  separator := [_.] | "__" | "-"+
 *   tag       := [\w][\w.-]{0,127}
 *   digest    := "sha256:" 64 hex digits (or "sha512:" 128)
 */
export interface ImageReference {
    /** `ghcr.io`, `127.0.0.1:5000`; undefined for Docker Hub written without one. */
    domain?: string;
    /** The repository path as written: `pytorch/pytorch`, `busybox`, `nvidia/cuda`. */
    path: string;
    tag?: string;
    digest?: string;
}

const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN_COMPONENT = "(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])";
const DOMAIN = new RegExp(`^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:.]+\\])(?::[0-9]+)?$`);
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^(?:sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128})$/;
/** distribution's NameTotalLengthMax. */
const NAME_MAX = 255;

/** Docker's rule for telling a registry from the first path component: it has a `.` or `:`, or is `localhost`. */
function isDomain(component: string): boolean {
    return component.includes(".") || component.includes(":") || component === "localhost";
}

/** The reference split into its parts, or why it is not one (each problem a short clause). */
export function parseImageReference(text: string): { reference: ImageReference; problems: [] } | { reference?: undefined; problems: string[] } {
    const problems: string[] = [];
    if (text.trim() === "") return { problems: ["is empty"] };
    // The rest is judged on the first word, without a scheme: what follows a space is the one problem.
    if (/\s/.test(text)) problems.push("has spaces (one reference, with at most one :tag)");
    const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text.trim());
    if (scheme) problems.push("starts with a URL scheme (a reference names none)");
    const word = text.trim().slice(scheme ? scheme[0].length : 0).split(/\s+/)[0];
    const at = word.indexOf("@");
    const digest = at < 0 ? undefined : word.slice(at + 1);
    const named = at < 0 ? word : word.slice(0, at);
    if (digest !== undefined && !DIGEST.test(digest)) problems.push(`has a digest that is not sha256:<64 lowercase hex digits> ("@${digest}")`);
    const lastSlash = named.lastIndexOf("/");
    const firstColonAfterSlash = named.indexOf(":", lastSlash + 1);
    const tag = firstColonAfterSlash < 0 ? undefined : named.slice(firstColonAfterSlash + 1);
    const name = firstColonAfterSlash < 0 ? named : named.slice(0, firstColonAfterSlash);
    if (tag !== undefined) {
        if (tag.includes(":")) problems.push("has more than one tag (one :tag at most)");
        else if (!TAG.test(tag)) problems.push(`has a tag that is not [A-Za-z0-9_][A-Za-z0-9_.-]* of at most 128 characters (":${tag}")`);
    }
    const components = name.split("/");
    const domain = components.length > 1 && isDomain(components[0]) ? components[0] : undefined;
    const path = (domain === undefined ? components : components.slice(1)).join("/");
    if (domain !== undefined && !DOMAIN.test(domain)) problems.push(`has a registry that is not host[:port] ("${domain}")`);
    const pathComponents = path.split("/");
    if (pathComponents.some((c) => c !== c.toLowerCase())) problems.push("has capital letters in its repository (a repository is lowercase)");
    else if (pathComponents.some((c) => !PATH_COMPONENT.test(c))) {
        problems.push("has a repository path that is not lowercase letters and digits, separated by /, ., _, __ or -");
    }
    if (name.length > NAME_MAX) problems.push(`has a name longer than ${NAME_MAX} characters`);
    if (problems.length > 0) return { problems: [...new Set(problems)] };
    return { reference: { ...(domain === undefined ? {} : { domain }), path, ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) }, problems: [] };
}

/** A reference as text again: `[domain/]path[:tag][@digest]`. */
export function formatImageReference(ref: ImageReference): string {
    return `${ref.domain === undefined ? "" : `${ref.domain}/`}${ref.path}${ref.tag === undefined ? "" : `:${ref.tag}`}${ref.digest === undefined ? "" : `@${ref.digest}`}`;
}

/**
 * The reference a mistaken one most likely meant, when there is one: the scheme dropped, the
 * repository lowercased, and of words apart the first (a second word that is a tag becomes the tag
 * when the first has none): `"PyTorch/pytorch:2.3 latest"` → `pytorch/pytorch:2.3`.
 */
export function correctedImageReference(text: string): ImageReference | undefined {
    const words = text.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split(/\s+/);
    let first = words[0] ?? "";
    const lastSlash = first.lastIndexOf("/");
    if (words.length > 1 && !first.slice(lastSlash + 1).includes(":") && !first.includes("@") && TAG.test(words[1])) first = `${first}:${words[1]}`;
    const at = first.indexOf("@");
    const named = at < 0 ? first : first.slice(0, at);
    const slash = named.lastIndexOf("/");
    const colon = named.indexOf(":", slash + 1);
    // Only the repository is lowercased: a registry host is not case-sensitive, a tag is.
    const name = colon < 0 ? named : named.slice(0, colon);
    const components = name.split("/");
    const domain = components.length > 1 && isDomain(components[0]) ? components[0] : undefined;
    const lowered = [...(domain === undefined ? [] : [domain.toLowerCase()]), ...(domain === undefined ? components : components.slice(1)).map((c) => c.toLowerCase())].join("/");
    const fixed = `${lowered}${colon < 0 ? "" : named.slice(colon)}${at < 0 ? "" : first.slice(at)}`;
    const parsed = parseImageReference(fixed);
    return parsed.reference;
}

/** Who writes the reference: an Instance's `image` carries its tag, a Template's tag goes in `tag`. */
export type ReferenceForm = "instance" | "template";

/**
 * Why `text` is not an image reference, with the corrected form when there is one (written as
 * `form`'s properties take it), or undefined when it is one.
 */
export function imageReferenceProblem(text: string, form: ReferenceForm = "instance"): string | undefined {
    const parsed = parseImageReference(text);
    if (parsed.reference) return undefined;
    const fix = correctedImageReference(text);
    const meant = fix === undefined ? "" : form === "instance" ? `: did you mean "${formatImageReference(fix)}"?` : `: did you mean ${templateForm(fix)}?`;
    return `"${text}" is not an image reference: it ${joinClauses(parsed.problems)}${meant}`;
}

/** A reference as a Template writes it: the repository in `image`, the tag in `tag` (a digest stays in `image`, with `tag: ""`). */
export function templateForm(ref: ImageReference): string {
    if (ref.digest !== undefined) return `image: "${formatImageReference({ ...ref, tag: undefined })}", tag: ""`;
    const image = `image: "${formatImageReference({ ...ref, tag: undefined })}"`;
    return ref.tag === undefined ? image : `${image}, tag: "${ref.tag}"`;
}

/** Why a Template's `tag` is not a tag, or undefined (`""` is none: the image names its own). */
export function imageTagProblem(tag: string): string | undefined {
    if (tag === "" || TAG.test(tag)) return undefined;
    const word = tag.trim().split(/\s+/)[0].replace(/^:/, "");
    const meant = word !== tag && TAG.test(word) ? `: did you mean "${word}"?` : "";
    return `"${tag}" is not a tag: a tag is one word of letters, digits, _, . and - (not starting with . or -), at most 128 characters${meant}`;
}

/**
 * A Template whose `image` names a tag (or digest) of its own while `tag` names another: the
 * service would join them into no reference at all. Undefined when the two agree.
 */
export function tagInTwoPlaces(image: string, tag: string): string | undefined {
    const ref = parseImageReference(image).reference;
    if (!ref || tag === "" || (ref.tag === undefined && ref.digest === undefined)) return undefined;
    return (
        `"${image}" names its own ${ref.tag !== undefined ? `tag "${ref.tag}"` : "digest"} while tag is "${tag}": a Template's tag goes in tag. ` +
        `Give ${templateForm(ref)}${ref.tag !== undefined ? ', or tag: "" to keep it in image' : ""}`
    );
}

/** Adds `problem` as the value's issue, when there is one. */
function issueOf(problem: string | undefined, ctx: z.RefinementCtx): void {
    if (problem) ctx.addIssue({ code: "custom", message: problem });
}

/** The check of an image reference, for a string's `superRefine`, its error written for `form` (an empty string is `min`'s to refuse). */
export function imageReferenceCheck(form: ReferenceForm): (text: string, ctx: z.RefinementCtx) => void {
    return (text, ctx) => issueOf(text === "" ? undefined : imageReferenceProblem(text, form), ctx);
}

/** The check of a Template's tag, for a string's `superRefine`: `""` or a tag. */
export function imageTagCheck(tag: string, ctx: z.RefinementCtx): void {
    issueOf(imageTagProblem(tag), ctx);
}

function joinClauses(clauses: string[]): string {
    return clauses.length <= 1 ? clauses.join("") : `${clauses.slice(0, -1).join(", ")} and ${clauses[clauses.length - 1]}`;
}
