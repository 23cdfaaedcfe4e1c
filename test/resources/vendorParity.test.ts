import { ApiKey, Instance, SshKey, Template } from "../../provider";
import { LoggedRequest } from "../../testkit/emulator/server";
import { TestStack, startStack } from "../../testkit/support/stack";
import { VENDOR_REQUESTS, VendorIntent } from "../fixtures/vendorRequests";

/**
 * The provider's requests for what the vendor CLI also does, beside the vendor's own
 * (test/fixtures/vendorRequests.ts): the same method and path, and the same field names with the
 * same kinds of value. Captured from the emulator's request log after programs that do each of
 * them through Pulumi's dynamic-provider host. Every difference is listed below with its reason.
 *
 * The vendor sends every field, unset ones as null; the provider leaves an unset field out. The
 * service reads both as "not set", so a vendor field that is null is no difference.
 */

interface Differences {
    /** Fields only the provider sends, and why. */
    providerOnly?: Record<string, string>;
    /** Fields the vendor sends with a value and the provider never does, and why. */
    vendorOnly?: Record<string, string>;
    /** Why any other field the vendor sends may be missing (an edit, which sends only what changed). */
    vendorOnlyOtherwise?: string;
}

const SWITCH = "the vendor CLI's switch, false unless asked; left out, it is not set, which is the same";

const DIFFERENCES: Record<VendorIntent, Differences> = {
    createTemplate: {
        providerOnly: {
            docker_login_user: "the contract calls it required (§2.2, empty when unused); the vendor never sends it and the live service takes its absence",
            docker_login_pass: "as docker_login_user",
            args_str: "a contract field (§2.2) the vendor CLI has no flag for",
            volume_info: "a contract field (§2.2) the vendor CLI has no flag for",
        },
        vendorOnly: { readme_visible: "no contract field, and no input of a Template" },
    },
    editTemplate: {
        providerOnly: { args_str: "a contract field (§2.2) the vendor CLI has no flag for", volume_info: "a contract field (§2.2) the vendor CLI has no flag for" },
        vendorOnlyOtherwise: "an edit sends only what changed: omitted fields keep their values (docs/service-contract.md §4.5); the vendor re-sends every field",
    },
    deleteTemplate: {},
    createInstance: {
        providerOnly: { args_str: "a field of the create the contract's limits name (args + args_str + onstart); the vendor CLI sends args only" },
        vendorOnly: {
            python_utf8: SWITCH,
            lang_utf8: SWITCH,
            force: SWITCH,
            cancel_unavail: SWITCH,
            use_jupyter_lab: "Jupyter Lab and its directory are a Template's settings (useJupyterLab, jupyterDir); an Instance has no such input",
            jupyter_dir: "as use_jupyter_lab",
        },
    },
    labelInstance: {},
    startInstance: {},
    stopInstance: {},
    changeBid: {},
    destroyInstance: {},
    createSshKey: {},
    deleteSshKey: {},
    createApiKey: {},
    deleteApiKey: {},
};

/** What a logged request of the provider's is for, by method, path and body. */
function intentOf(request: LoggedRequest): VendorIntent | undefined {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const is = (method: string, path: RegExp) => request.method === method && path.test(request.path);
    if (is("POST", /^\/api\/v0\/template\/$/)) return "createTemplate";
    if (is("PUT", /^\/api\/v0\/template\/$/)) return "editTemplate";
    if (is("DELETE", /^\/api\/v0\/template\/$/)) return "deleteTemplate";
    if (is("PUT", /^\/api\/v0\/asks\/\d+\/$/)) return "createInstance";
    if (is("PUT", /^\/api\/v0\/instances\/bid_price\/\d+\/$/)) return "changeBid";
    if (is("PUT", /^\/api\/v0\/instances\/\d+\/$/)) return "state" in body ? (body.state === "stopped" ? "stopInstance" : "startInstance") : "labelInstance";
    if (is("DELETE", /^\/api\/v0\/instances\/\d+\/$/)) return "destroyInstance";
    if (is("POST", /^\/api\/v0\/ssh\/$/)) return "createSshKey";
    if (is("DELETE", /^\/api\/v0\/ssh\/\d+\/$/)) return "deleteSshKey";
    if (is("POST", /^\/api\/v0\/auth\/apikeys\/$/)) return "createApiKey";
    if (is("DELETE", /^\/api\/v0\/auth\/apikeys\/\d+\/$/)) return "deleteApiKey";
    return undefined;
}

