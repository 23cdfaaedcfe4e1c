/** Keeps a value the program marked secret out of a public template: the input that tells `check`, and the refusal. */
import * as pulumi from "@pulumi/pulumi";
import { CheckFailure } from "../../dynamic/checkFailures";
import { declarationsOf } from "../../dynamic/properties";
import { TemplateArgs, templateArgsSchema } from "./templateArgs";

/**
 * What a public template shows every Vast.ai user and a program may put a secret in: the
 * properties declared `mayHoldCredentials` (its env, start script, arguments, readme). A property
 * declared secret (the registry password) is kept apart by the service and not among them.
 */
const SHOWN_WHEN_PUBLIC = declarationsOf(templateArgsSchema)
    .filter((d) => d.mayHoldCredentials === true && d.secret !== true)
    .map((d) => d.name as keyof TemplateArgs);

/**
 * The input that tells `check` which of those properties hold a value the program marked secret.
 * Only the program can tell (the engine hands the provider plain values); `check` reads it and
 * leaves it out of the inputs it returns, so state never holds it. Apart from `private`, so that
 * `ignoreChanges: ["private"]`, which puts the old `private` back before check, still meets it.
 */
export const SECRETS_IN_INPUT = "__secretsIn";

/** The `SECRETS_IN_INPUT` value for `args`: the names of the properties holding a secret; undefined when none is given. */
export function secretsIn(args: TemplateArgs): pulumi.Output<string[]> | undefined {
    const given = SHOWN_WHEN_PUBLIC.filter((p) => args[p] !== undefined);
    if (given.length === 0) return undefined;
    const marked = given.map((p) => pulumi.output(pulumi.isSecret(pulumi.output(args[p]))));
    return pulumi.all(marked).apply((secret) => given.filter((_, i) => secret[i]));
}

/**
 * `news` without `SECRETS_IN_INPUT`, and the check failure when the template is public and a value
 * the program marked secret would be published with it: the files in git refuse the same
 * (templateFileReader.ts), and so does `pulumi preview`, before anything is sent.
 */
export function withoutSecretsIn(news: Record<string, unknown>): { news: Record<string, unknown>; failure?: CheckFailure } {
    const { [SECRETS_IN_INPUT]: marked, ...rest } = news;
    const published = Array.isArray(marked) ? marked.filter((p): p is string => typeof p === "string") : [];
    if (rest.private !== false || published.length === 0) return { news: rest };
    return {
        news: rest,
        failure: {
            property: "private",
            reason:
                `false, and ${published.join(", ")} ${published.length === 1 ? "holds" : "hold"} a value marked secret: every Vast.ai user can read ` +
                "a public template's env, start script, arguments and readme. Keep the template private, or give the value to each Instance instead (its env is never public)",
        },
    };
}
