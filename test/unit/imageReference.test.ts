import { correctedImageReference, formatImageReference, imageReferenceProblem, imageTagProblem, parseImageReference, tagInTwoPlaces } from "../../provider/schemas/imageReference";
import { DOCKER_HUB_REGISTRY, parseChallenge, registryLocation, sameRegistry } from "../../provider/client/registry";
import { parseImageLogin } from "../../provider/resources/instance/create/imageCheck";

/** The reference grammar (schemas/imageReference.ts) and the name-to-registry mapping (client/registry.ts), no network. */
const location = (image: string) => registryLocation(parseImageReference(image).reference!);

describe("the image reference grammar", () => {
    it.each([
        "busybox",
        "busybox:1.36",
        "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime",
        "nvidia/cuda:12.4.1-base-ubuntu22.04",
        "ghcr.io/acme/trainer:v1",
        "nvcr.io/nvidia/pytorch:24.05-py3",
        "127.0.0.1:5000/acme/trainer:1",
        "localhost/acme",
        "my-registry.example.com:8443/team/a__b/c.d-e:TAG_1",
        `busybox@sha256:${"a".repeat(64)}`,
        `busybox:1.36@sha256:${"0".repeat(64)}`,
    ])("takes %s", (image) => {
        expect(imageReferenceProblem(image)).toBeUndefined();
        expect(formatImageReference(parseImageReference(image).reference!)).toBe(image);
    });

    it.each([
        ["PyTorch/pytorch:2.3 latest", /has spaces .* and has capital letters in its repository .*did you mean "pytorch\/pytorch:2\.3"\?$/],
        ["pytorch/pytorch latest", /has spaces .*did you mean "pytorch\/pytorch:latest"\?$/],
        ["ghcr.io/Acme/Trainer:V1", /capital letters .*did you mean "ghcr\.io\/acme\/trainer:V1"\?$/],
        ["https://ghcr.io/acme/x:1", /URL scheme .*did you mean "ghcr\.io\/acme\/x:1"\?$/],
        ["busybox:1:2", /more than one tag/],
        ["busybox:-x", /has a tag that is not/],
        [`busybox:${"a".repeat(129)}`, /at most 128 characters/],
        ["busybox@sha256:abc", /digest that is not sha256/],
        ["-bad", /repository path that is not lowercase letters and digits/],
        ["acme//trainer", /repository path/],
    ])("refuses %s", (image, problem) => {
        expect(imageReferenceProblem(image)).toMatch(problem);
    });

    it("writes the corrected form as a Template takes it: the tag in tag", () => {
        expect(imageReferenceProblem("PyTorch/pytorch:2.3 latest", "template")).toMatch(/did you mean image: "pytorch\/pytorch", tag: "2\.3"\?$/);
        expect(imageReferenceProblem("UPPER", "template")).toMatch(/did you mean image: "upper"\?$/);
        expect(tagInTwoPlaces("pytorch/pytorch:2.3", "latest")).toMatch(/names its own tag "2\.3" while tag is "latest".*Give image: "pytorch\/pytorch", tag: "2\.3", or tag: ""/);
        expect(tagInTwoPlaces("pytorch/pytorch:2.3", "")).toBeUndefined();
        expect(tagInTwoPlaces("pytorch/pytorch", "2.3")).toBeUndefined();
        expect(imageTagProblem("2.3 latest")).toMatch(/did you mean "2\.3"\?$/);
        expect(imageTagProblem("")).toBeUndefined();
        expect(imageTagProblem("2.3.0-cuda12.1")).toBeUndefined();
    });

    it("has no correction to offer where none reads", () => {
        expect(correctedImageReference("a:b:c")).toBeUndefined();
        expect(imageReferenceProblem("a:b:c")).not.toContain("did you mean");
    });
});

describe("where an image is asked for", () => {
    it("Docker Hub: no registry, or docker.io, is registry-1.docker.io, and an official image is library/", () => {
        expect(location("busybox")).toEqual({ registry: DOCKER_HUB_REGISTRY, baseUrl: "https://registry-1.docker.io", repository: "library/busybox", manifest: "latest" });
        expect(location("pytorch/pytorch:2.3")).toMatchObject({ baseUrl: "https://registry-1.docker.io", repository: "pytorch/pytorch", manifest: "2.3" });
        expect(location("docker.io/library/ubuntu:22.04")).toMatchObject({ registry: DOCKER_HUB_REGISTRY, repository: "library/ubuntu", manifest: "22.04" });
        expect(location("index.docker.io/nvidia/cuda:12.4.1-base-ubuntu22.04")).toMatchObject({ registry: DOCKER_HUB_REGISTRY, repository: "nvidia/cuda" });
    });

    it("ghcr.io, nvcr.io and any host[:port] are their own registries; one on this machine over http", () => {
        expect(location("ghcr.io/acme/trainer:v1")).toEqual({ registry: "ghcr.io", baseUrl: "https://ghcr.io", repository: "acme/trainer", manifest: "v1" });
        expect(location("nvcr.io/nvidia/pytorch:24.05-py3")).toMatchObject({ baseUrl: "https://nvcr.io", repository: "nvidia/pytorch", manifest: "24.05-py3" });
        expect(location("registry.example.com:8443/team/app")).toMatchObject({ baseUrl: "https://registry.example.com:8443", repository: "team/app" });
        expect(location("127.0.0.1:5000/acme/trainer:1")).toMatchObject({ baseUrl: "http://127.0.0.1:5000", repository: "acme/trainer" });
        expect(location("localhost:5000/acme")).toMatchObject({ baseUrl: "http://localhost:5000", repository: "acme" });
    });

    it("a digest is asked for by the digest, before any tag", () => {
        const digest = `sha256:${"b".repeat(64)}`;
        expect(location(`busybox:1.36@${digest}`).manifest).toBe(digest);
    });

    it("matches a login's registry as written in logins", () => {
        expect(sameRegistry("docker.io", location("busybox"))).toBe(true);
        expect(sameRegistry("https://index.docker.io/v1/", location("pytorch/pytorch"))).toBe(true);
        expect(sameRegistry("GHCR.io", location("ghcr.io/acme/x"))).toBe(true);
        expect(sameRegistry("ghcr.io", location("nvcr.io/nvidia/pytorch"))).toBe(false);
    });

    it("reads a Bearer challenge and an image login", () => {
        expect(parseChallenge('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/busybox:pull"')).toEqual({
            scheme: "bearer",
            params: { realm: "https://auth.docker.io/token", service: "registry.docker.io", scope: "repository:library/busybox:pull" },
        });
        expect(parseChallenge('Basic realm="Registry"')).toEqual({ scheme: "basic", params: { realm: "Registry" } });
        expect(parseImageLogin("-u bot -p ghp_token ghcr.io")).toEqual({ user: "bot", password: "ghp_token", registry: "ghcr.io" });
        expect(parseImageLogin("--username=$oauthtoken --password=nvapi-x nvcr.io")).toEqual({ user: "$oauthtoken", password: "nvapi-x", registry: "nvcr.io" });
        expect(parseImageLogin("-u bot -p tok")).toEqual({ user: "bot", password: "tok", registry: undefined });
        expect(parseImageLogin("ghcr.io")).toBeUndefined();
    });
});
