import * as pulumi from "@pulumi/pulumi";

/**
 * Runs resource constructors as a Pulumi program would, under `pulumi.runtime.setMocks`, and
 * returns what each registration sent the engine: the type, the name and the inputs, with the
 * exact `__provider` text the SDK serialized. That text is what the engine later hands the host.
 */
export interface Registration {
    type: string;
    name: string;
    inputs: Record<string, any>;
    /** The `additionalSecretOutputs` option as the engine receives it (the mocks do not pass it on). */
    additionalSecretOutputs: string[];
}

export async function registerAsProgram(
    build: () => pulumi.Resource | pulumi.Resource[],
    options: { project?: string; stack?: string; preview?: boolean } = {},
): Promise<Registration[]> {
    const registrations: Registration[] = [];
    const secretOutputs = new Map<string, string[]>();
    await pulumi.runtime.setMocks(
        {
            newResource(args: pulumi.runtime.MockResourceArgs) {
                const additionalSecretOutputs = secretOutputs.get(args.name) ?? [];
                registrations.push({ type: args.type, name: args.name, inputs: args.inputs, additionalSecretOutputs });
                return { id: `${args.name}-id`, state: args.inputs };
            },
            call(args: pulumi.runtime.MockCallArgs) {
                return args.inputs;
            },
        },
        options.project ?? "vastai-test",
        options.stack ?? "test",
        options.preview ?? false,
    );
    noteSecretOutputs((name, list) => secretOutputs.set(name, list));
    const built = build();
    const resources = Array.isArray(built) ? built : [built];
    // A registration is complete once its URN resolves.
    await Promise.all(resources.map((r) => new Promise((resolve) => r.urn.apply(resolve))));
    return registrations;
}

/**
 * The mock monitor hands `newResource` only the inputs; the request it gets also carries the
 * options the engine acts on. Reports each registration's `additionalSecretOutputs` on the way
 * through. Call after `setMocks`.
 */
export function noteSecretOutputs(report: (name: string, additionalSecretOutputs: string[]) => void): void {
    const monitor = pulumi.runtime.getMonitor() as any;
    const registerResource = monitor.registerResource.bind(monitor);
    monitor.registerResource = (req: any, callback: unknown) => {
        report(req.getName(), req.getAdditionalsecretoutputsList());
        return registerResource(req, callback);
    };
}
