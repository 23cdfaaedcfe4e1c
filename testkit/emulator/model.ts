import { createHash, randomBytes } from "crypto";

/**
 * The emulator's in-memory world: accounts and their keys, templates, host machines, offers,
 * instances, volume offers and volumes, serverless endpoints and their worker groups. Field names follow the service's JSON so handlers can return records as they are.
 */

export type Scopes = { api: Record<string, Record<string, unknown>> };

export interface EmuUser {
    id: number;
    email: string;
    credit: number;
    ssh_key: string;
    /** The account's own full-access key; the live `users/current` returns it in the body. */
    apiKey: string;
}

export interface EmuKey {
    id: number;
    key: string;
    userId: number;
    name: string;
    /** Undefined means full access. */
    permissions?: Scopes;
    createdAt: number;
    /** Set once revoked; how the service answers the key from then on (404 has been seen live). */
    revokedStatus?: 401 | 404;
}

export interface EmuTemplate {
    id: number;
    hash_id: string;
    creator_id: number;
    /** The fields as set by create and edits (snake_case, as sent). */
    fields: Record<string, unknown>;
    revision: number;
    created_at: number;
    recent_create_date: number;
    count_created: number;
    recommended: boolean;
    default_tag: string;
    deleted: boolean;
}

export type FinalStatus = "running" | "exited" | "unknown" | "offline" | "loading" | "created" | "stopped";

/**
 * How instances created from an offer behave: the status they end in (`loading` or `created` means stuck there;
 * `stopped` means created stopped, the machine unable to run it, which the create's response says
 * with `success: false`), and its message.
 */
export interface OfferScript {
    status: FinalStatus;
    statusMsg?: string;
}

/**
 * The script of an offer whose instances cannot pull `repository`: the daemon's answer for a
 * repository that does not exist or needs a login (moby's wording), in `status_msg` once the pull
 * has failed, the instance left `created` (or, given, `exited`).
 */
export function pullAccessDenied(repository: string, status: "created" | "exited" = "created"): OfferScript {
    return {
        status,
        statusMsg: `Error response from daemon: pull access denied for ${repository}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied`,
    };
}

/**
 * What the marketplace lists about an offer, in the service's names and units (docs/live-service.md
 * "Renting by need"). The id, machine, price and whether it is taken are the offer's own fields.
 */
export interface OfferListing {
    gpu_name: string;
    num_gpus: number;
    /** MB per card (the host listing's `gpu_ram` is bytes). */
    gpu_ram: number;
    /** USD/hour without storage and bandwidth. */
    dph_base: number;
    /** USD/hour: the lowest bid an interruptible rental may offer. */
    min_bid: number;
    /** 0 to 1. */
    reliability: number;
    dlperf: number;
    /** GB. */
    disk_space: number;
    cuda_max_good: number;
    geolocation: string;
    /** Mb/s. */
    inet_down: number;
    inet_up: number;
    verified: boolean;
    /** False while the host keeps the offer off the market. */
    rentable: boolean;
    external: boolean;
}

export interface EmuOffer {
    id: number;
    machineId: number;
    /** USD/hour, on demand. */
    dphTotal: number;
    listing: OfferListing;
    /** The script of instances created once `upcoming` is used up. */
    script: OfferScript;
    /** Scripts for the next instances on this offer, in order (first `exited`, then `running`). */
    upcoming: OfferScript[];
    /**
     * When the offer can be rented (ms epoch): one instance per offer, so never (Infinity) while an
     * instance holds it, and a moment after that instance is destroyed, not at once.
     */
    freeAt: number;
}

