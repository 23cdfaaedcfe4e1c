import type { VastClient } from "../client/vastClient";

/**
 * What a resource implementation is given by the provider process it runs in (built once per
 * process in runtime/providerContext.ts): the configured client, the account's id, a clock whose
 * waits follow the process's time scale, and the lines shown to the person running `pulumi up`.
 * Passed in rather than imported, so resources never reach up into the runtime, and tests can
 * hand them a faster clock.
 */
export interface ProviderContext {
    /** The client for the configured account; made on first use, so `check` never needs a key. */
    client(): VastClient;
    /** The id of the account the key belongs to, asked once per process (see resources/sameAccount.ts). */
    currentUserId(): Promise<number>;
    /**
     * A mark of the API key in use, never the key: 8 hex digits of a SHA-256 of it (with the base URL), enough to tell
     * two keys apart, too few to tell anything of either (see resources/sameAccount.ts).
     */
    keyMark(): string;
    clock: Clock;
    log: Log;
}

/** Every wait made on the service's behalf, in milliseconds at live speed. */
export interface Clock {
    now(): number;
    /** Waits `liveMs`, scaled. */
    sleep(liveMs: number): Promise<void>;
    /** `liveMs` at this process's time scale. */
    scaled(liveMs: number): number;
}

/** Lines for the person running `pulumi up`; never credentials or request bodies. */
export interface Log {
    progress(message: string): void;
    warn(message: string): void;
}
