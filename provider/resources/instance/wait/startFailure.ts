// Whose fault it is that an instance will not run, from the `status_msg` the service shows (the
// docker daemon's words while it pulls and starts the container). A pull failure is the program's:
// every machine pulls the same image, so the create fails at once. Anything else is the machine's:
// another machine may run it. Why: docs/design/instance-create.md ("A pull failure ends the create").

/** A stable name per kind of start failure, for the create's decision and for error codes. */
export type StartFailureKind = "image_pull_failed" | "machine_failed";

export interface DaemonWording {
    pattern: RegExp;
    /** A message as the daemon or registry words it. */
    example: string;
    /** Where the wording was read. */
    readIn: string;
}

/**
 * The daemon's and the registry's words for an image that cannot be pulled as named: no such
 * repository or tag, no access without a login, not built for the machine's platform, or not a
 * valid reference. One test per entry (test/unit/startFailure.test.ts).
 */
export const IMAGE_PULL_WORDING: readonly DaemonWording[] = [
    {
        pattern: /\bpull access denied\b/i,
        example: "Error response from daemon: pull access denied for acme/nope, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
        readIn: "moby/moby distribution/errors.go TranslatePullError (errcode DENIED) and daemon/containerd/image_pull.go",
    },
    {
        pattern: /\brequested access to the resource is denied\b/i,
        example: "Error response from daemon: denied: requested access to the resource is denied",
        readIn: "distribution/distribution registry/api/errcode/register.go ErrorCodeDenied",
    },
    {
        pattern: /\bmanifest for \S+ not found\b/i,
        example: "Error response from daemon: manifest for vastai/test:self-test-v2-cuda-99 not found",
        readIn: "moby/moby distribution/errors.go TranslatePullError (MANIFEST_UNKNOWN); vast-ai/vast-cli tests/cli/test_runtime_diagnostics.py",
    },
    {
        pattern: /\bmanifest unknown\b/i,
        example: "Error response from daemon: manifest for pytorch/pytorch:2.3-latest not found: manifest unknown: manifest unknown",
        readIn: "distribution/distribution registry/api/errcode/register.go ErrorCodeManifestUnknown",
    },
    {
        pattern: /\brepository \S+ not found\b/i,
        example: "Error response from daemon: repository acme/nope not found: name unknown: repository name not known to registry",
        readIn: "moby/moby distribution/errors.go TranslatePullError (NAME_UNKNOWN)",
    },
    {
        pattern: /\brepository name not known to registry\b/i,
        example: "Error response from daemon: name unknown: repository name not known to registry",
        readIn: "distribution/distribution registry/api/errcode/register.go ErrorCodeNameUnknown",
    },
    {
        pattern: /\binvalid reference format\b/i,
        example: "docker: invalid reference format: repository name must be lowercase",
        readIn: "distribution/distribution reference/reference.go ErrReferenceInvalidFormat",
    },
    {
        pattern: /\bunauthorized: (authentication required|incorrect username or password)\b/i,
        example: "Error response from daemon: Head \"https://ghcr.io/v2/acme/private/manifests/latest\": unauthorized: authentication required",
        readIn: "distribution/distribution registry/api/errcode/register.go ErrorCodeUnauthorized; vast-ai/vast-cli tests/cli/test_runtime_diagnostics.py",
    },
    {
        pattern: /\bno matching manifest for \S+ in the manifest list entries\b/i,
        example: "Error response from daemon: no matching manifest for linux/amd64 in the manifest list entries",
        readIn: "moby/moby daemon/containerd/image_pull.go and distribution/pull_v2.go (noMatchesErr)",
    },
];

/**
 * The machine's failures, whatever else the message says: checked first, so an OCI runtime error
 * that mentions a file "not found" stays the machine's. A rate limit is the registry's answer to
 * the machine's address (Docker Hub counts anonymous pulls per IP), so another machine may pull.
 */
export const MACHINE_WORDING: readonly DaemonWording[] = [
    {
        pattern: /\bOCI runtime create failed\b/i,
        example: "Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process",
        readIn: "dstackai/dstack src/dstack/_internal/core/backends/vastai/compute.py update_provisioning_data",
    },
    {
        pattern: /\bnvidia-container-cli\b|\bnvml\b|driver\/library version mismatch/i,
        example: "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch",
        readIn: "vast-ai/vast-cli vastai/cli/self_test/runtime_diagnostics.py (_NVML_RE, _STARTUP_RE)",
    },
    {
        pattern: /\btoomanyrequests\b/i,
        example: "Error response from daemon: toomanyrequests: You have reached your unauthenticated pull rate limit. https://www.docker.com/increase-rate-limit",
        readIn: "distribution/distribution registry/api/errcode/register.go ErrorCodeTooManyRequests",
    },
];

/** Any other message of a failed start: the vendor CLI fails on "Error" (vast-ai/vast-cli vast.py wait_for_instance). */
const ANY_FAILURE = /Error/;

/** The kind of failure `statusMsg` reports; undefined when it reports none (still starting, or running). */
export function startFailureOf(statusMsg: string | null | undefined): StartFailureKind | undefined {
    const message = statusMsg ?? "";
    if (MACHINE_WORDING.some((w) => w.pattern.test(message))) return "machine_failed";
    if (IMAGE_PULL_WORDING.some((w) => w.pattern.test(message))) return "image_pull_failed";
    return ANY_FAILURE.test(message) ? "machine_failed" : undefined;
}

const MAX_WORDS = 300;

/**
 * The registry's words from `statusMsg`, for an error message: trimmed, one line, cut short, and
 * without a credential (a URL's user and password, and each of `secrets`, the program's login).
 */
export function registryWords(statusMsg: string, secrets: readonly string[] = []): string {
    let words = statusMsg.replace(/\s+/g, " ").trim().replace(/(\w+:\/\/)[^\s/@]+@/g, "$1***@");
    for (const secret of secrets) if (secret.length >= 4) words = words.split(secret).join("***");
    return words.length > MAX_WORDS ? `${words.slice(0, MAX_WORDS - 1)}…` : words;
}
