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

/** What `private` carries to `check` in place of `false` when that would publish a secret. */
interface SecretsWouldPublish {
    secretsWouldPublish: string[];
}

/**
 * `private` as the program gives it, unless the template is public (`private: false`) and a value
 * the program marked secret would be published with it: then the names of the properties that
 * hold one, for `check` to refuse (`publishedSecretsFailure`). Only the program can tell: the
 * engine hands the provider plain values. The refusal is a check failure, so `pulumi preview`
 * shows it and nothing is sent; the files in git refuse the same (templateFileReader.ts).
 */
export function privateUnlessSecretsPublished(args: TemplateArgs): TemplateArgs["private"] {
    if (args.private === undefined || args.private === true) return args.private;
    const given = SHOWN_WHEN_PUBLIC.filter((p) => args[p] !== undefined);
    if (given.length === 0) return args.private;
    const marked = given.map((p) => pulumi.output(pulumi.isSecret(pulumi.output(args[p]))));
    return pulumi.all([args.private, ...marked]).apply(([isPrivate, ...secret]) => {
        const published = given.filter((_, i) => secret[i]);
        if (isPrivate !== false || published.length === 0) return isPrivate;
        // Not a boolean, so nothing downstream can take it for one; `check` reads it.
        const refused: SecretsWouldPublish = { secretsWouldPublish: published };
        return refused as unknown as boolean;
    });
}

/** The check failure for a `private` that `privateUnlessSecretsPublished` refused, if it did. */
export function publishedSecretsFailure(news: Record<string, unknown>): CheckFailure | undefined {
    const given = news.private as Partial<SecretsWouldPublish> | undefined;
    const published = given?.secretsWouldPublish;
    if (!Array.isArray(published)) return undefined;
    return {
        property: "private",
        reason:
            `false, and ${published.join(", ")} ${published.length === 1 ? "holds" : "hold"} a value marked secret: every Vast.ai user can read ` +
            "a public template's env, start script, arguments and readme. Keep the template private, or give the value to each Instance instead (its env is never public)",
    };
}
