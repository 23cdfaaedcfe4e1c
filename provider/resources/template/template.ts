/** The Template resource a program declares (its provider is templateProvider.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { SECRETS_IN_INPUT, secretsIn } from "./publishedSecrets";
import { TEMPLATE_COMPUTED_OUTPUTS, TemplateArgs, TemplateOutputs, templateArgsSchema } from "./templateArgs";

/**
 * A Vast.ai template: stored defaults for instance creation. Edits happen in place; each gives
 * the template a new `hashId` (its numeric `templateId` stays), and an `Instance` that uses
 * `template.hashId` is replaced when it changes.
 *
 *     const trainer = new vast.Template("trainer", {
 *         name: "trainer", image: "pytorch/pytorch", tag: "2.3.0-cuda12.1-cudnn8-runtime",
 *         env: { HF_HOME: "/workspace/hf", "-p 8888:8888": "1" }, runtype: "ssh",
 *     });
 *
 * `adopt: 30005` takes over a template the account already has instead of creating one
 * (`pulumi import` cannot, for a dynamic provider): see the README's "Import".
 */
export class Template extends pulumi.dynamic.Resource {
    constructor(name: string, args: TemplateArgs, opts?: pulumi.CustomResourceOptions) {
        const resource = resourceArgs(args, templateArgsSchema, TEMPLATE_COMPUTED_OUTPUTS, opts);
        const marked = secretsIn(args);
        super(providerShim("template"), name, marked ? { ...resource.props, [SECRETS_IN_INPUT]: marked } : resource.props, resource.opts, TYPE_MODULE, TYPE_NAMES.template);
    }
}

/** Its outputs, one per property of `TemplateOutputs` (declared there, with their docs). */
export interface Template extends ResourceOutputs<TemplateOutputs> {}
