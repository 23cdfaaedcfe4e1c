import * as pulumi from "@pulumi/pulumi";
import { providerShim } from "../../dynamic/shim";
import { EnvMap } from "../../env/envFlags";
import { INSTANCE_COMPUTED, InstanceArgs, InstanceVolumeInfo } from "./instanceArgs";

/**
 * A Vast.ai GPU instance started on an offer, optionally from a `Template`. `pulumi up` waits until
 * it runs; one that fails to start is destroyed and tried again. Changing what it was started with
 * replaces it; `label` is edited in place.
 *
 *     const gpu = new vast.Instance("trainer", {
 *         offerId: 1234567, templateHashId: trainer.hashId, disk: 64,
 *         env: { WANDB_PROJECT: "llm", "-p 8080:8080": "1" }, label: "trainer",
 *     });
 *     export const ssh = pulumi.interpolate`ssh -p ${gpu.sshPort} root@${gpu.sshHost}`;
 */
export class Instance extends pulumi.dynamic.Resource {
    /** `new_contract`; the Pulumi id too. */
    declare readonly instanceId: pulumi.Output<number>;
    declare readonly actualStatus: pulumi.Output<string | undefined>;
    declare readonly intendedStatus: pulumi.Output<string | undefined>;
    declare readonly statusMsg: pulumi.Output<string | undefined>;
    declare readonly sshHost: pulumi.Output<string | undefined>;
    declare readonly sshPort: pulumi.Output<number | undefined>;
    /** Trimmed. */
    declare readonly publicIpaddr: pulumi.Output<string | undefined>;
    /** Container port (`"8888/tcp"`) → public host port. */
    declare readonly ports: pulumi.Output<Record<string, number> | undefined>;
    declare readonly machineId: pulumi.Output<number | undefined>;
    /** $/hour. */
    declare readonly dphTotal: pulumi.Output<number | undefined>;
    /** The env the instance was created with: the template's merged with `env`, `env` winning. */
    declare readonly effectiveEnv: pulumi.Output<EnvMap>;

    declare readonly offerId: pulumi.Output<number>;
    declare readonly templateHashId: pulumi.Output<string | undefined>;
    declare readonly image: pulumi.Output<string | undefined>;
    /** The canonical map, whichever spelling was given. */
    declare readonly env: pulumi.Output<EnvMap | undefined>;
    /** The script as given, even when it was sent compressed. */
    declare readonly onstart: pulumi.Output<string | undefined>;
    declare readonly args: pulumi.Output<string[] | undefined>;
    declare readonly argsStr: pulumi.Output<string | undefined>;
    declare readonly runtype: pulumi.Output<"ssh" | "jupyter" | "args" | undefined>;
    declare readonly disk: pulumi.Output<number | undefined>;
    declare readonly label: pulumi.Output<string | undefined>;
    declare readonly price: pulumi.Output<number | undefined>;
    /** Secret. */
    declare readonly imageLogin: pulumi.Output<string | undefined>;
    declare readonly volumeInfo: pulumi.Output<InstanceVolumeInfo | undefined>;
    declare readonly waitForRunning: pulumi.Output<boolean>;
    declare readonly readyTimeoutSeconds: pulumi.Output<number>;
    declare readonly maxCreateAttempts: pulumi.Output<number>;

    constructor(name: string, args: InstanceArgs, opts?: pulumi.CustomResourceOptions) {
        const computed = Object.fromEntries(INSTANCE_COMPUTED.map((key) => [key, undefined]));
        const props = {
            ...args,
            // Secret in state even when given as plain text.
            imageLogin: args.imageLogin === undefined ? undefined : pulumi.secret(args.imageLogin),
            ...computed,
        };
        // `effectiveEnv` repeats the env (and the template's) under a key of its own, which the
        // engine would otherwise store in plain text even when an env value was a secret.
        const secretOutputs = [...(opts?.additionalSecretOutputs ?? []), "effectiveEnv"];
        super(providerShim("instance"), name, props, { ...opts, additionalSecretOutputs: secretOutputs }, "vastai", "Instance");
    }
}