export interface EmuInstance {
    id: number;
    ownerId: number;
    offerId: number;
    machineId: number;
    createdAt: number;
    destroyed: boolean;
    label: string | null;
    /** The body as received, for tests to assert on. */
    request: Record<string, unknown>;
    /** Template and request merged as the contract's precedence rules say (§4.7). */
    effective: {
        image: string;
        env: Record<string, string>;
        onstart?: string;
        runtype?: string;
        args_str?: string;
        disk: number;
        extra_filters: Record<string, unknown>;
        volume_info?: unknown;
        template_hash_id?: string;
    };
    script: OfferScript;
    isBid: boolean;
    dphTotal: number;
    /** What the rented offer listed: the record shows them as `gpu_name`, `num_gpus` and `geolocation`. */
    hardware: { gpu_name: string; num_gpus: number; geolocation: string };
    sshPort: number;
    /**
     * The last start or stop asked for (`PUT /instances/{id}/ {state}`), or a freeze from the web
     * console (paused, its memory kept, its GPUs still billed); see instanceStatus.ts.
     */
    /** `intendedShown`: what `intended_status` says when it does not follow the change (a freeze that shows in `actual_status` only). */
    stateChange?: { to: "running" | "stopped" | "frozen"; at: number; from: string | null; intendedShown?: string };
    /** Existing volumes the create linked (`volume_info` with `create_new: false`), in use until the instance is destroyed. */
    volumes?: Array<{ id: number; mount_path: string }>;
    /** Set on an instance the autoscaler rented for a worker group; kept after the group is deleted. */
    worker?: { endpointId: number; workergroupId: number };
}

/**
 * What a volume search shows of a volume offer besides its id, machine, space and price, in the
 * service's names and units (Mb/s, MB/s, 0 to 1); by default its machine's.
 */
export interface VolumeOfferListing {
    inet_up: number;
    inet_down: number;
    reliability: number;
    geolocation: string;
    verified: boolean;
    external: boolean;
    cuda_vers: number;
    /** MB/s. */
    disk_bw: number;
    cpu_arch: string;
}

/**
 * Disk a host rents out for volumes: on a machine (a local volume offer), or on a storage cluster
 * (a network volume offer, `network`, with its `clusterId` and no machine). It holds volumes while
 * the sum of their sizes fits in `diskSpace`.
 */
export interface EmuVolumeOffer {
    id: number;
    /** The machine a local volume offer's volumes live on; null for a network volume offer. */
    machineId: number | null;
    network: boolean;
    /** The storage cluster of a network volume offer; null for a local one. */
    clusterId: number | null;
    /** GB the offer holds in all; a search shows what is left of it. */
    diskSpace: number;
    /** USD/GB/month. */
    storageCost: number;
    listing: VolumeOfferListing;
}

/** A volume rented on a volume offer (`PUT /volumes/` or `/network_volumes/`). */
export interface EmuVolume {
    id: number;
    ownerId: number;
    offerId: number;
    /** The offer's machine; null for a network volume. */
    machineId: number | null;
    /** The volume's name, shown as its `label`. */
    name: string;
    /** GB, whole. */
    size: number;
    /** ms epoch. */
    createdAt: number;
    deleted: boolean;
    network: boolean;
}

/** What `addVolumeOffer` takes: all optional; a local offer on the first machine unless told otherwise. */
export interface VolumeOfferOptions extends Partial<VolumeOfferListing> {
    /** The machine (local offers); default the first machine. Ignored for a network offer. */
    machineId?: number;
    /** A network volume offer, on `clusterId` (default: a new cluster id). */
    network?: boolean;
    clusterId?: number;
    /** GB; default 500. */
    diskSpace?: number;
    /** USD/GB/month; default the machine's `listed_volume_cost`, else 0.08. */
    storageCost?: number;
}

export interface EmuSshKey {
    id: number;
    userId: number;
    publicKey: string;
    /** ms epoch. */
    createdAt: number;
}

export type EmuMachine = Record<string, unknown> & { id: number; ownerId: number };

export type EndpointState = "active" | "suspended" | "stopped";

/** An endpoint's settings in the service's names: loads in perf units/s, times in seconds. */
export interface EndpointSettings {
    endpoint_name: string;
    min_load: number;
    min_cold_load: number;
    /** A fraction, at most 1. */
    target_util: number;
    cold_mult: number;
    cold_workers: number;
    max_workers: number;
    max_queue_time: number | null;
    target_queue_time: number | null;
    inactivity_timeout: number | null;
    endpoint_state: EndpointState;
    autoscaler_instance: string;
}

