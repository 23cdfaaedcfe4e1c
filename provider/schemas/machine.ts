import { z } from "zod";

/** A host machine from `GET /machines` (docs/service-contract.md §2.1). Units as that listing states them. */
export const machineRecordSchema = z.looseObject({
    id: z.number().int(),
    machine_id: z.number().int().nullish(),
    hostname: z.string().nullish(),
    geolocation: z.string().nullish(),
    /** Seconds since last active; 0 means online now. */
    timeout: z.number().nullish(),
    num_gpus: z.number().int().nullish(),
    gpu_name: z.string().nullish(),
    /** Bytes in this listing (elsewhere the REST interface uses MB). */
    gpu_ram: z.number().nullish(),
    cpu_name: z.string().nullish(),
    /** Bytes. */
    cpu_ram: z.number().nullish(),
    cpu_cores: z.number().int().nullish(),
    listed: z.boolean().nullish(),
    listed_gpu_cost: z.number().nullish(),
    listed_storage_cost: z.number().nullish(),
    listed_volume_cost: z.number().nullish(),
    listed_inet_up_cost: z.number().nullish(),
    listed_inet_down_cost: z.number().nullish(),
    min_bid_price: z.number().nullish(),
    /** Space-separated per-GPU codes, each of D, R, I, x. */
    gpu_occupancy: z.string().nullish(),
    /** Bytes. */
    disk_space: z.number().nullish(),
    /** Mbps. */
    inet_up: z.number().nullish(),
    inet_down: z.number().nullish(),
    earn_hour: z.number().nullish(),
    earn_day: z.number().nullish(),
    current_rentals_running: z.number().int().nullish(),
    current_rentals_resident: z.number().int().nullish(),
    reliability2: z.number().nullish(),
    public_ipaddr: z.string().nullish(),
    driver_version: z.string().nullish(),
    cuda_max_good: z.union([z.string(), z.number()]).nullish(),
    hosting_type: z.number().int().nullish(),
});
export type MachineRecord = z.infer<typeof machineRecordSchema>;

export const machineListResponseSchema = z.looseObject({
    machines: z.array(machineRecordSchema),
});
