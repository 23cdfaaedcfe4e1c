import { InstanceRecord } from "../../../schemas/instance";
import { InstanceInputs } from "../instanceArgs";

// What an instance was created with, as the service shows it, against what a program says: what
// an adoption (create/adoption.ts) and an import (read/importInstance.ts) both refuse to take on.

/** Docker Hub's own names for itself: `docker.io/library/busybox` is `busybox`. */
const DOCKER_HUB = new Set(["docker.io", "index.docker.io", "registry-1.docker.io"]);

/**
 * An image reference in one spelling, so that two which mean the same image compare equal: no tag
 * or digest is the `latest` tag, and Docker Hub's registry and `library/` namespace are left out.
 */
function tagged(image: string): string {
    const parts = image.split("/");
    if (parts.length > 1 && DOCKER_HUB.has(parts[0].toLowerCase())) parts.shift();
    if (parts.length === 2 && parts[0] === "library") parts.shift();
    const name = parts[parts.length - 1];
    const reference = parts.join("/");
    return name.includes(":") || name.includes("@") ? reference : `${reference}:latest`;
}

/** What the program says the instance was created with that the service shows otherwise; each one line. */
export function createdWithDisagreements(record: InstanceRecord, desired: InstanceInputs): string[] {
    const found: string[] = [];
    const id = record.id;
    if (desired.image !== undefined && record.image_uuid && tagged(desired.image) !== tagged(record.image_uuid)) {
        found.push(`image: the program says ${desired.image}, instance ${id} runs ${record.image_uuid}`);
    }
    if (desired.templateHashId !== undefined && record.template_hash_id && desired.templateHashId !== record.template_hash_id) {
        found.push(`templateHashId: the program says ${desired.templateHashId}, instance ${id} was created from ${record.template_hash_id}`);
    }
    if (desired.disk !== undefined && typeof record.disk_space === "number" && Math.abs(desired.disk - record.disk_space) >= 0.5) {
        found.push(`disk: the program says ${desired.disk} GB, instance ${id} has ${record.disk_space} GB`);
    }
    if (typeof record.is_bid === "boolean" && record.is_bid !== (desired.price !== undefined)) {
        found.push(
            record.is_bid
                ? `price: instance ${id} is interruptible (a bid), the program gives no bid: set price to its bid`
                : `price: the program bids $${desired.price}/hour, instance ${id} is on demand: remove price`,
        );
    }
    return found;
}

/**
 * The program's env variables that the instance has with another value (its `extra_env`), each
 * one line naming the variable, never its value (it may be a secret). A variable the record does
 * not list is not counted: the service may leave some out (port mappings are not listed at all).
 */
export function envDisagreements(record: InstanceRecord, env: Record<string, unknown> | undefined): string[] {
    const has = new Map(record.extra_env ?? []);
    return Object.entries(env ?? {})
        .filter(([name, value]) => !name.startsWith("-") && has.has(name) && has.get(name) !== value)
        .map(([name]) => `env.${name}: the program's value is not the one instance ${record.id} has`);
}