/** A serverless endpoint (`/api/v0/endptjobs/`): the limits its worker groups share. */
export interface EmuEndpoint {
    id: number;
    ownerId: number;
    settings: EndpointSettings;
    /** The token the listing shows as `api_key`; not a key of the account here. */
    apiKey: string;
    /** ms epoch. */
    createdAt: number;
    deleted: boolean;
    /** What the autoscaler did for its groups, as `get_endpoint_logs` answers it. */
    log: string[];
}

/** A worker group's settings in the service's names; null where the request left it unset. */
export interface WorkergroupSettings {
    min_load: number | null;
    target_util: number | null;
    cold_mult: number | null;
    cold_workers: number | null;
    max_workers: number | null;
    test_workers: number;
    /** GB. */
    gpu_ram: number;
    template_hash: string | null;
    template_id: number | null;
    launch_args: string | null;
    autoscaler_instance: string;
    docker_login_repo: string | null;
    docker_login_user: string | null;
    docker_login_pass: string | null;
}

/** A worker group (`/api/v0/autojobs/`, also `/api/v0/workergroups/`): what its workers run and where they are rented. */
export interface EmuWorkergroup {
    id: number;
    ownerId: number;
    endpointId: number;
    settings: WorkergroupSettings;
    /** Which reference the request gave: a template found by id follows its edits, one by hash does not. */
    templateBy: "hash" | "id" | null;
    /** `search_params` read as offer conditions `{field: {op: value}}` (the listing's `search_query`). */
    searchQuery: Record<string, Record<string, unknown>>;
    /** ms epoch. */
    createdAt: number;
    deleted: boolean;
    /** When the autoscaler next looks at the group (ms epoch). */
    nextRoundAt: number;
    log: string[];
}

export function newSecret(prefix = "emu"): string {
    return `${prefix}_${randomBytes(24).toString("hex")}`;
}

export function sha256(text: string): string {
    return createHash("sha256").update(text).digest("hex");
}

export class EmulatorModel {
    users = new Map<number, EmuUser>();
    keys = new Map<string, EmuKey>();
    templates = new Map<number, EmuTemplate>();
    machines = new Map<number, EmuMachine>();
    offers = new Map<number, EmuOffer>();
    instances = new Map<number, EmuInstance>();
    sshKeys = new Map<number, EmuSshKey>();
    volumeOffers = new Map<number, EmuVolumeOffer>();
    volumes = new Map<number, EmuVolume>();
    endpoints = new Map<number, EmuEndpoint>();
    workergroups = new Map<number, EmuWorkergroup>();

    // Volume offers and volumes have ranges of their own, apart from offers' and instances': an id
    // a client mixes up (a volume offer's for a volume's, an instance's for a volume's) finds nothing.
    private nextIds = {
        user: 1001,
        key: 501,
        template: 30001,
        machine: 7001,
        offer: 900001,
        instance: 5000001,
        sshKey: 8001,
        volumeOffer: 1200001,
        volume: 3300001,
        cluster: 401,
        endpoint: 19001,
        workergroup: 25001,
    };

    addUser(fields: Partial<Omit<EmuUser, "id" | "apiKey">> = {}): EmuUser {
        const id = this.nextIds.user++;
        const user: EmuUser = {
            id,
            email: fields.email ?? `user${id}@example.com`,
            credit: fields.credit ?? 25,
            ssh_key: fields.ssh_key ?? `ssh-ed25519 AAAAC3NzaEmulator user${id}`,
            apiKey: newSecret("vastemu"),
        };
        this.users.set(id, user);
        this.keys.set(user.apiKey, { id: this.nextIds.key++, key: user.apiKey, userId: id, name: "account key", createdAt: now() });
        return user;
    }

    addKey(userId: number, name: string, permissions?: Scopes): EmuKey {
        const record: EmuKey = { id: this.nextIds.key++, key: newSecret("vastemu"), userId, name, permissions, createdAt: now() };
        this.keys.set(record.key, record);
        return record;
    }

    findKeyById(id: number): EmuKey | undefined {
        return [...this.keys.values()].find((k) => k.id === id);
    }

