import { InstanceRecord } from "../../provider/schemas/instance";
import { startState } from "../../provider/resources/instance/wait/readiness";
import { IMAGE_PULL_WORDING, MACHINE_WORDING, registryWords, startFailureOf } from "../../provider/resources/instance/wait/startFailure";

// Whose fault a failed start is, from the daemon's words in `status_msg`: one case per pattern.
describe("a start failure's kind, from status_msg", () => {
    it.each(IMAGE_PULL_WORDING.map((w) => [w.pattern.source, w] as const))("the program's (image_pull_failed): %s", (_source, w) => {
        expect(w.pattern.test(w.example)).toBe(true);
        expect(startFailureOf(w.example)).toBe("image_pull_failed");
        // As the service may show it: without the daemon's prefix, padded, or in another case.
        const bare = w.example.replace(/^Error response from daemon: /, "");
        expect(startFailureOf(`  ${bare}\n`)).toBe("image_pull_failed");
        expect(startFailureOf(bare.toUpperCase())).toBe("image_pull_failed");
        expect(w.readIn).not.toBe("");
    });

    it.each(MACHINE_WORDING.map((w) => [w.pattern.source, w] as const))("the machine's (machine_failed): %s", (_source, w) => {
        expect(w.pattern.test(w.example)).toBe(true);
        expect(startFailureOf(w.example)).toBe("machine_failed");
        expect(w.readIn).not.toBe("");
    });

    it.each([
        // An OCI runtime error after the pull, naming a file "not found": the container's start failed, not the pull.
        ["an OCI runtime error that names a missing file", 'Error response from daemon: OCI runtime create failed: exec: "/start.sh": stat /start.sh: no such file or directory: manifest not found in rootfs'],
        ["a GPU error that mentions the pull", "nvidia-container-cli: initialization error after pull access denied for a retry of the driver hook"],
        ["a rate limit that mentions a manifest", "Error response from daemon: toomanyrequests: too many requests for manifest unknown-rate"],
        ["a pull that broke off", "Error response from daemon: failed to pull layer: read tcp 10.0.0.2:41234->104.18.0.1:443: read: connection reset by peer"],
        ["a registry that could not be reached", 'Error response from daemon: Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: i/o timeout'],
        ["a message with Error and a repository not named", "Error: repository mirror not reachable, not found in cache"],
    ])("the machine's, though loosely worded like a pull failure: %s", (_name, message) => {
        expect(startFailureOf(message)).toBe("machine_failed");
    });

    it.each([
        ["the pull under way", "Pulling image layers"],
        ["the container made", "Container created"],
        ["no message", null],
        ["a lowercase error word", "no error so far, pulling"],
    ])("none while starting: %s", (_name, message) => {
        expect(startFailureOf(message)).toBeUndefined();
    });
});

describe("startState names the kind of a failed start", () => {
    const record = (fields: Partial<InstanceRecord>) => ({ id: 1, intended_status: "running", ...fields }) as InstanceRecord;

    it("a pull failure is the program's whatever the status: created, loading, exited", () => {
        const msg = "Error response from daemon: pull access denied for acme/nope, repository does not exist or may require 'docker login'";
        for (const actual_status of ["created", "loading", "exited"]) {
            expect(startState(record({ actual_status, status_msg: msg }))).toMatchObject({ kind: "failed", failure: "image_pull_failed" });
        }
    });

    it("exited, unknown, offline and any other Error are the machine's; running and loading are not failures", () => {
        for (const actual_status of ["exited", "unknown", "offline"]) expect(startState(record({ actual_status }))).toMatchObject({ kind: "failed", failure: "machine_failed" });
        expect(startState(record({ actual_status: "loading", status_msg: "Error: host reported a fault" }))).toMatchObject({ kind: "failed", failure: "machine_failed" });
        expect(startState(record({ actual_status: "running", status_msg: "manifest unknown" }))).toEqual({ kind: "running" });
        expect(startState(record({ actual_status: "loading", status_msg: "Pulling image layers" }))).toEqual({ kind: "starting" });
    });
});

describe("the registry's words, for an error message", () => {
    it("are trimmed to one line and cut short", () => {
        expect(registryWords("  manifest unknown:\n  manifest unknown \n")).toBe("manifest unknown: manifest unknown");
        const long = registryWords(`pull access denied ${"x".repeat(1000)}`);
        expect(long.length).toBe(300);
        expect(long.endsWith("…")).toBe(true);
    });

    it("never carry a credential: a URL's user and password, or the program's login", () => {
        const said = registryWords('Error response from daemon: Get "https://bob:s3cret-token@registry.example.com/v2/": unauthorized: incorrect username or password', ["s3cret-token"]);
        expect(said).toBe('Error response from daemon: Get "https://***@registry.example.com/v2/": unauthorized: incorrect username or password');
        expect(registryWords("denied for hunter22 on the registry", ["hunter22"])).toBe("denied for *** on the registry");
    });
});
