/** Limits the service enforces on instance creation (docs/service-contract.md §8; docs `create_instance.yaml`). */
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
    /** An interruptible bid, $/hour: at least this, at most 128 in a create and 32 in a bid change (the service's API reference). */
    bidMin: 0.001,
    bidOnCreateMax: 128,
    bidOnChangeMax: 32,
} as const;

/** The contract's default for `recommended_disk_space`, in GB. */
export const DEFAULT_RECOMMENDED_DISK_GB = 8;

/**
 * What the instance create call refuses in an env map: a value over 256 characters, or more than
 * 32768 in all (names and values). The one home of these limits: `check` applies them to the
 * program's env and to its merge with a template's, the request schema before anything is sent.
 */
export function envLimitProblems(env: Readonly<Record<string, string>>): Array<{ key?: string; problem: string }> {
    const problems: Array<{ key?: string; problem: string }> = [];
    let total = 0;
    for (const [key, value] of Object.entries(env)) {
        total += key.length + value.length;
        if (value.length > INSTANCE_LIMITS.envValueMax) {
            problems.push({ key, problem: `is ${value.length} characters; the service accepts at most ${INSTANCE_LIMITS.envValueMax}` });
        }
    }
    if (total > INSTANCE_LIMITS.envTotalMax) {
        problems.push({ problem: `env is ${total} characters in all; the service accepts at most ${INSTANCE_LIMITS.envTotalMax}` });
    }
    return problems;
}
