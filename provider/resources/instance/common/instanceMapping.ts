import { pickInputs } from "../../../dynamic/checkArgs";
import { canonicalInputs } from "../../canonicalInputs";
import { EnvMap, normalizeEnvMap, readTemplateEnvFlags } from "../../../schemas/envFlags";
import { InstanceCreateRequest, InstanceRecord, READ_BACK_STATES } from "../../../schemas/instance";
import { INSTANCE_LIMITS } from "../../../schemas/limits";
import { TemplateRecord } from "../../../schemas/template";
import { INSTANCE_COMPUTED, INSTANCE_DEFAULTS, INSTANCE_PROPERTIES, InstanceAccess, InstanceInputs, InstanceOutputs, InstanceRuntype, createKeyInputs } from "../instanceArgs";
import { otherCommandChars, planOnstart, planTemplateOnstart } from "../../onstartBootstrap";
import { ProviderError } from "../../../errors/providerError";

/**
 * The one home of instance request building and read-back: canonical inputs (and the template
 * they start from) to the create body, and a service record back to outputs.
 */

export interface CreatePlan {
    request: InstanceCreateRequest;
    /** The env the request carries: the template's, merged with the program's. */
    effectiveEnv: EnvMap;
    /** Whether `onstart` went as the compressed bootstrap command. */
    onstartEncoded: boolean;
}

/**
 * Each runtype as the vendor clients send it for an instance (vast.py `get_runtype`, `resolve_runtype`
 * in vastai/api/instances.py; docs/live-service.md): compound strings that also choose direct or
 * proxied connections. `ssh` goes as it always went, the CLI's default. A bare `jupyter` is a
 * template's runtype that no current vendor client sends for an instance (read as their tokens it
 * names no Jupyter connection), so `jupyter` goes as the CLI's `--jupyter` does.
 */
const RUNTYPE_ON_THE_WIRE = {
    ssh: "ssh",
    ssh_proxy: "ssh_proxy",
    ssh_direct: "ssh_direc ssh_proxy",
    jupyter: "jupyter_proxy ssh_proxy",
    jupyter_proxy: "jupyter_proxy ssh_proxy",
    jupyter_direct: "jupyter_direc ssh_direc ssh_proxy",
    args: "args",
} as const satisfies Record<InstanceRuntype, string>;

/**
 * The access an instance has: its runtype, or its template's (`runtype` with `ssh_direct` /
 * `jup_direct`, as the vendor CLI's `create template --ssh|--jupyter [--direct]` stores it; a
 * template without a runtype is `args`, the contract's default).
 */
export function accessOf(runtype: InstanceRuntype | undefined, template: TemplateRecord | undefined): InstanceAccess | undefined {
    if (runtype !== undefined) return runtype === "jupyter" ? "jupyter_proxy" : runtype;
    if (!template) return undefined;
    switch (template.runtype ?? "args") {
        case "ssh":
            return template.ssh_direct ? "ssh_direct" : "ssh_proxy";
        case "jupyter":
            return template.jup_direct ? "jupyter_direct" : "jupyter_proxy";
        case "args":
            return "args";
        default:
            return undefined;
    }
}

/** The template's env flag string as a map, as the service reads it for the merge. */
export function templateEnv(template: TemplateRecord | undefined): EnvMap {
    const flags = (template as Record<string, unknown> | undefined)?.env;
    return typeof flags === "string" ? readTemplateEnvFlags(flags) : {};
}

/**
 * The create body (docs/service-contract.md §4.7). Scalars the program sets are sent and win over the template's;
 * env is the template's map merged with the program's, the program winning, sent whole so the
 * request says exactly what the instance gets; a template's `volume_info` is never copied. The
 * label goes with the create when it fits the create's limit (a longer one is set by an edit once
 * the instance exists); the placement adds its token to the env (see placement.ts).
 */
