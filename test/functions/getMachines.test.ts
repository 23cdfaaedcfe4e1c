import * as pulumi from "@pulumi/pulumi";
import { GetMachinesArgs, VastAuthError, VastInvalidArgsError, getMachines } from "../../provider";
import { parseGpuOccupancy } from "../../provider/functions/gpuOccupancy";
import { BYTES_PER_GIB } from "../../provider/functions/machine";
import { machineRecordSchema } from "../../provider/schemas/machine";
import { Emulator } from "../../testkit/emulator/server";
import { programEmulator } from "../../testkit/support/programEmulator";

const GiB = 1024 ** 3;

/** Every field of the contract's machine table (§2.1), in its order. */
const CONTRACT_MACHINE_FIELDS = [
    "id", "machine_id", "hostname", "geolocation", "timeout", "num_gpus", "gpu_name", "gpu_ram", "cpu_name",
    "cpu_ram", "cpu_cores", "listed", "listed_gpu_cost", "listed_storage_cost", "listed_volume_cost",
    "listed_inet_up_cost", "listed_inet_down_cost", "min_bid_price", "gpu_occupancy", "disk_space", "inet_up",
    "inet_down", "earn_hour", "earn_day", "current_rentals_running", "current_rentals_resident", "reliability2",
    "public_ipaddr", "driver_version", "cuda_max_good", "hosting_type",
];

