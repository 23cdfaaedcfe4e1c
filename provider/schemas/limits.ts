/** Limits the service enforces on instance creation (contract §8; docs `create_instance.yaml`). */
export const INSTANCE_LIMITS = {
    /** `onstart` characters; longer scripts must be compressed and encoded by the client. */
    onstartMax: 4048,
    /** `args` + `args_str` + `onstart` characters together. */
    commandTotalMax: 4096,
    labelOnCreateMax: 256,
    /** `PUT /instances/{id}/` accepts longer labels than create does. */
    labelOnEditMax: 1024,
    envValueMax: 256,
    envTotalMax: 32768,
    imageMax: 1024,
    /** GB; the CLI refuses less. */
    diskMinGb: 8,
} as const;

/** The contract's default for `recommended_disk_space`, in GB. */
export const DEFAULT_RECOMMENDED_DISK_GB = 8;
