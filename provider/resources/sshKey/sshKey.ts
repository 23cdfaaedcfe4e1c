/** The SshKey resource a program declares (its provider is sshKeyProvider.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ResourceOutputs, resourceArgs } from "../../dynamic/properties";
import { providerShim } from "../../dynamic/shim";
import { TYPE_MODULE, TYPE_NAMES } from "../../dynamic/typeTokens";
import { SSH_KEY_COMPUTED_OUTPUTS, SshKeyArgs, SshKeyOutputs, sshKeyArgsSchema } from "./sshKeyArgs";

/**
 * An SSH public key on the Vast.ai account. The service puts the account's keys on instances, so
 * an instance made after the key (`dependsOn`) takes SSH logins with it from its first start. A
 * new key text replaces the key; deleting the resource removes it from the account.
 *
 *     const laptop = new vast.SshKey("laptop", { publicKey: fs.readFileSync(`${os.homedir()}/.ssh/id_ed25519.pub`, "utf8") });
 *     const gpu = new vast.Instance("trainer", { offerId, image: "pytorch/pytorch" }, { dependsOn: [laptop] });
 */
export class SshKey extends pulumi.dynamic.Resource {
    constructor(name: string, args: SshKeyArgs, opts?: pulumi.CustomResourceOptions) {
        const resource = resourceArgs(args, sshKeyArgsSchema, SSH_KEY_COMPUTED_OUTPUTS, opts);
        super(providerShim("sshKey"), name, resource.props, resource.opts, TYPE_MODULE, TYPE_NAMES.sshKey);
    }
}

/** Its outputs, one per property of `SshKeyOutputs` (declared there, with their docs). */
export interface SshKey extends ResourceOutputs<SshKeyOutputs> {}
