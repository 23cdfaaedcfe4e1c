import { z } from "zod";
import { ComputedOutputs, PulumiArgs, computedOf, prop, propertiesOf } from "../../dynamic/properties";

/** The key types OpenSSH writes to a `.pub` file, security keys (`sk-...`) included. */
const OPENSSH_PUBLIC_KEY = /^(ssh-ed25519|ssh-rsa|ssh-dss|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) AAAA[0-9A-Za-z+/]+={0,3}( .*)?$/;

/** A private key pasted by mistake is named as such: it must never reach the service. */
const publicKeySchema = z
    .string()
    .trim()
    .superRefine((text, ctx) => {
        if (text.includes("PRIVATE KEY")) {
            ctx.addIssue({ code: "custom", message: "this is a private key: give the public key (the contents of the .pub file)" });
        } else if (!OPENSSH_PUBLIC_KEY.test(text)) {
            ctx.addIssue({ code: "custom", message: 'must be an OpenSSH public key, one line: "ssh-ed25519 AAAA... comment" (the contents of a .pub file)' });
        }
    });

/**
 * An SSH key's properties, each declared once. A key on the account cannot be edited: a new key
 * text replaces it. The text is trimmed, so a `.pub` file read with its final newline is the same key.
 */
export const sshKeyArgsSchema = z.strictObject({
    // Not secret, but a private key pasted here by mistake must not be printed with a check failure.
    /** The public key, as in `~/.ssh/id_ed25519.pub`. Not secret. */
    publicKey: prop(publicKeySchema, { wire: "ssh_key", onChange: "replace", mayHoldCredentials: true }),
});

/** An SSH key's arguments in a Pulumi program. */
export interface SshKeyArgs extends PulumiArgs<z.input<typeof sshKeyArgsSchema>> {}

/** Inputs after `check`: the key text trimmed. */
export type SshKeyInputs = z.output<typeof sshKeyArgsSchema>;

/** Outputs: the key text and the service's id for it. */
export interface SshKeyOutputs extends SshKeyInputs {
    /** The service's numeric id; the Pulumi id too. */
    sshKeyId: number;
    /**
     * The account that holds the key (the service's `user_id`). Another account's key lists none
     * of this account's keys, so a refresh or delete with one fails, naming both accounts, instead
     * of taking the key as removed.
     */
    accountId?: number;
}

export const SSH_KEY_PROPERTIES = propertiesOf(sshKeyArgsSchema);

export const SSH_KEY_COMPUTED_OUTPUTS = { sshKeyId: {}, accountId: {} } as const satisfies ComputedOutputs<SshKeyOutputs, SshKeyInputs>;
export const SSH_KEY_COMPUTED = computedOf(SSH_KEY_COMPUTED_OUTPUTS);