function kindOf(value: unknown): string {
    return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** A path with its ids as `{id}`, from a logged path or a fixture's placeholders. */
const pathShape = (path: string) => path.replace(/\{\w+\}|\d+/g, "{id}");

/** `$name` in the fixture is bound to an earlier answer's value: the hash is a string, the rest are ids. */
const boundKind = (name: string) => (name === "$hashId" ? "string" : "number");

/**
 * Where a field's kind of value is read when this intent's fixture only sends it null: the vendor's
 * `update_template` takes the same arguments as `create_template`.
 */
const KINDS_ALSO_FROM: Partial<Record<VendorIntent, VendorIntent>> = { editTemplate: "createTemplate" };

/** What the vendor sends for an intent: its method and path, and each field's kinds of value when it has one. */
function vendorSide(intent: VendorIntent) {
    const requests = VENDOR_REQUESTS.filter((r) => r.intent === intent);
    const kinds: Record<string, Set<string>> = {};
    const also = VENDOR_REQUESTS.filter((r) => r.intent === KINDS_ALSO_FROM[intent]);
    for (const request of [...requests, ...also]) {
        for (const [field, value] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
            if (!requests.includes(request) && !(field in kinds)) continue;
            kinds[field] ??= new Set();
            if (value !== null) kinds[field].add(typeof value === "string" && value.startsWith("$") ? boundKind(value) : kindOf(value));
        }
    }
    return { routes: new Set(requests.map((r) => `${r.method} ${pathShape(r.path)}`)), kinds, hasBody: requests.some((r) => r.body !== undefined) };
}

describe("the provider's requests beside the vendor CLI's, for the same intents", () => {
    let stack: TestStack;
    const provider = new Map<VendorIntent, LoggedRequest[]>();

    beforeAll(async () => {
        stack = await startStack({ emulator: { instanceTimings: { loadingAfterMs: 5, runningAfterMs: 30 } } });
        const { engine, emu } = stack;
        const [plain, bid] = [emu.addOffer(), emu.addOffer()];
        const template = (desc: string) =>
            new Template("tpl", {
                name: "parity",
                image: "vastai/base-image",
                tag: "cuda-12.4",
                href: "https://hub.docker.com/r/vastai/base-image",
                repo: "vastai/base-image",
                env: "-e TZ=UTC -p 8080:8080",
                onstart: "echo hello from the template",
                jupDirect: true,
                sshDirect: false,
                useJupyterLab: false,
                runtype: "jupyter",
                useSsh: true,
                jupyterDir: "/workspace",
                dockerLoginRepo: "ghcr.io",
                extraFilters: { gpu_name: { eq: "RTX 4090" } },
                recommendedDiskSpace: 16,
                readme: "# Parity",
                desc,
                private: true,
            });
        const program = (step: { desc: string; label: string; state: "running" | "stopped"; bid: number }) => () => {
            const tpl = template(step.desc);
            return [
                tpl,
                new Instance("ssh", {
                    offerId: plain.id,
                    image: "vastai/base-image:cuda-12.4",
                    env: { TZ: "UTC", "-p 8080:8080": "1" },
                    disk: 16,
                    label: step.label,
                    onstart: "echo hello",
                    runtype: "ssh_direct",
                    imageLogin: "-u bot -p registry-token ghcr.io",
                    desiredState: step.state,
                }),
                new Instance("bid", { offerId: bid.id, templateHashId: tpl.hashId, disk: 20, price: step.bid, args: ["-c", "sleep infinity"] }),
                new SshKey("key", { publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIParityKeyForTheEmulator000000000000000 parity@provider" }),
                new ApiKey("reader", { name: "parity-readonly", permissions: { api: { misc: {}, user_read: {}, instance_read: {} } } }),
            ];
        };
        emu.clearLog();
        await engine.run([
            { up: program({ desc: "first", label: "parity-ssh", state: "running", bid: 0.2 }) },
            // Edit the template (the bid instance is replaced with it), relabel, stop.
            { up: program({ desc: "second", label: "parity-renamed", state: "stopped", bid: 0.2 }) },
            { up: program({ desc: "second", label: "parity-renamed", state: "running", bid: 0.25 }) },
            { destroy: true },
        ]);
        for (const request of emu.requests) {
            const intent = intentOf(request);
            if (intent) provider.set(intent, [...(provider.get(intent) ?? []), request]);
        }
    });
    afterAll(() => stack.stop());

    const INTENTS = Object.keys(DIFFERENCES) as VendorIntent[];

    it("the fixture has the vendor's request for every intent compared, and the programs made the provider send each", () => {
        expect(INTENTS.filter((intent) => !VENDOR_REQUESTS.some((r) => r.intent === intent))).toEqual([]);
        expect(INTENTS.filter((intent) => !provider.has(intent))).toEqual([]);
    });

    it.each(INTENTS)("%s: same method and path, the same fields with the same kinds of value, differences listed", (intent) => {
        const vendor = vendorSide(intent);
        const differences = DIFFERENCES[intent];
        const sent = provider.get(intent)!;
        const problems: string[] = [];
        const providerFields = new Set<string>();
        for (const request of sent) {
            const route = `${request.method} ${pathShape(request.path)}`;
            if (!vendor.routes.has(route)) problems.push(`${route}: the vendor sends ${[...vendor.routes].join(" or ")}`);
            if (vendor.hasBody !== (request.body !== undefined)) problems.push(`${route}: body ${request.body === undefined ? "absent" : "sent"}; the vendor's is ${vendor.hasBody ? "sent" : "absent"}`);
            for (const [field, value] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
                providerFields.add(field);
                const kinds = vendor.kinds[field];
                if (!kinds) {
                    if (!differences.providerOnly?.[field]) problems.push(`${field}: sent by the provider only, and not listed`);
                } else if (!kinds.has(kindOf(value))) {
                    problems.push(`${field}: the provider sends ${kindOf(value)}, the vendor ${[...kinds].join(" or ")}`);
                }
            }
        }
        const vendorOnly = Object.keys(vendor.kinds).filter((field) => vendor.kinds[field].size > 0 && !providerFields.has(field));
        if (!differences.vendorOnlyOtherwise) {
            for (const field of vendorOnly) if (!differences.vendorOnly?.[field]) problems.push(`${field}: sent by the vendor only, and not listed`);
            for (const field of Object.keys(differences.vendorOnly ?? {})) if (!vendorOnly.includes(field)) problems.push(`${field}: listed as the vendor's only, but the provider sends it`);
        }
        expect(problems).toEqual([]);
    });

    it("the rent, label, start, stop and destroy bodies are the vendor's, value for value where the program says the same", () => {
        const bodies = (intent: VendorIntent) => provider.get(intent)!.map((r) => r.body);
        expect(bodies("labelInstance")).toContainEqual({ label: "parity-renamed" });
        expect(bodies("stopInstance")).toContainEqual({ state: "stopped" });
        expect(bodies("startInstance")).toContainEqual({ state: "running" });
        expect(bodies("changeBid")).toEqual([{ client_id: "me", price: 0.25 }]);
        expect(new Set(bodies("destroyInstance").map((b) => JSON.stringify(b)))).toEqual(new Set(["{}"]));
        expect(bodies("createInstance")).toContainEqual(
            expect.objectContaining({
                client_id: "me",
                image: "vastai/base-image:cuda-12.4",
                // The provider may add an entry of its own to the env (a placement marker): the same field, a longer map.
                env: expect.objectContaining({ TZ: "UTC", "-p 8080:8080": "1" }),
                disk: 16,
                onstart: "echo hello",
                runtype: "ssh_direc ssh_proxy",
            }),
        );
        expect(bodies("deleteSshKey")).toEqual([{}]);
        expect(bodies("deleteApiKey")).toEqual([{}]);
    });
});