export function toCreateRequest(inputs: InstanceInputs, template: TemplateRecord | undefined): CreatePlan {
    const effectiveEnv = normalizeEnvMap({ ...templateEnv(template), ...(inputs.env ?? {}) });
    const request: InstanceCreateRequest = {};
    if (inputs.templateHashId !== undefined) request.template_hash_id = inputs.templateHashId;
    if (inputs.image !== undefined) request.image = inputs.image;
    if (Object.keys(effectiveEnv).length > 0) request.env = effectiveEnv;
    if (inputs.args !== undefined) request.args = inputs.args;
    if (inputs.argsStr !== undefined) request.args_str = inputs.argsStr;
    // The service refuses runtype with a template (see runtypeWithTemplate): the template's applies.
    if (inputs.runtype !== undefined && inputs.templateHashId === undefined) request.runtype = RUNTYPE_ON_THE_WIRE[inputs.runtype];
    if (inputs.label !== undefined && inputs.label.length <= INSTANCE_LIMITS.labelOnCreateMax) request.label = inputs.label;
    if (inputs.disk !== undefined) request.disk = inputs.disk;
    if (inputs.price !== undefined) request.price = inputs.price;
    if (inputs.imageLogin !== undefined) request.image_login = inputs.imageLogin;
    // Created stopped, so its GPUs are never billed on the way (the stop sent after it makes sure).
    if (inputs.desiredState === "stopped") request.target_state = "stopped";
    const [mounted] = inputs.volumes ?? [];
    if (mounted !== undefined) request.volume_info = { create_new: false, volume_id: Number(mounted.volume), mount_path: mounted.mountPath };
    if (inputs.volumeInfo !== undefined) {
        const v = inputs.volumeInfo;
        request.volume_info = { create_new: v.createNew, volume_id: v.volumeId, mount_path: v.mountPath, ...(v.size !== undefined ? { size: v.size } : {}) };
    }
    let onstartEncoded = false;
    const failed = `vastai: create instance${inputs.offerId === undefined ? "" : ` on offer ${inputs.offerId}`} failed`;
    if (inputs.onstart !== undefined) {
        const plan = planOnstart(inputs.onstart, otherCommandChars(inputs.args, inputs.argsStr));
        if (plan.problem) throw new ProviderError("invalid_input", `${failed}: ${plan.problem}`);
        request.onstart = plan.onstart;
        onstartEncoded = plan.encoded;
    } else if (typeof template?.onstart === "string") {
        // The template's script, which the service would apply as it is: too long for the create,
        // it goes in the request compressed, as the instance's own would (a request's onstart wins).
        const plan = planTemplateOnstart(template.onstart, template.args_str ?? undefined, inputs);
        if (plan.problem) throw new ProviderError("invalid_input", `${failed}: the onstart of template ${inputs.templateHashId}: ${plan.problem}`);
        if (plan.encoded) request.onstart = plan.onstart;
        onstartEncoded = plan.encoded;
    }
    return { request, effectiveEnv, onstartEncoded };
}

/** `{"22/tcp": [{"HostPort": "20000"}]}` → `{"22/tcp": 20000}`: the first binding with a port. */
function portMap(ports: InstanceRecord["ports"]): Record<string, number> | undefined {
    if (!ports) return undefined;
    const map: Record<string, number> = {};
    for (const [containerPort, bindings] of Object.entries(ports)) {
        const hostPort = (bindings ?? []).map((b) => Number(b.HostPort)).find((p) => Number.isInteger(p) && p > 0);
        if (hostPort !== undefined) map[containerPort] = hostPort;
    }
    return Object.keys(map).length > 0 ? map : undefined;
}

/** What the service reports about an instance, as outputs; nothing a record lacks. */
export function reportedByService(record: InstanceRecord): Partial<InstanceOutputs> {
    const ip = record.public_ipaddr?.trim();
    return {
        actualStatus: record.actual_status ?? undefined,
        intendedStatus: record.intended_status ?? undefined,
        statusMsg: record.status_msg ?? undefined,
        sshHost: record.ssh_host ?? undefined,
        sshPort: record.ssh_port ?? undefined,
        publicIpaddr: ip ? ip : undefined,
        ports: portMap(record.ports),
        machineId: record.machine_id ?? undefined,
        dphTotal: record.dph_total ?? undefined,
        gpuName: record.gpu_name ?? undefined,
        numGpus: record.num_gpus ?? undefined,
        geolocation: record.geolocation ?? undefined,
    };
}

