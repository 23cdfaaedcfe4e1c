import * as pulumi from "@pulumi/pulumi";
import { providerShim } from "../../dynamic/shim";
import { EnvMap } from "../../env/envFlags";
import { TemplateArgs } from "./templateArgs";

/**
 * A Vast.ai template: stored defaults for instance creation. Edits happen in place; each gives
 * the template a new `hashId` (its numeric `templateId` stays), and an `Instance` that uses
 * `template.hashId` is replaced when it changes.
 *
 *     const trainer = new vast.Template("trainer", {
 *         name: "trainer", image: "pytorch/pytorch", tag: "2.3.0-cuda12.1-cudnn8-runtime",
 *         env: { HF_HOME: "/workspace/hf", "-p 8888:8888": "1" }, runtype: "ssh",
 *     });
 */
export class Template extends pulumi.dynamic.Resource {
    /** The numeric id: stable across edits, and the Pulumi id. */
    declare readonly templateId: pulumi.Output<number>;
    /** Content-derived; new after every edit. */
    declare readonly hashId: pulumi.Output<string>;
    declare readonly name: pulumi.Output<string>;
    declare readonly image: pulumi.Output<string>;
    declare readonly tag: pulumi.Output<string>;
    declare readonly desc: pulumi.Output<string | undefined>;
    declare readonly readme: pulumi.Output<string | undefined>;
    /** The canonical map, whichever spelling was given. */
    declare readonly env: pulumi.Output<EnvMap | undefined>;
    declare readonly onstart: pulumi.Output<string | undefined>;
    declare readonly runtype: pulumi.Output<"ssh" | "jupyter" | "args">;
    declare readonly argsStr: pulumi.Output<string | undefined>;
    declare readonly sshDirect: pulumi.Output<boolean | undefined>;
    declare readonly useSsh: pulumi.Output<boolean | undefined>;
    declare readonly jupDirect: pulumi.Output<boolean | undefined>;
    declare readonly jupyterDir: pulumi.Output<string | null | undefined>;
    declare readonly useJupyterLab: pulumi.Output<boolean | undefined>;
    declare readonly dockerLoginRepo: pulumi.Output<string | undefined>;
    declare readonly dockerLoginUser: pulumi.Output<string | undefined>;
    /** Secret. */
    declare readonly dockerLoginPass: pulumi.Output<string | undefined>;
    declare readonly href: pulumi.Output<string | undefined>;
    declare readonly repo: pulumi.Output<string | undefined>;
    declare readonly extraFilters: pulumi.Output<Record<string, Record<string, unknown>> | undefined>;
    declare readonly recommendedDiskSpace: pulumi.Output<number>;
    /** True unless the program says false. */
    declare readonly private: pulumi.Output<boolean>;
    declare readonly volumeInfo: pulumi.Output<Record<string, unknown> | null | undefined>;

    constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
        const props = {
            ...args,
            // Secret in state even when given as plain text.
            dockerLoginPass: args.dockerLoginPass === undefined ? undefined : pulumi.secret(args.dockerLoginPass),
            templateId: undefined,
            hashId: undefined,
        };
        super(providerShim("template"), name, props, opts, "vastai", "Template");
    }
}
