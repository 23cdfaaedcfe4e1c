/**
 * An Endpoint delete: the endpoint deleted (one already gone is fine), then its workers destroyed,
 * since the service may keep a deleted endpoint's workers running, and billed (the vendor CLI
 * warns so). A worker that cannot be destroyed fails the delete, so the endpoint stays in state.
 */
import { ProviderContext } from "../../dynamic/context";
import { confirmedDelete } from "../confirmedDelete";
import { destroyWorkers } from "../serverless/workers";
import { EndpointOutputs } from "./endpointArgs";
import { shownUnlessGone } from "./endpointRecords";

export async function deleteEndpoint(ctx: ProviderContext, id: string, props: EndpointOutputs): Promise<void> {
    const endpointId = Number(props.endpointId ?? id);
    const vast = ctx.client();
    const target = props.name ? `${endpointId} (${props.name})` : String(endpointId);
    const { alreadyGone } = await confirmedDelete(
        ctx,
        { operation: "delete endpoint", target },
        () => vast.serverless.deleteEndpoint(endpointId),
        async () => (await shownUnlessGone(ctx, endpointId, props.accountId)) !== undefined,
    );
    ctx.log.progress(alreadyGone ? `endpoint ${target} was already deleted` : `endpoint ${target} deleted`);
    // Its workers too, the endpoint gone already or not: no worker of any of its groups outlives it.
    await destroyWorkers(ctx, vast, { endpointId });
}