/** The keys of `values` that have a value: what the service did not report keeps what was known. */
export function definedOnly<T extends object>(values: T): Partial<T> {
    return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The service-reported outputs a previous state holds, carried over when nothing new was read. */
export function reportedIn(state: object): Partial<InstanceOutputs> {
    const props = state as Record<string, unknown>;
    const kept: Record<string, unknown> = {};
    for (const key of REPORTED_OUTPUTS) if (props[key] !== undefined && props[key] !== null) kept[key] = props[key];
    return kept as Partial<InstanceOutputs>;
}

const REPORTED_OUTPUTS = INSTANCE_COMPUTED.filter((key) => key !== "instanceId" && key !== "effectiveEnv" && key !== "bidUnconfirmed" && key !== "labelUnconfirmed");

/** Plain JSON for the host: a value of `undefined` anywhere fails the call, so those keys go. */
function withoutUndefined<T extends object>(value: T): T {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Outputs: the inputs, the id, what the service reported, and the env the instance was created with. */
export function instanceOutputs(
    inputs: InstanceInputs,
    instanceId: number,
    reported: Partial<InstanceOutputs>,
    effectiveEnv: EnvMap | undefined,
): InstanceOutputs {
    return withoutUndefined({ ...inputs, ...reported, instanceId, effectiveEnv });
}

/** The input properties of a property bag, and its create key's: no `__provider`, no outputs. */
export function inputsOf(props: Record<string, unknown>): Partial<InstanceInputs> {
    return { ...pickInputs(props, INSTANCE_PROPERTIES), ...createKeyInputs(props) } as Partial<InstanceInputs>;
}

/**
 * The inputs a record stands for, as far as the program manages them. The label and the intended
 * state (a start, stop or freeze in the console shows as a diff) can be read back and changed in
 * place; the bid is not read back (`dph_total` includes more than the bid); the rest is what the
 * instance was created with. A frozen instance reads back as `desiredState: "frozen"`, which no
 * program asks for: the next `up` starts or stops it, as the program says, rather than leave its
 * GPUs billed unseen. Frozen in either status: which of the two a freeze in the console sets is
 * not documented, and an instance frozen only in `actual_status` read as meant to run would show
 * no change while it stays frozen (frozenWarning in readiness.ts reads both too).
 */
export function inputsFromRecord(record: InstanceRecord, previous: Partial<InstanceOutputs>): Partial<InstanceOutputs> {
    const inputs = { ...previous };
    if (previous.label !== undefined) inputs.label = record.label ?? "";
    const intended = record.actual_status === "frozen" ? "frozen" : READ_BACK_STATES.find((state) => state === record.intended_status);
    if (intended) inputs.desiredState = intended;
    return inputs;
}

/** Defaults and the canonical env map; values unknown during preview are left as they are. */
export function normalizeInputs(args: Record<string, unknown>): InstanceInputs {
    return { ...canonicalInputs(args, INSTANCE_PROPERTIES, INSTANCE_DEFAULTS), ...createKeyInputs(args) } as unknown as InstanceInputs;
}

/** A create cut short (`unfinishedCreate`) stays so in state until its instance is seen running. */
export function unfinishedUntilRunning(props: Partial<InstanceOutputs>, record: InstanceRecord | undefined): Partial<InstanceOutputs> {
    return record?.actual_status === "running" ? {} : definedOnly({ unfinishedCreate: props.unfinishedCreate });
}

/**
 * The rental facts a state holds, which no read of the instance reports again; the access of an
 * instance created before the output existed follows from its runtype.
 */
export function rentalIn(props: Partial<InstanceOutputs>): Partial<InstanceOutputs> {
    const access = props.access ?? accessOf(props.runtype, undefined);
    return definedOnly({ rentedOfferId: props.rentedOfferId, gpuName: props.gpuName, numGpus: props.numGpus, geolocation: props.geolocation, access, accountId: props.accountId, keyMark: props.keyMark });
}
