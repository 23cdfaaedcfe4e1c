import { ComputedDeclaration, PropertySchema } from "../dynamic/properties";
import { ResourceKind } from "../dynamic/shim";
import { API_KEY_COMPUTED_OUTPUTS, apiKeyArgsSchema } from "./apiKey/apiKeyArgs";
import { INSTANCE_COMPUTED_OUTPUTS, instanceArgsSchema } from "./instance/instanceArgs";
import { SSH_KEY_COMPUTED_OUTPUTS, sshKeyArgsSchema } from "./sshKey/sshKeyArgs";
import { TEMPLATE_COMPUTED_OUTPUTS, templateArgsSchema } from "./template/templateArgs";
import { VOLUME_COMPUTED_OUTPUTS, volumeArgsSchema } from "./volume/volumeArgs";
import { ENDPOINT_COMPUTED_OUTPUTS, endpointArgsSchema } from "./endpoint/endpointArgs";
import { WORKER_GROUP_COMPUTED_OUTPUTS, workerGroupArgsSchema } from "./workerGroup/workerGroupArgs";

/** What is declared about one kind of resource: its input properties and its computed outputs. */
export interface ResourceDeclaration {
    readonly args: PropertySchema;
    readonly computed: ComputedDeclaration;
    /**
     * Its create is keyed by where the resource stands (`createSlot`, resourceSlot.ts), by which
     * the next `up` on any machine finds what a stopped one made. The dynamic classes compute it in
     * the program; the plugin's check from the URN.
     */
    readonly slotted: boolean;
}

/** Every kind's declarations, by kind: what the runtime, the plugin and the schema derive from. */
export const RESOURCE_DECLARATIONS: Readonly<Record<ResourceKind, ResourceDeclaration>> = {
    template: { args: templateArgsSchema, computed: TEMPLATE_COMPUTED_OUTPUTS, slotted: false },
    instance: { args: instanceArgsSchema, computed: INSTANCE_COMPUTED_OUTPUTS, slotted: true },
    apiKey: { args: apiKeyArgsSchema, computed: API_KEY_COMPUTED_OUTPUTS, slotted: false },
    sshKey: { args: sshKeyArgsSchema, computed: SSH_KEY_COMPUTED_OUTPUTS, slotted: false },
    volume: { args: volumeArgsSchema, computed: VOLUME_COMPUTED_OUTPUTS, slotted: true },
    networkVolume: { args: volumeArgsSchema, computed: VOLUME_COMPUTED_OUTPUTS, slotted: true },
    endpoint: { args: endpointArgsSchema, computed: ENDPOINT_COMPUTED_OUTPUTS, slotted: false },
    workerGroup: { args: workerGroupArgsSchema, computed: WORKER_GROUP_COMPUTED_OUTPUTS, slotted: true },
};
