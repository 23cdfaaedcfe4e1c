import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs } from "../instanceArgs";
import { registryWords } from "../wait/startFailure";
import { ProviderError } from "../../../errors/providerError";

// The create's failure when the instance's image could not be pulled (`image_pull_failed`, see
// wait/startFailure.ts): the program's mistake, so no other machine is tried.

/** The create failed because its image could not be pulled; nothing of it is left running. */
export class ImagePullFailedError extends ProviderError {
    constructor(
        message: string,
        /** The image reference as the create sent it (or as the service shows it, from a template). */
        readonly image: string,
        /** The registry's words, as the service showed them (trimmed, without a credential). */
        readonly registryWords: string,
    ) {
        super("image_pull_failed", message);
    }
}

/** What the create asked to pull, for the message: the program's `image` (sent as it is), else the service's (a template's). */
function imageOf(inputs: InstanceInputs, record: Pick<InstanceRecord, "image_uuid">): string {
    return inputs.image ?? record.image_uuid ?? "the template's image";
}

/** The password of an `imageLogin` (`-u user -p token registry`), never to be printed. */
function loginSecrets(imageLogin: string | undefined): string[] {
    if (!imageLogin) return [];
    const token = /(?:^|\s)(?:-p|--password)(?:\s+|=)(\S+)/.exec(imageLogin)?.[1];
    return token ? [token] : [imageLogin];
}

/**
 * The pull failure's sentences: the image, what the registry said, and what to do. `where` names
 * the create (`on offer 7`, `by offer search`), `what` the instance, destroyed unless `destroyFailed`.
 */
export function imagePullFailure(
    inputs: InstanceInputs,
    record: InstanceRecord,
    where: string,
    what: string,
    destroyFailed?: Error,
): ImagePullFailedError {
    const image = imageOf(inputs, record);
    const said = registryWords(record.status_msg ?? "", loginSecrets(inputs.imageLogin));
    const fromTemplate = inputs.image === undefined && inputs.templateHashId !== undefined ? " (the template's)" : "";
    const message =
        `vastai: create instance ${where} failed: \`image\`${fromTemplate} ${JSON.stringify(image)} could not be pulled: ${what} reported ${JSON.stringify(said)}. ` +
        "An image the registry refuses is the program's to fix, not the machine's, so no other machine was tried" +
        (destroyFailed
            ? `; destroying the instance failed (${destroyFailed.message}), so it is kept in state: \`pulumi destroy\` removes it, and correcting \`image\` replaces it. `
            : "; the instance was destroyed. ") +
        `Check \`image\`, its repository name and its tag (\`docker pull ${image}\` gives the same answer anywhere); for a private image, ` +
        "give the instance `imageLogin`, or its template a registry login (`dockerLoginRepo`, `dockerLoginUser`, `dockerLoginPass`)";
    return new ImagePullFailedError(message, image, said);
}