describe("getMachines against the emulator", () => {
    const program = programEmulator();
    let emu: Emulator;
    beforeAll(() => {
        emu = program.emu;
    });

    it("types every field of the listing, units in the names, raw values kept", async () => {
        expect(Object.keys(machineRecordSchema.shape)).toEqual(CONTRACT_MACHINE_FIELDS);

        const [first] = await getMachines({ userId: emu.demoUser.id });
        const [req] = emu.requestsTo("GET", "/api/v0/machines");
        expect(req.query).toEqual({ user_id: String(emu.demoUser.id) });
        // Sent with the stack's key, found the way a program's resources find it.
        expect(req.keyId).toBe(emu.model.keys.get(emu.demoKey)!.id);
        expect(first).toEqual({
            id: first.id,
            machineId: first.id,
            hostname: `host-${first.id}`,
            geolocation: "Oslo, NO",
            secondsSinceActive: 0,
            online: true,
            numGpus: 4,
            gpuName: "RTX 4090",
            gpuRamBytes: 24 * GiB,
            gpuRamGib: 24,
            cpuName: "AMD EPYC 7543",
            cpuRamBytes: 256 * GiB,
            cpuRamGib: 256,
            cpuCores: 64,
            listed: true,
            listedGpuCostPerHour: 0.35,
            listedStorageCostPerMonth: 0.1,
            listedVolumeCostPerMonth: 0.08,
            listedInetUpCost: 0.002,
            listedInetDownCost: 0.002,
            minBidPricePerHour: 0.2,
            gpuOccupancy: ["R", "R", "I", "x"],
            gpuOccupancyRaw: "R R I x",
            diskSpaceBytes: 2000 * GiB,
            diskSpaceGib: 2000,
            inetUpMbps: 900.5,
            inetDownMbps: 940.2,
            earningsLastHour: 0.7,
            earningsLastDay: 16.8,
            currentRentalsRunning: 2,
            currentRentalsResident: 3,
            reliability: 0.9973,
            publicIpAddr: "203.0.113.10",
            driverVersion: "550.54.14",
            cudaMaxGood: "12.4",
            hostingType: 1,
            datacenter: true,
            raw: expect.objectContaining({ id: first.id, gpu_ram: 24 * GiB, cpu_ram: 256 * GiB, gpu_occupancy: "R R I x", timeout: 0 }),
        });
        // The record the service sent, every contract field in it, untouched.
        expect(Object.keys(first.raw)).toEqual(expect.arrayContaining(CONTRACT_MACHINE_FIELDS));
    });

    it("gpu_ram is bytes here, not the MB the rest of the API uses: 80 GiB reads as 80, not 80 million", async () => {
        const machines = await getMachines({ userId: emu.demoUser.id });
        const a100 = machines.find((m) => m.gpuName === "A100 SXM4")!;
        expect(a100.gpuRamBytes).toBe(80 * GiB);
        expect(a100.gpuRamGib).toBe(80);
        // 12 GB (decimal) is 11.18 GiB: not rounded, and the bytes stay exact.
        const odd = emu.model.addMachine(emu.demoUser.id, { gpu_ram: 12_000_000_000 });
        const reread = (await getMachines({ userId: emu.demoUser.id })).find((m) => m.id === odd.id)!;
        expect(reread.gpuRamBytes).toBe(12_000_000_000);
        expect(reread.gpuRamGib).toBeCloseTo(12_000_000_000 / BYTES_PER_GIB, 12);
        expect(reread.gpuRamGib).toBeCloseTo(11.1759, 4);
    });

    it("timeout == 0 means online; anything else is the seconds since it was last active", async () => {
        const machines = await getMachines({ userId: emu.demoUser.id });
        const offline = machines.find((m) => m.gpuName === "A100 SXM4")!;
        expect(offline).toMatchObject({ online: false, secondsSinceActive: 3600, listed: false, hostingType: 0, datacenter: false });
        expect(machines.filter((m) => m.online).every((m) => m.secondsSinceActive === 0)).toBe(true);
    });

    it("parses gpu_occupancy into one code per GPU, keeping the raw string", async () => {
        const spaced = emu.model.addMachine(emu.demoUser.id, { gpu_occupancy: "  D   x\tR ", num_gpus: 3 });
        const unknownCode = emu.model.addMachine(emu.demoUser.id, { gpu_occupancy: "R Q" });
        const empty = emu.model.addMachine(emu.demoUser.id, { gpu_occupancy: "", num_gpus: 0 });
        const missing = emu.model.addMachine(emu.demoUser.id, { gpu_occupancy: null, timeout: null, gpu_ram: null });
        const byId = new Map((await getMachines({ userId: emu.demoUser.id })).map((m) => [m.id, m]));

        expect(byId.get(emu.model.machines.keys().next().value!)?.gpuOccupancy).toEqual(["R", "R", "I", "x"]);
        expect([...byId.values()].find((m) => m.gpuName === "A100 SXM4")?.gpuOccupancy).toEqual(["D", "D", "R", "R", "I", "I", "x", "x"]);
        expect(byId.get(spaced.id)).toMatchObject({ gpuOccupancy: ["D", "x", "R"], gpuOccupancyRaw: "  D   x\tR " });
        // A code the contract does not list: the listing still reads, the raw string says what came.
        expect(byId.get(unknownCode.id)).toMatchObject({ gpuOccupancy: undefined, gpuOccupancyRaw: "R Q" });
        expect(byId.get(empty.id)).toMatchObject({ gpuOccupancy: [], gpuOccupancyRaw: "" });
        expect(byId.get(missing.id)).toMatchObject({ gpuOccupancy: undefined, gpuOccupancyRaw: undefined, online: undefined, gpuRamGib: undefined });

        expect(parseGpuOccupancy("I I")).toEqual(["I", "I"]);
        expect(parseGpuOccupancy("X")).toBeUndefined(); // codes are case-sensitive: x, not X
    });

    it("normalises what the service pads or types loosely", async () => {
        const loose = emu.model.addMachine(emu.demoUser.id, { public_ipaddr: " 198.51.100.7\n", cuda_max_good: 12.2 });
        const machine = (await getMachines({ userId: emu.demoUser.id })).find((m) => m.id === loose.id)!;
        expect(machine).toMatchObject({ publicIpAddr: "198.51.100.7", cudaMaxGood: "12.2" });
        expect(machine.raw).toMatchObject({ public_ipaddr: " 198.51.100.7\n", cuda_max_good: 12.2 });
    });

    it("defaults userId to the account the key belongs to; another user's machines are not listed", async () => {
        const mine = await getMachines();
        expect(emu.requestsTo("GET", "/api/v0/users/current/")).toHaveLength(1);
        expect(emu.requestsTo("GET", "/api/v0/machines")[0].query).toEqual({ user_id: String(emu.demoUser.id) });
        expect(mine.length).toBeGreaterThanOrEqual(2);
        expect(await getMachines({ userId: emu.otherUser.id })).toEqual([]);
    });

    // Before: the 403 of the account look-up said only to use a key with user_read, not that userId does without it.
    it("a key with machine_read but not user_read: without userId, the refusal says to pass userId; with it, the machines are listed", async () => {
        const machinesOnly = emu.createKey({ api: { machine_read: {} } }).key;
        const refused = await getMachines({}, { apiKey: machinesOnly }).catch((e) => e);
        expect(refused).toBeInstanceOf(VastAuthError);
        expect(refused).toMatchObject({ status: 403, missingPermission: "user_read", operation: "show current user" });
        expect(refused.message).toMatch(/^vastai: show current user failed: HTTP 403 forbidden: .*needs the "user_read" permission.*\. getMachines asks for the key's account only when userId is left out: with a key without "user_read", pass userId \(the account's id\) \[permission_missing\]$/);
        expect(emu.requestsTo("GET", "/api/v0/machines")).toHaveLength(0);
        expect((await getMachines({ userId: emu.demoUser.id }, { apiKey: machinesOnly })).length).toBeGreaterThanOrEqual(2);
    });

    it("checks its arguments before any call: a userId that is not a positive integer, an unknown key, a bare number", async () => {
        const refusals: Array<[unknown, RegExp]> = [
            [{ userId: "abc" }, /userId: expected a positive integer \(an account id\)/],
            [{ userId: "1001" }, /userId: expected a positive integer/],
            [{ userId: NaN }, /userId: expected a positive integer/],
            [{ userId: 0 }, /userId: expected a positive integer/],
            [{ userId: 1.5 }, /userId: expected a positive integer/],
            [{ userID: 5 }, /userID: unknown property; did you mean "userId"\?/],
            [5, /arguments: expected an object like \{ userId \}, got 5/],
            [null, /arguments: expected an object like \{ userId \}, got null/],
            // An id from getCurrentUserOutput: the plain function cannot wait for it, and says what can.
            [{ userId: pulumi.output(5) }, /userId: expected a plain value, got an Output \(.*\.apply\(\.\.\.\), or use getMachinesOutput/],
            [pulumi.output({ userId: 5 }), /arguments: expected a plain value, got an Output/],
            [{ userId: Promise.resolve(5) }, /userId: expected a plain value, got a Promise \(await it first, or use getMachinesOutput/],
        ];
        for (const [args, message] of refusals) {
            const error = await getMachines(args as GetMachinesArgs).catch((e) => e);
            expect(error).toBeInstanceOf(VastInvalidArgsError);
            expect(error.message).toMatch(/^vastai: getMachines failed: invalid arguments \(not sent\): /);
            expect(error.message).toMatch(message);
        }
        expect(emu.requests).toHaveLength(0);
        // Left out, or undefined, is the key's own account.
        expect((await getMachines({ userId: undefined })).length).toBeGreaterThanOrEqual(2);
    });
});
