import type * as pulumi from "@pulumi/pulumi";

/**
 * A `read` answer: the resource as it is now, and the inputs it stands for, so the next diff after
 * a refresh is clean. The SDK types `inputs` as the outputs type; they are the inputs.
 */
export function readResult<O>(id: string, props: O, inputs: object): pulumi.dynamic.ReadResult<O> {
    return { id, props, inputs: inputs as O };
}

/** A `read` answer for a resource that is gone: the host then drops it from state. */
export function goneResult<O>(): pulumi.dynamic.ReadResult<O> {
    return { id: "", props: {} as O };
}
