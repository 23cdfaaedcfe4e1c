/**
 * Per-GPU occupancy codes of a host machine (docs/service-contract.md §2.1). The contract lists the four codes
 * but not what each means, so they are kept as codes rather than given invented names.
 */
export const GPU_OCCUPANCY_CODES = ["D", "R", "I", "x"] as const;
export type GpuOccupancyCode = (typeof GPU_OCCUPANCY_CODES)[number];

function isOccupancyCode(token: string): token is GpuOccupancyCode {
    return (GPU_OCCUPANCY_CODES as readonly string[]).includes(token);
}

/**
 * `"R R I x"` → `["R", "R", "I", "x"]`, one entry per GPU; runs of whitespace are one separator.
 * Undefined when any token is not one of the four codes: a listing with a code we do not know
 * still reads, and the caller keeps the raw string.
 */
export function parseGpuOccupancy(raw: string): GpuOccupancyCode[] | undefined {
    const trimmed = raw.trim();
    const tokens = trimmed === "" ? [] : trimmed.split(/\s+/);
    return tokens.every(isOccupancyCode) ? tokens : undefined;
}
