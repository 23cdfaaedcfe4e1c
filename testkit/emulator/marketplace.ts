import { EmulatorModel, OfferListing, VolumeOfferOptions } from "./model";

const GiB = 1024 ** 3;

/**
 * The marketplace other hosts offer: machines with different GPUs, places and reliability, each
 * with offers of some of its cards. The numbers are of the live market's order, so searches
 * that sort or filter on them (price, GPU RAM, DL performance) have something to tell apart.
 * Prices are USD/hour; `gpu_ram` on a machine is bytes, as the host listing gives it.
 */
const MACHINES: Array<{
    machine: Record<string, unknown>;
    offers: Array<{ dphTotal: number; listing?: Partial<OfferListing> }>;
    /** Disk the host rents out as local volumes: GB in all, USD/GB/month. */
    volumes?: VolumeOfferOptions[];
}> = [
    {
        machine: { gpu_name: "RTX 4090", gpu_ram: 24 * GiB, num_gpus: 8, geolocation: "Texas, US", cuda_max_good: "12.4", reliability2: 0.995, disk_space: 4000 * GiB, inet_down: 2400, inet_up: 1800 },
        offers: [
            { dphTotal: 0.39, listing: { num_gpus: 1 } },
            { dphTotal: 1.5, listing: { num_gpus: 4 } },
        ],
        volumes: [{ diskSpace: 1000, storageCost: 0.1, disk_bw: 3000 }],
    },
    {
        machine: { gpu_name: "RTX 3090", gpu_ram: 24 * GiB, num_gpus: 4, geolocation: "Quebec, CA", cuda_max_good: "12.2", reliability2: 0.981, disk_space: 1000 * GiB, inet_down: 600, inet_up: 400 },
        offers: [
            { dphTotal: 0.21, listing: { num_gpus: 1 } },
            { dphTotal: 0.8, listing: { num_gpus: 4 } },
        ],
        volumes: [{ diskSpace: 300, storageCost: 0.06, disk_bw: 1200 }],
    },
    {
        machine: { gpu_name: "A100 SXM4", gpu_ram: 80 * GiB, num_gpus: 8, geolocation: "Sweden, SE", cuda_max_good: "12.4", reliability2: 0.998, disk_space: 8000 * GiB, inet_down: 5000, inet_up: 5000 },
        offers: [
            { dphTotal: 1.1, listing: { num_gpus: 1 } },
            { dphTotal: 8.4, listing: { num_gpus: 8 } },
        ],
        volumes: [{ diskSpace: 2000, storageCost: 0.15, disk_bw: 6000 }],
    },
    {
        machine: { gpu_name: "H100 SXM", gpu_ram: 80 * GiB, num_gpus: 8, geolocation: "Virginia, US", cuda_max_good: "12.6", reliability2: 0.999, disk_space: 8000 * GiB, inet_down: 8000, inet_up: 8000 },
        offers: [{ dphTotal: 2.35, listing: { num_gpus: 1 } }],
    },
    // Outside the CLI's defaults: an unverified host, and a machine listed through an external market.
    {
        machine: { gpu_name: "RTX 4090", gpu_ram: 24 * GiB, num_gpus: 2, geolocation: "Lagos, NG", cuda_max_good: "12.1", reliability2: 0.91, disk_space: 500 * GiB, inet_down: 200, inet_up: 100 },
        offers: [{ dphTotal: 0.28, listing: { num_gpus: 1, verified: false } }],
        volumes: [{ diskSpace: 200, storageCost: 0.03, verified: false, disk_bw: 800 }],
    },
    {
        machine: { gpu_name: "RTX 3090", gpu_ram: 24 * GiB, num_gpus: 2, geolocation: "Bavaria, DE", cuda_max_good: "11.8", reliability2: 0.97, disk_space: 500 * GiB, inet_down: 1000, inet_up: 1000 },
        offers: [
            { dphTotal: 0.19, listing: { num_gpus: 1, external: true } },
            { dphTotal: 0.4, listing: { num_gpus: 2, rentable: false } },
        ],
        volumes: [{ diskSpace: 250, storageCost: 0.05, external: true, disk_bw: 1500 }],
    },
];

/** Storage clusters renting network volumes, apart from any machine. */
const NETWORK_VOLUME_OFFERS: VolumeOfferOptions[] = [
    { network: true, diskSpace: 10000, storageCost: 0.2, geolocation: "Texas, US", reliability: 0.999, inet_up: 10000, inet_down: 10000, disk_bw: 4000 },
    { network: true, diskSpace: 5000, storageCost: 0.25, geolocation: "Sweden, SE", reliability: 0.998, inet_up: 10000, inet_down: 10000, disk_bw: 3500 },
];

/** Adds the marketplace's machines, owned by `hostId`, their offers and volume offers, and the network volume offers. */
export function seedMarketplace(model: EmulatorModel, hostId: number): void {
    for (const { machine, offers, volumes = [] } of MACHINES) {
        const { id: machineId } = model.addMachine(hostId, machine);
        for (const offer of offers) model.addOffer({ machineId, ...offer });
        for (const volume of volumes) model.addVolumeOffer({ machineId, ...volume });
    }
    for (const volume of NETWORK_VOLUME_OFFERS) model.addVolumeOffer(volume);
}
