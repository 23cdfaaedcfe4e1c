import { isLoopbackHost } from "../../../client/hosts";
import { ManifestAnswer, RegistryLocation, askManifest, registryLocation, sameRegistry } from "../../../client/registry";
import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { formatImageReference, parseImageReference } from "../../../schemas/imageReference";
import { TemplateRecord } from "../../../schemas/template";
import { InstanceInputs } from "../instanceArgs";
import { ProviderError } from "../../../errors/providerError";

// Before the first rent: does the image the instance would pull exist? Asked of its registry as
// `docker manifest inspect` asks. Why, and what is a failure and what a warning:
// docs/design/image-check.md.

/** A create refused before anything was rented, because its registry has no such image. */
export class ImageNotFoundError extends ProviderError {
    constructor(message: string) {
        super("image_not_found", message);
    }
}

/** Each request to a registry may take this long at live speed (scaled, never under the floor). */
const REGISTRY_TIMEOUT_MS = 10_000;
const REGISTRY_TIMEOUT_FLOOR_MS = 1_000;

/**
 * Asks the image's registry whether it has the image `desired` would run (its own `image`, or its
 * template's image and tag), unless `checkImage` is false. A registry that has no such image (or
 * hides it from a pull without a login, when there is none) fails the create, nothing rented; one
 * that cannot be asked, or refuses a login, is a warning, and the create goes on.
 */
export async function checkImageExists(ctx: ProviderContext, vast: VastClient, desired: InstanceInputs, template: TemplateRecord | undefined): Promise<void> {
    if (desired.checkImage === false) return;
    const image = desired.image ?? templateImage(template);
    if (image === undefined) return;
    const ref = parseImageReference(image).reference;
    if (!ref) return ctx.log.warn(`image "${image}" (its template's) is not an image reference the check can read: not checked before renting`);
    const location = registryLocation(ref);
    // Against a service on this machine (the emulator) nothing is pulled: only a registry on this machine is asked.
    if (isLoopbackHost(new URL(vast.baseUrl).hostname) && !isLoopbackHost(location.registry.replace(/:\d+$/, ""))) return;
    const login = loginFor(desired, template, location);
    const answer = await askManifest(location, { login: login.kind === "usable" ? login.credentials : undefined, timeoutMs: timeoutMs(ctx) });
    const what = `image "${formatImageReference(ref)}"${desired.image === undefined ? ` (template ${template?.hash_id}'s image and tag)` : ""}`;
    const outcome = judged(answer, login.kind);
    const registry = `registry ${location.registry}`;
    switch (outcome) {
        case "found":
            return ctx.log.progress(`${what} found on ${registry}`);
        case "missing":
            throw new ImageNotFoundError(
                `vastai: create instance failed, nothing rented: ${what} does not exist: ${registry} has no ${location.repository}:${location.manifest} ` +
                    `(${(answer as { status: number }).status}). ${fixImage(desired)}`,
            );
        case "hidden":
            throw new ImageNotFoundError(
                `vastai: create instance failed, nothing rented: ${what} was not found, or is private: ${registry} refused ${location.repository}:${location.manifest} ` +
                    `to a pull without a login (${(answer as { status: number }).status}). If it is private, give the template a registry login ` +
                    `(dockerLoginUser, dockerLoginPass, dockerLoginRepo) or the instance imageLogin: "-u <user> -p <token> ${location.registry}"; otherwise ${fixImage(desired, true)}`,
            );
        default:
            return ctx.log.warn(`${what} not checked before renting: ${outcome.note}; the create goes on (checkImage: false skips this check)`);
    }
}

type LoginKind = "none" | "usable" | "unusable";
type Outcome = "found" | "missing" | "hidden" | { note: string };

/** What an answer means, by the login the check had (see the table in docs/design/image-check.md). */
function judged(answer: ManifestAnswer, login: LoginKind): Outcome {
    if (answer.kind === "found") return "found";
    if (answer.kind === "unanswered") return { note: `its registry could not be asked (${answer.why})` };
    // A login the check could not use: a registry may hide a private image as missing; only "found" says anything.
    if (login === "unusable") return { note: `the registry login it is pulled with is not one this check can use (${answer.kind === "missing" ? "404" : answer.status})` };
    if (answer.kind === "missing") return "missing";
    if (login === "none") return "hidden";
    return { note: `the registry refused the login (${answer.status} at its ${answer.at === "token" ? "token realm" : "manifest"}); the machine's pull uses the same login` };
}

/** The template's image and tag as one reference (`""` is no tag: the image names its own). */
function templateImage(template: TemplateRecord | undefined): string | undefined {
    if (!template?.image) return undefined;
    return template.tag ? `${template.image}:${template.tag}` : template.image;
}

/**
 * The login the image is pulled with: the instance's `imageLogin`, else its template's. Usable when
 * it names the image's registry and its password is known: the service never hands back a
 * template's password, so a template's login is not.
 */
function loginFor(desired: InstanceInputs, template: TemplateRecord | undefined, location: RegistryLocation): { kind: "none" } | { kind: "unusable" } | { kind: "usable"; credentials: { user: string; password: string } } {
    if (desired.imageLogin) {
        const login = parseImageLogin(desired.imageLogin);
        // A login naming no registry is Docker Hub's, as `docker login` reads it.
        if (login && sameRegistry(login.registry ?? "docker.io", location)) return { kind: "usable", credentials: { user: login.user, password: login.password } };
        return { kind: "unusable" };
    }
    if (template?.docker_login_user) return { kind: "unusable" };
    return { kind: "none" };
}

/** `-u user -p token registry` (the vendor CLI's, `docker login`'s flags; `--username=`, `--password` too). */
export function parseImageLogin(text: string): { user: string; password: string; registry?: string } | undefined {
    const words = text.trim().split(/\s+/).map((w) => w.replace(/^(["'])(.*)\1$/, "$2"));
    let user: string | undefined;
    let password: string | undefined;
    const rest: string[] = [];
    for (let i = 0; i < words.length; i++) {
        const [flag, inline] = words[i].split(/=(.*)/s, 2);
        const value = () => (inline !== undefined ? inline : words[++i]);
        if (flag === "-u" || flag === "--username") user = value();
        else if (flag === "-p" || flag === "--password") password = value();
        else if (words[i] !== "") rest.push(words[i]);
    }
    return user && password ? { user, password, registry: rest[0] } : undefined;
}

function fixImage(desired: InstanceInputs, lower = false): string {
    const fix = desired.image !== undefined ? "correct image" : "correct the template's image and tag, or give the instance an image";
    return `${lower ? fix : fix[0].toUpperCase() + fix.slice(1)}; or set checkImage: false if only the rented machines can reach the registry`;
}

function timeoutMs(ctx: ProviderContext): number {
    return Math.max(REGISTRY_TIMEOUT_FLOOR_MS, ctx.clock.scaled(REGISTRY_TIMEOUT_MS));
}