    addTemplate(creatorId: number, fields: Record<string, unknown>, extra: Partial<EmuTemplate> = {}): EmuTemplate {
        const id = this.nextIds.template++;
        const at = now();
        const template: EmuTemplate = {
            id,
            hash_id: "",
            creator_id: creatorId,
            fields: { ...fields },
            revision: 0,
            created_at: at,
            recent_create_date: at,
            count_created: 0,
            recommended: false,
            default_tag: String(fields.tag ?? "latest"),
            deleted: false,
            ...extra,
        };
        template.hash_id = templateHash(template);
        this.templates.set(id, template);
        return template;
    }

    addMachine(ownerId: number, fields: Record<string, unknown> = {}): EmuMachine {
        const id = this.nextIds.machine++;
        const machine: EmuMachine = { ...defaultMachine(id), ...fields, id, machine_id: id, ownerId };
        this.machines.set(id, machine);
        return machine;
    }

    /** An offer on `machineId` (default: the first machine); its listing follows the machine unless given. */
    addOffer(fields: Partial<Omit<EmuOffer, "id" | "freeAt" | "listing">> & { listing?: Partial<OfferListing> } = {}): EmuOffer {
        const id = this.nextIds.offer++;
        const machineId = fields.machineId ?? [...this.machines.keys()][0] ?? 0;
        const dphTotal = fields.dphTotal ?? 0.42;
        const offer: EmuOffer = {
            id,
            machineId,
            dphTotal,
            listing: { ...listingOf(this.machines.get(machineId), dphTotal, fields.listing?.num_gpus ?? 1), ...fields.listing },
            script: fields.script ?? { status: "running" },
            upcoming: [...(fields.upcoming ?? [])],
            freeAt: 0,
        };
        this.offers.set(id, offer);
        return offer;
    }

    addSshKey(userId: number, publicKey: string, createdAt = now()): EmuSshKey {
        const key: EmuSshKey = { id: this.nextIds.sshKey++, userId, publicKey, createdAt };
        this.sshKeys.set(key.id, key);
        return key;
    }

    newInstanceId(): number {
        return this.nextIds.instance++;
    }

    /** A volume offer: local on `machineId` (default the first machine), or with `network` on a storage cluster. */
    addVolumeOffer(options: VolumeOfferOptions = {}): EmuVolumeOffer {
        const { machineId: askedMachine, network = false, clusterId, diskSpace = 500, storageCost, ...listing } = options;
        const machineId = network ? null : askedMachine ?? [...this.machines.keys()][0] ?? 0;
        const machine = { ...defaultMachine(0), ...(machineId === null ? {} : this.machines.get(machineId)) };
        const offer: EmuVolumeOffer = {
            id: this.nextIds.volumeOffer++,
            machineId,
            network,
            clusterId: network ? clusterId ?? this.nextIds.cluster++ : null,
            diskSpace,
            storageCost: storageCost ?? Number(machine.listed_volume_cost ?? 0.08),
            listing: {
                inet_up: Number(machine.inet_up),
                inet_down: Number(machine.inet_down),
                reliability: Number(machine.reliability2),
                geolocation: String(machine.geolocation),
                verified: true,
                external: false,
                cuda_vers: Number(machine.cuda_max_good),
                disk_bw: 2500,
                cpu_arch: "amd64",
                ...(Object.fromEntries(Object.entries(listing).filter(([, v]) => v !== undefined)) as Partial<VolumeOfferListing>),
            },
        };
        this.volumeOffers.set(offer.id, offer);
        return offer;
    }

    addVolume(fields: Omit<EmuVolume, "id" | "deleted">): EmuVolume {
        const volume: EmuVolume = { ...fields, id: this.nextIds.volume++, deleted: false };
        this.volumes.set(volume.id, volume);
        return volume;
    }

    addEndpoint(ownerId: number, settings: EndpointSettings, createdAt = now()): EmuEndpoint {
        const endpoint: EmuEndpoint = { id: this.nextIds.endpoint++, ownerId, settings, apiKey: newSecret("endpt"), createdAt, deleted: false, log: [] };
        this.endpoints.set(endpoint.id, endpoint);
        return endpoint;
    }

    addWorkergroup(fields: Omit<EmuWorkergroup, "id" | "deleted" | "log">): EmuWorkergroup {
        const group: EmuWorkergroup = { ...fields, id: this.nextIds.workergroup++, deleted: false, log: [] };
        this.workergroups.set(group.id, group);
        return group;
    }

