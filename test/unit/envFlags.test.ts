import { EnvFlagError, formatEnvFlags, parseEnvFlags, toEnvMap } from "../../provider/schemas/envFlags";
import { envFlagsToDict } from "../../testkit/emulator/envFlags";

describe("env: flag string ⇄ canonical map", () => {
    it("reads variables and ports from a flag string", () => {
        expect(parseEnvFlags("-e A=1 -p 8080:8080 -e B=two")).toEqual({ A: "1", B: "two", "-p 8080:8080": "1" });
    });

    it("keeps one canonical form for equivalent spellings", () => {
        const spellings = [
            "-e A=1 -p 8080:8080 -e B=two",
            "-p 8080:8080/tcp   -e B=two -e A=1",
            '-e "A=1" -e B="two" -p 8080:8080',
        ];
        const maps = [{ B: "two", "-p 8080:8080/tcp": "1", A: "1" }, { A: "1", B: "two", "-p 8080:8080": "1" }];
        const canonical = toEnvMap(spellings[0]);
        for (const s of spellings) expect(toEnvMap(s)).toEqual(canonical);
        for (const m of maps) expect(toEnvMap(m)).toEqual(canonical);
        expect(Object.keys(toEnvMap(maps[0]))).toEqual(["A", "B", "-p 8080:8080"]);
    });

    it.each([
        ["spaces", "hello big world"],
        ["double quotes", 'say "hi"'],
        ["single quotes", "it's"],
        ["double quotes and spaces", 'say "hi" now'],
        ["single quotes and spaces", "it's a test"],
        ["= inside the value", "a=b=c"],
        ["a URL with query", "https://x.example/?a=1&b=2"],
        ["backslashes", "C:\\path\\to"],
        ["an empty value", ""],
        ["unicode", "naïve ☃"],
    ])("round-trips a value with %s: map → flags → map", (_name, value) => {
        const env = { VALUE: value, "-p 8080:8080": "1" };
        const flags = formatEnvFlags(env);
        expect(parseEnvFlags(flags)).toEqual(env);
        // and the service's own reading of the flag string gives the same map
        expect(envFlagsToDict(flags)).toEqual(env);
    });

    it("round-trips flags → map → flags to the canonical string", () => {
        const flags = '-e GREETING="hello world" -e MODE=train -p 53:53/udp -p 8080:8080';
        expect(formatEnvFlags(parseEnvFlags(flags))).toBe(flags);
        expect(parseEnvFlags("-p 53:53/udp")).toEqual({ "-p 53:53/udp": "1" });
        expect(parseEnvFlags("-p 8888")).toEqual({ "-p 8888": "1" });
    });

    it.each([
        ["-e A=1 --rm", /unsupported env flag "--rm"/],
        ["-x /data:/data", /unsupported env flag "-x"/],
        ['-v "/my data:/data"', /-v "\/my data:\/data" is not a volume/],
        ["-n My_Net", /-n "My_Net" is not a network name/],
        ["-e NOVALUE", /-e at word 2 is not NAME=value \(its text is not shown/],
        ["-e A=1 -e", /-e at the end of the env flags has no value/],
        ["-p 80:eighty", /-p "80:eighty" is not a port mapping/],
        ["-p 99999:1", /is not a port mapping/],
        ['-e A="unterminated', /unterminated " quote/],
        ["A=1", /unsupported env flag at word 1 \(not shown/],
    ])("refuses %j instead of dropping it", (flags, message) => {
        expect(() => parseEnvFlags(flags)).toThrow(EnvFlagError);
        expect(() => parseEnvFlags(flags)).toThrow(message);
    });

    // A value that lost its quotes is refused without being shown: it may be a password or a token.
    it.each([
        ["-e DB_PASSWORD=correct horse battery", /unsupported env flag at word 3/, "horse"],
        ["-e 'HF TOKEN=hf_abcdefghijklmnop'", /-e "HF TOKEN"=… is not NAME=value/, "hf_abcdefghijklmnop"],
        ["-e hf_abcdefghijklmnop", /-e at word 2 is not NAME=value/, "hf_abcdefghijklmnop"],
        ["-e A=1 --shm-size=1g", /unsupported env flag "--shm-size"/, "1g"],
        ["-e PASS=abc -Xyz123secret", /unsupported env flag at word 3/, "Xyz123secret"],
    ])("refuses %j without quoting any value", (flags, message, hidden) => {
        let error: Error | undefined;
        try {
            parseEnvFlags(flags);
        } catch (e) {
            error = e as Error;
        }
        expect(error?.message).toMatch(message);
        expect(error?.message).not.toContain(hidden);
    });

    it("keeps -v, -n and -h as the vendor CLI reads them, both ways, and as the service reads them back", () => {
        const flags = "-e A=1 -p 8888:8888 -v /data:/data -n my-net -h trainer";
        const env = { A: "1", "-p 8888:8888": "1", "-v /data:/data": "1", "-n my-net": "1", "-h": "trainer" };
        expect(parseEnvFlags(flags)).toEqual(env);
        expect(formatEnvFlags(env)).toBe(flags);
        expect(toEnvMap({ "-h": "trainer", "-v /data:/data": "1", "-n my-net": "1", "-p 8888:8888": "1", A: "1" })).toEqual(toEnvMap(flags));
        expect(envFlagsToDict(flags)).toEqual(env);
        expect(() => toEnvMap({ "-v /data:/data": "yes" })).toThrow(/-v takes the value "1"/);
        expect(() => toEnvMap({ "-h": "not a host" })).toThrow(/-h: "not a host" is not a hostname/);
    });

    it("refuses map entries it cannot carry, naming the key", () => {
        expect(() => toEnvMap({ "-p 80:http": "1" })).toThrow(/-p 80:http: "80:http" is not a port mapping/);
        expect(() => toEnvMap({ "-p 80:80": "yes" })).toThrow(/a port mapping takes the value "1"/);
        expect(() => toEnvMap({ "BAD NAME": "x" })).toThrow(/BAD NAME: not a variable name/);
        expect(() => toEnvMap({ N: 5 })).toThrow(/N: expected a string value, got number/);
        expect(() => toEnvMap({ N: "a\nb" })).toThrow(/line breaks/);
        expect(() => formatEnvFlags({ X: `both ' and " with space` })).toThrow(/cannot carry/);
    });
});
