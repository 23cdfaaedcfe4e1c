import { StackValidationPolicy } from "@pulumi/policy";
import { allowedValues } from "./conditions";
import { UNKNOWN, isGiven, kindOf, machineNotKnownYet, named, reportUnchecked, resourcesOf, valueAt } from "./props";

export interface AllowedLocationsConfig {
    locations?: string[];
}

/**
 * A machine's `geolocation` is in an allowed location when it is one ("Texas, US") or ends with
 * one after a comma: `US` allows every machine whose location ends in ", US".
 */
export function locationAllowed(geolocation: string, locations: readonly string[]): boolean {
    const place = geolocation.trim().toLowerCase();
    return locations.some((l) => {
        const allowed = l.trim().toLowerCase();
        return place === allowed || place.endsWith(`, ${allowed}`);
    });
}

/**
 * Instances and volumes stay in the allowed locations (data residency): judged by where the
 * rented machine is (`geolocation`) once it is known, and before that by the offer search's
 * `geolocation` condition, which must name allowed locations only.
 */
export const allowedLocations: StackValidationPolicy = {
    name: "vastai-allowed-locations",
    description: "Instances and volumes are rented only in the allowed locations (data residency).",
    enforcementLevel: "mandatory",
    configSchema: {
        properties: {
            locations: {
                type: "array",
                items: { type: "string" },
                description: 'Where machines may be, as the marketplace\'s geolocation says it: a country code ("US", "SE") allows every place in it, or a place ("Quebec, CA"). Unset: anywhere.',
            },
        },
    },
    validateStack: (args, reportViolation) => {
        const { locations } = args.getConfig<AllowedLocationsConfig>();
        if (locations === undefined) return;
        for (const r of resourcesOf(args.resources, "instance", "volume", "networkVolume")) {
            const who = named(kindOf(r.type)!, r.name);
            const rented = valueAt(r.props, "geolocation");
            const search = isGiven(r.props, "offer");
            if (typeof rented === "string") {
                if (!locationAllowed(rented, locations)) reportViolation(`${who} is in ${rented} (geolocation), outside the allowed locations: ${locations.join(", ")}`, r.urn);
            } else if (search === true) {
                const places = allowedValues<string>(valueAt(r.props, "offer", "filters", "geolocation"));
                if (places === UNKNOWN) reportUnchecked(reportViolation, allowedLocations.name, `${who}'s offer.filters.geolocation is not known yet`, r.urn);
                else if (places === "any") reportViolation(`${who}'s offer search allows any location (offer.filters.geolocation has no eq or in); allowed: ${locations.join(", ")}`, r.urn);
                else {
                    const outside = places.values.filter((p) => !locationAllowed(p, locations));
                    if (outside.length > 0) reportViolation(`${who}'s offer.filters.geolocation allows ${outside.join(", ")}, outside the allowed locations: ${locations.join(", ")}`, r.urn);
                }
            } else {
                reportUnchecked(reportViolation, allowedLocations.name, `where ${who} is: ${machineNotKnownYet(kindOf(r.type)!, r.props)}`, r.urn);
            }
        }
    },
};
