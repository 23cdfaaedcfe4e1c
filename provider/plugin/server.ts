import * as fs from "fs";
import * as path from "path";
import { configure as configureProcess } from "../runtime/providerContext";
import { checkConfig, stackConfigOf } from "./config";
import { invoke } from "./invokes";
import { check, create, diff, read, remove, update, PluginDiff } from "./resources";
import { Empty, Props, asSecret, fromStruct, grpc, pluginPb, providerPb, providerRpc, toStruct, unary, unimplemented } from "./wire";
import { ProviderError } from "../errors/providerError";

/**
 * The provider plugin `pulumi-resource-vastai`: Pulumi's `pulumirpc.ResourceProvider` over gRPC, as
 * the engine starts any resource plugin, for programs in every language. Each method decodes the
 * request, calls the one implementation the dynamic resources use (resources.ts, invokes.ts), and
 * encodes the answer. Why a server of our own rather than `@pulumi/pulumi/provider`:
 * docs/design/provider-plugin.md.
 */

/** The package's root, where its package.json and schema.json are: above provider/plugin, in the sources and in dist/. */
function packageRoot(): string {
    for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
        const manifest = path.join(dir, "package.json");
        if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, "utf8")).name === "pulumi-vastai") return dir;
    }
    throw new ProviderError("plugin_incomplete", `vastai: no package.json of pulumi-vastai above ${__dirname}: the plugin is not installed whole`);
}

const ROOT = packageRoot();
export const PLUGIN_VERSION: string = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version;

const DIFF_CHANGES = { true: providerPb.DiffResponse.DiffChanges.DIFF_SOME, false: providerPb.DiffResponse.DiffChanges.DIFF_NONE };

function checkResponse(inputs: Props, failures: Array<{ property: string; reason: string }>): unknown {
    const res = new providerPb.CheckResponse();
    res.setInputs(toStruct(inputs));
    res.setFailuresList(
        failures.map((f) => {
            const failure = new providerPb.CheckFailure();
            failure.setProperty(f.property);
            failure.setReason(f.reason);
            return failure;
        }),
    );
    return res;
}

function diffResponse(d: PluginDiff): unknown {
    const res = new providerPb.DiffResponse();
    res.setChanges(DIFF_CHANGES[`${d.changes}`]);
    res.setReplacesList(d.replaces);
    res.setDeletebeforereplace(d.deleteBeforeReplace);
    res.setHasdetaileddiff(true);
    res.setDiffsList(Object.keys(d.detailedDiff));
    const detailed = res.getDetaileddiffMap();
    for (const [name, kind] of Object.entries(d.detailedDiff)) {
        const change = new providerPb.PropertyDiff();
        change.setKind(providerPb.PropertyDiff.Kind[kind]);
        change.setInputdiff(true);
        detailed.set(name, change);
    }
    return res;
}

/** Provider config changes (another key, another URL) are taken in place: no resource is replaced for them. */
function diffConfig(olds: Props, news: Props): PluginDiff {
    const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => JSON.stringify(olds[k]) !== JSON.stringify(news[k]));
    return { changes: changed.length > 0, replaces: [], deleteBeforeReplace: false, detailedDiff: Object.fromEntries(changed.map((k) => [k, "UPDATE" as const])) };
}

const service = {
    getPluginInfo: unary(() => {
        const info = new pluginPb.PluginInfo();
        info.setVersion(PLUGIN_VERSION);
        return info;
    }),
    getSchema: unary(() => {
        const res = new providerPb.GetSchemaResponse();
        res.setSchema(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8"));
        return res;
    }),
    checkConfig: unary((req: any) => {
        const news = fromStruct(req.getNews());
        // The checked inputs go into state as the provider's: the key marked secret there, whatever the engine infers.
        const inputs = typeof news.apiKey === "string" ? { ...news, apiKey: asSecret(news.apiKey) } : news;
        return checkResponse(inputs, checkConfig(news));
    }),
    diffConfig: unary((req: any) => diffResponse(diffConfig(fromStruct(req.getOlds()), fromStruct(req.getNews())))),
    configure: unary((req: any) => {
        // Synchronous, as the runtime's configure must be: every later call sees the client it sets up.
        configureProcess({ config: stackConfigOf(fromStruct(req.getArgs()), req.getVariablesMap()) });
        const res = new providerPb.ConfigureResponse();
        // Plain values in, as Pulumi's dynamic-provider host takes them: the engine keeps an output
        // secret when its input was, and the schema marks the rest (additionalSecretOutputs).
        res.setAcceptsecrets(false);
        res.setAcceptresources(false);
        res.setSupportspreview(false);
        return res;
    }),
    check: unary(async (req: any) => {
        const checked = await check(req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()));
        return checkResponse(checked.inputs, checked.failures);
    }),
    diff: unary(async (req: any) => diffResponse(await diff(req.getId(), req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()), fromStruct(req.getOldInputs())))),
    create: unary(async (req: any) => {
        const res = new providerPb.CreateResponse();
        // Configure says no previews, so the engine sends none; one that came would rent: answered with the inputs, nothing sent.
        if (req.getPreview()) {
            res.setProperties(req.getProperties());
            return res;
        }
        const created = await create(req.getUrn(), fromStruct(req.getProperties()));
        res.setId(created.id);
        res.setProperties(toStruct(created.outs));
        return res;
    }),
    read: unary(async (req: any) => {
        const found = await read(req.getId(), req.getUrn(), fromStruct(req.getProperties()), fromStruct(req.getInputs()));
        const res = new providerPb.ReadResponse();
        res.setId(found.id);
        res.setProperties(toStruct(found.props));
        res.setInputs(toStruct(found.inputs));
        return res;
    }),
    update: unary(async (req: any) => {
        const res = new providerPb.UpdateResponse();
        // As create: a preview changes nothing, whatever the engine.
        if (req.getPreview()) {
            res.setProperties(toStruct({ ...fromStruct(req.getOlds()), ...fromStruct(req.getNews()) }));
            return res;
        }
        res.setProperties(toStruct(await update(req.getId(), req.getUrn(), fromStruct(req.getOlds()), fromStruct(req.getNews()), fromStruct(req.getOldInputs()))));
        return res;
    }),
    delete: unary(async (req: any) => {
        await remove(req.getId(), req.getUrn(), fromStruct(req.getProperties()));
        return new Empty();
    }),
    invoke: unary(async (req: any) => {
        const res = new providerPb.InvokeResponse();
        res.setReturn(toStruct(await invoke(req.getTok(), fromStruct(req.getArgs()))));
        return res;
    }),
    cancel: unary(() => new Empty()),
    // Left to the engine's fallbacks: no parameterization, no components, no mappings, no handshake (Configure suffices).
    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    call: unimplemented("Call"),
    construct: unimplemented("Construct"),
    attach: unimplemented("Attach"),
    getMapping: unimplemented("GetMapping"),
    getMappings: unimplemented("GetMappings"),
    list: (call: any) => call.destroy({ code: grpc.status.UNIMPLEMENTED, details: "List is not implemented by pulumi-resource-vastai" }),
};

/** Serves the plugin on a loopback port and returns it: the engine reads it from the first line of stdout. */
export function serve(): Promise<number> {
    // The engine's message size, as Pulumi's own servers take it (a big state is one message).
    const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
    server.addService(providerRpc.ResourceProviderService, service);
    return new Promise((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e: Error | null, port: number) => (e ? reject(e) : resolve(port))));
}
