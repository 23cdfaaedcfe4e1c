import { createRequire } from "module";
import { isInitFailure } from "../dynamic/initFailure";
import { codeShown } from "../errors/providerError";

// The gRPC wire of a Pulumi provider plugin: the stubs, messages and gRPC library that
// @pulumi/pulumi ships and resolves itself, so the service definition and the server agree.
const pulumiRequire = createRequire(require.resolve("@pulumi/pulumi"));
/* eslint-disable @typescript-eslint/no-explicit-any */
export const grpc: any = pulumiRequire("@grpc/grpc-js");
export const providerRpc: any = pulumiRequire("./proto/provider_grpc_pb");
export const providerPb: any = pulumiRequire("./proto/provider_pb");
export const pluginPb: any = pulumiRequire("./proto/plugin_pb");
const statusPb: any = pulumiRequire("./proto/status_pb");
const { Struct }: any = pulumiRequire("google-protobuf/google/protobuf/struct_pb");
const { Any }: any = pulumiRequire("google-protobuf/google/protobuf/any_pb");
export const { Empty }: any = pulumiRequire("google-protobuf/google/protobuf/empty_pb");

export type Props = Record<string, unknown>;

/** The engine's marker of a special value (a secret, an asset) inside a property bag. */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/**
 * A property bag as the provider's methods take it: plain JSON, secrets unwrapped. The plugin tells
 * the engine it does not accept secrets (as Pulumi's dynamic-provider host does), so secrets only
 * arrive wrapped in Configure; values not known yet keep the engine's unknown string.
 */
export function fromStruct(struct: { toJavaScript(): unknown } | undefined): Props {
    return (unwrap(struct?.toJavaScript() ?? {}) ?? {}) as Props;
}

function unwrap(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(unwrap);
    if (value === null || typeof value !== "object") return value;
    const obj = value as Props;
    if (obj[SIG_KEY] === SECRET_SIG) return unwrap(obj.value);
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, unwrap(v)]));
}

/** `value` as the engine marks a secret inside a property bag. */
export function asSecret(value: unknown): unknown {
    return { [SIG_KEY]: SECRET_SIG, value };
}

/** A property bag for the engine: what JSON would keep (no `undefined` anywhere, which a Struct cannot hold). */
export function toStruct(props: unknown): unknown {
    return Struct.fromJavaScript(JSON.parse(JSON.stringify(props ?? {})));
}

/** A created resource that failed to become ready (dynamic/initFailure.ts): its id and outputs, which the engine keeps in state. */
type InitFailure = Error & { id: string; properties?: object; reasons: string[] };

/**
 * A failed call as the engine reads it. A create or update that made something and then failed
 * carries `ErrorResourceInitFailed` in the status details, so the engine records the resource (a
 * paid instance stays in state) and shows the message; any other failure is the message alone.
 */
export function grpcError(e: unknown): { code: number; details: string; metadata?: unknown } {
    const { message } = codeShown(e);
    if (!isInitFailure(e)) return { code: grpc.status.UNKNOWN, details: message };
    const init = e as InitFailure;
    const failed = new providerPb.ErrorResourceInitFailed();
    failed.setId(init.id);
    // The dynamic path's init failure carries the host's `__provider` text, which the plugin has none of.
    const { __provider: _, ...properties } = (init.properties ?? {}) as Props;
    failed.setProperties(toStruct(properties));
    failed.setReasonsList(init.reasons);
    const detail = new Any();
    detail.pack(failed.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusPb.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(detail);
    const metadata = new grpc.Metadata();
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
    return { code: grpc.status.UNKNOWN, details: message, metadata };
}

/** A gRPC method from an async function: its result is the response, a throw the failure. */
export function unary<Req, Res>(work: (req: Req) => Promise<Res> | Res) {
    return (call: { request: Req }, callback: (err: unknown, res?: Res) => void) => {
        Promise.resolve()
            .then(() => work(call.request))
            .then(
                (res) => callback(null, res),
                (e) => callback(grpcError(e)),
            );
    };
}

/** A method the plugin does not serve: the engine then does without it. */
export function unimplemented(method: string) {
    return (_call: unknown, callback: (err: unknown) => void) => callback({ code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by pulumi-resource-vastai` });
}
