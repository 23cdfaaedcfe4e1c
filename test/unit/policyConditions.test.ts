import { allowedValues, upperBound } from "../../provider/policy/conditions";
import { HOURS_PER_MONTH, instanceCeiling, volumeCeiling } from "../../provider/policy/ceilings";
import { locationAllowed } from "../../provider/policy/allowedLocations";
import { instanceRecordSchema } from "../../provider/schemas/instance";

/** What an offer search's condition lets through, as the GPU, location and budget policies judge it. */
describe("policy conditions", () => {
    it("the values a condition allows: eq bounds a search whatever else it says; neq and notin bound nothing", () => {
        expect(allowedValues({ eq: "RTX 4090" })).toEqual({ values: ["RTX 4090"] });
        expect(allowedValues({ eq: "H100 SXM", in: ["h100 sxm"] })).toEqual({ values: ["H100 SXM"] });
        expect(allowedValues({ in: ["A", "B"] })).toEqual({ values: ["A", "B"] });
        expect(allowedValues({ neq: "A" })).toBe("any");
        expect(allowedValues({ notin: ["A"] })).toBe("any");
        expect(allowedValues(undefined)).toBe("any");
    });

    it("the most GPUs a condition allows: eq, the highest of in, lte, and the whole number below lt", () => {
        expect(upperBound({ eq: 2 })).toBe(2);
        expect(upperBound({ in: [1, 4, 2] })).toBe(4);
        expect(upperBound({ lte: 3 })).toBe(3);
        expect(upperBound({ lt: 3 })).toBe(2);
        expect(upperBound({ lt: 2.5 })).toBe(2);
        expect(upperBound({ gte: 2, lte: 8, in: [1, 4] })).toBe(4);
        expect(upperBound({ gte: 4 })).toBe("any");
    });

    it("a location allows a place by country code or in full", () => {
        expect(locationAllowed("Texas, US", ["US"])).toBe(true);
        expect(locationAllowed("Quebec, CA", ["quebec, ca"])).toBe(true);
        expect(locationAllowed("Sweden, SE", ["US", "CA"])).toBe(false);
        expect(locationAllowed("AUS", ["US"])).toBe(false);
    });

    it("ceilings: a bid, then a search's maximum, then the price shown; a volume's per GB-month as per hour", () => {
        expect(instanceCeiling({ price: 0.4, offer: { maxPricePerHour: 2 } })).toEqual({ perHour: 0.4, from: "price (its bid)" });
        expect(instanceCeiling({ offer: { maxPricePerHour: 2 }, dphTotal: 1 })).toEqual({ perHour: 2, from: "offer.maxPricePerHour" });
        expect(instanceCeiling({ offerId: 7, dphTotal: 1 })).toEqual({ perHour: 1, from: "dphTotal (its price)" });
        expect(instanceCeiling({ offer: {} })).toEqual({ none: "its offer search has no maxPricePerHour" });
        expect(volumeCeiling({ sizeGb: 730, storageCostPerGbMonth: 0.1 })).toEqual({ perHour: 0.1, from: expect.stringContaining("storageCostPerGbMonth") });
        expect(volumeCeiling({ sizeGb: 100, offer: { maxPricePerGbMonth: 0.73 } })).toMatchObject({ perHour: (100 * 0.73) / HOURS_PER_MONTH });
    });
});

describe("what an instance record tells the policies", () => {
    it("reads the machine's GPU, count and place, and drops a value of another type instead of failing the read", () => {
        expect(instanceRecordSchema.parse({ id: 1, gpu_name: "RTX 4090", num_gpus: 2, geolocation: "Texas, US" })).toMatchObject({ gpu_name: "RTX 4090", num_gpus: 2, geolocation: "Texas, US" });
        const odd = instanceRecordSchema.parse({ id: 1, gpu_name: 7, num_gpus: "2", geolocation: "Texas, US" });
        expect(odd).toEqual({ id: 1, geolocation: "Texas, US" });
    });
});
