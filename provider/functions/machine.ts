import { MachineRecord } from "../schemas/machine";
import { GpuOccupancyCode, parseGpuOccupancy } from "./gpuOccupancy";

/** Bytes in a GiB. The listing gives memory and disk in bytes. */
export const BYTES_PER_GIB = 1024 ** 3;

/**
 * A host machine from the listing (docs/service-contract.md §2.1): every field, named with its unit where it has
 * one, plus derived values. The listing's `gpu_ram` is bytes while the rest of the API uses MB,
 * so the unit is in every memory field's name. A field the service left out is undefined.
 */
export interface Machine {
    id: number;
    /** Duplicate of `id`, as the listing sends it. */
    machineId?: number;
    hostname?: string;
    /** Physical location. */
    geolocation?: string;
    /** `timeout`: seconds since the machine was last active; 0 while it is online. */
    secondsSinceActive?: number;
    /** `timeout == 0`. */
    online?: boolean;
    numGpus?: number;
    gpuName?: string;
    /** `gpu_ram`: GPU VRAM in bytes, as this listing states it. */
    gpuRamBytes?: number;
    /** `gpuRamBytes` in GiB (2^30 bytes), unrounded. */
    gpuRamGib?: number;
    cpuName?: string;
    /** `cpu_ram`: CPU RAM in bytes. */
    cpuRamBytes?: number;
    cpuRamGib?: number;
    cpuCores?: number;
    /** True when the machine has active offers. */
    listed?: boolean;
    /** Host-facing GPU price per hour, when listed. */
    listedGpuCostPerHour?: number;
    /** Host-facing storage cost per month, when listed. */
    listedStorageCostPerMonth?: number;
    /** Host-facing volume cost per month, when listed. */
    listedVolumeCostPerMonth?: number;
    /** Host-facing upload bandwidth cost, when listed; the service states no unit. */
    listedInetUpCost?: number;
    /** Host-facing download bandwidth cost, when listed; the service states no unit. */
    listedInetDownCost?: number;
    /** Minimum interruptible bid price per hour. */
    minBidPricePerHour?: number;
    /**
     * One code per GPU, in order: `D`, `R`, `I` or `x`. Undefined when the raw string holds
     * anything else (see `gpuOccupancyRaw`).
     */
    gpuOccupancy?: GpuOccupancyCode[];
    /** `gpu_occupancy` as sent: space-separated codes. */
    gpuOccupancyRaw?: string;
    /** `disk_space`: available disk space in bytes. */
    diskSpaceBytes?: number;
    diskSpaceGib?: number;
    /** Current upload bandwidth in Mbps. */
    inetUpMbps?: number;
    /** Current download bandwidth in Mbps. */
    inetDownMbps?: number;
    /** `earn_hour`: earnings in the last hour. */
    earningsLastHour?: number;
    /** `earn_day`: earnings in the last day. */
    earningsLastDay?: number;
    currentRentalsRunning?: number;
    /** Resident (loaded) rentals. */
    currentRentalsResident?: number;
    /** `reliability2`: the reliability score. */
    reliability?: number;
    /** Surrounding whitespace trimmed (the live service has been seen to pad addresses). */
    publicIpAddr?: string;
    driverVersion?: string;
    /** Maximum supported CUDA version, as text ("12.4"). */
    cudaMaxGood?: string;
    /** `hosting_type`: 1 means datacenter; other values are not documented. */
    hostingType?: number;
    /** `hosting_type == 1`. */
    datacenter?: boolean;
    /** The record as the service sent it, fields beyond these included. */
    raw: MachineRecord;
}

const present = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
const gib = (bytes: number | null | undefined) => (typeof bytes === "number" ? bytes / BYTES_PER_GIB : undefined);
const equals = <T>(value: T | null | undefined, wanted: T) => (value === null || value === undefined ? undefined : value === wanted);

/** The one mapping from a listing record to a `Machine`. */
export function machineFromRecord(record: MachineRecord): Machine {
    return {
        id: record.id,
        machineId: present(record.machine_id),
        hostname: present(record.hostname),
        geolocation: present(record.geolocation),
        secondsSinceActive: present(record.timeout),
        online: equals(record.timeout, 0),
        numGpus: present(record.num_gpus),
        gpuName: present(record.gpu_name),
        gpuRamBytes: present(record.gpu_ram),
        gpuRamGib: gib(record.gpu_ram),
        cpuName: present(record.cpu_name),
        cpuRamBytes: present(record.cpu_ram),
        cpuRamGib: gib(record.cpu_ram),
        cpuCores: present(record.cpu_cores),
        listed: present(record.listed),
        listedGpuCostPerHour: present(record.listed_gpu_cost),
        listedStorageCostPerMonth: present(record.listed_storage_cost),
        listedVolumeCostPerMonth: present(record.listed_volume_cost),
        listedInetUpCost: present(record.listed_inet_up_cost),
        listedInetDownCost: present(record.listed_inet_down_cost),
        minBidPricePerHour: present(record.min_bid_price),
        gpuOccupancy: typeof record.gpu_occupancy === "string" ? parseGpuOccupancy(record.gpu_occupancy) : undefined,
        gpuOccupancyRaw: present(record.gpu_occupancy),
        diskSpaceBytes: present(record.disk_space),
        diskSpaceGib: gib(record.disk_space),
        inetUpMbps: present(record.inet_up),
        inetDownMbps: present(record.inet_down),
        earningsLastHour: present(record.earn_hour),
        earningsLastDay: present(record.earn_day),
        currentRentalsRunning: present(record.current_rentals_running),
        currentRentalsResident: present(record.current_rentals_resident),
        reliability: present(record.reliability2),
        publicIpAddr: present(record.public_ipaddr)?.trim(),
        driverVersion: present(record.driver_version),
        cudaMaxGood: record.cuda_max_good === null || record.cuda_max_good === undefined ? undefined : String(record.cuda_max_good),
        hostingType: present(record.hosting_type),
        datacenter: equals(record.hosting_type, 1),
        raw: record,
    };
}