    /** Instances not destroyed that the autoscaler rented for the group. */
    workersOf(workergroupId: number): EmuInstance[] {
        return [...this.instances.values()].filter((i) => !i.destroyed && i.worker?.workergroupId === workergroupId);
    }

    /** GB of the offer not taken by volumes that are not deleted. */
    volumeOfferFree(offer: EmuVolumeOffer): number {
        let used = 0;
        for (const v of this.volumes.values()) if (!v.deleted && v.offerId === offer.id) used += v.size;
        return offer.diskSpace - used;
    }

    /** Ids of the instances not destroyed that use the volume. */
    volumeUsers(volumeId: number): number[] {
        return [...this.instances.values()].filter((i) => !i.destroyed && (i.volumes ?? []).some((v) => v.id === volumeId)).map((i) => i.id);
    }
}

/** Content-derived, and new after every edit: the revision is part of what is hashed. */
export function templateHash(t: Pick<EmuTemplate, "id" | "creator_id" | "fields" | "revision">): string {
    const content = JSON.stringify(Object.keys(t.fields).sort().map((k) => [k, t.fields[k]]));
    return sha256(`${t.creator_id}|${t.id}|${t.revision}|${content}`).slice(0, 32);
}

export function now(): number {
    return Date.now();
}

/** A line of an endpoint's or a group's log, as the autoscaler's logs read: its time, then what happened. */
export function appendLog(lines: string[], at: number, text: string): void {
    lines.push(`${new Date(at).toISOString()} ${text}`);
    // Logs are read by their tail; an endpoint up for a long test run keeps a bounded one.
    if (lines.length > 1000) lines.splice(0, lines.length - 1000);
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** Rough DL performance of one card, so bigger GPUs rank higher, as on the live market. */
const DLPERF_PER_GPU: Record<string, number> = { "RTX 3090": 35, "RTX 4090": 75, "A100 SXM4": 110, "H100 SXM": 210 };

/** An offer's listing as its machine suggests it: the machine's GPU, place and network, `numGpus` of its cards. */
function listingOf(machine: EmuMachine | undefined, dphTotal: number, numGpus: number): OfferListing {
    const m = { ...defaultMachine(0), ...machine };
    const roundPrice = (usd: number) => Math.round(usd * 1000) / 1000;
    return {
        gpu_name: String(m.gpu_name),
        num_gpus: numGpus,
        gpu_ram: Math.round(Number(m.gpu_ram) / MiB),
        dph_base: roundPrice(dphTotal * 0.9),
        min_bid: roundPrice(dphTotal * 0.5),
        reliability: Number(m.reliability2),
        dlperf: (DLPERF_PER_GPU[String(m.gpu_name)] ?? 50) * numGpus,
        disk_space: Math.round(Number(m.disk_space) / GiB / Number(m.num_gpus)) * numGpus,
        cuda_max_good: Number(m.cuda_max_good),
        geolocation: String(m.geolocation),
        inet_down: Number(m.inet_down),
        inet_up: Number(m.inet_up),
        verified: true,
        rentable: true,
        external: false,
    };
}

function defaultMachine(id: number): Record<string, unknown> {
    return {
        hostname: `host-${id}`,
        geolocation: "Oslo, NO",
        timeout: 0,
        num_gpus: 4,
        gpu_name: "RTX 4090",
        gpu_ram: 24 * GiB,
        cpu_name: "AMD EPYC 7543",
        cpu_ram: 256 * GiB,
        cpu_cores: 64,
        listed: true,
        listed_gpu_cost: 0.35,
        listed_storage_cost: 0.1,
        listed_volume_cost: 0.08,
        listed_inet_up_cost: 0.002,
        listed_inet_down_cost: 0.002,
        min_bid_price: 0.2,
        gpu_occupancy: "R R I x",
        disk_space: 2000 * GiB,
        inet_up: 900.5,
        inet_down: 940.2,
        earn_hour: 0.7,
        earn_day: 16.8,
        current_rentals_running: 2,
        current_rentals_resident: 3,
        reliability2: 0.9973,
        public_ipaddr: "203.0.113.10",
        driver_version: "550.54.14",
        cuda_max_good: "12.4",
        hosting_type: 1,
    };
}
